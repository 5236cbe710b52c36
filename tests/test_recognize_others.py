"""A reading's ``others`` (vision.recognize.types.Match): every card of the
deck the reading was not told apart from by a closer look, most similar
first, so that a caller who knows some cards cannot be the one seen (the
game's rules) can judge the reading among the rest."""
import numpy as np

from companion.engine import Order, parse_card
from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.pipeline import Recogniser
from vision.recognize.types import Match

from .recognize_support import ART, DECK, TRUTH, place
from .test_recognize_discern import HARD, HARD_DECK, photographed, read


def test_a_sure_reading_lists_every_card_it_was_not_told_apart_from_closely_most_similar_first():
    card = Order.from_notation("r:S+A+M+P+O")
    match = read(photographed(HARD.faces[card], cast=(1.08, 0.97, 0.9))).match
    assert match.card == card and DEFAULT_CONFIG.is_sure(match)
    listed = [c for c, _ in match.others]
    similarity = [s for _, s in match.others]
    assert similarity == sorted(similarity, reverse=True) and min(similarity) >= 0
    assert (match.runner_up, match.runner_up_confidence) == match.others[0]
    # the other colours of the recipe differ only in a thin frame: the closer look ruled them out
    siblings = {Order.from_notation(f"{c}:S+A+M+P+O") for c in "ybgp"}
    assert card not in listed and not siblings & set(listed)
    assert len(set(listed)) == len(listed) and set(listed) < set(HARD_DECK.cards)


def test_an_unsure_reading_keeps_its_candidates_apart_from_the_others():
    pineapple, mushroom = Order.from_notation("r:S+4A"), Order.from_notation("r:S+4M")
    face = HARD.faces[pineapple].copy()
    differs = np.abs(face.astype(int) - HARD.faces[mushroom].astype(int)).max(axis=2) > 40
    ys, xs = np.nonzero(differs)
    face[ys.min() - 4:ys.max() + 5, xs.min() - 4:xs.max() + 5] = np.median(face[face.shape[0] // 2:].reshape(-1, 3), 0)
    match = read(photographed(face)).match
    assert match.candidates and not set(match.candidates) & {c for c, _ in match.others}
    rivals = match.rivals
    assert [c for c, _ in rivals[:len(match.candidates)]] == list(match.candidates)
    assert all(s == match.confidence for _, s in rivals[:len(match.candidates)])
    assert rivals[len(match.candidates):] == match.others


def test_a_card_with_no_close_faces_lists_all_the_deck_s_other_cards():
    """The stand-in deck's Mamma Mia! card looks like no other: nothing is
    ruled out by a closer look, and the runner-up leads the others."""
    detection = Recogniser(DECK).recognise(place(ART.faces[parse_card("!")], TRUTH, seed=2))[0]
    match = detection.match
    assert match.card == parse_card("!") and match.candidates == ()
    assert len(match.others) == len(DECK.cards) - 1
    assert match.others[0][0] == match.runner_up
    assert abs(match.others[0][1] - match.runner_up_confidence) < 0.02


def test_a_match_made_without_others_knows_only_its_runner_up():
    sure = Match(parse_card("S"), 0.9, False, parse_card("A"), 0.5)
    assert sure.rivals == ((parse_card("A"), 0.5),)
    unsure = Match(parse_card("S"), 0.8, False, parse_card("S2"), 0.8, (parse_card("S2"), parse_card("M")))
    assert unsure.rivals == ((parse_card("S2"), 0.8), (parse_card("M"), 0.8))
