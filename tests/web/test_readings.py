"""Readings judged among the cards the game allows next (companion.web.readings),
with the recogniser's own sureness rule."""
from __future__ import annotations

from companion.engine import Color, Deck, NextCard, parse_card
from companion.web.readings import MAX_CANDIDATES, judge, judge_sequence
from vision.recognize.config import DEFAULT_CONFIG

from .test_camera_queue import seen

GREEN_RED = NextCard(Deck.for_players(2), (Color.GREEN, Color.RED))
is_sure = DEFAULT_CONFIG.is_sure


def names(cards) -> list[str]:
    return [c.notation for c in cards]


def test_without_a_game_the_recogniser_s_own_judgement_stands():
    match = seen("g:4A+P", 0.9, candidates="y:4A+P", others="S=0.3")
    reading = judge(match, is_sure)
    assert reading.card == match.card and not reading.sure and reading.ruled_out is None
    assert names(reading.candidates) == ["g:4A+P", "y:4A+P", "S"]


def test_a_close_rival_the_rules_rule_out_no_longer_counts():
    reading = judge(seen("g:4A+P", 0.9, candidates="y:4A+P", others="S=0.3"), is_sure, GREEN_RED.can_be)
    assert reading.sure and names(reading.candidates) == ["g:4A+P", "S"]
    assert (reading.runner_up.notation, reading.match.runner_up_confidence) == ("S", 0.3)


def test_the_margin_is_taken_over_the_most_similar_possible_card():
    close = seen("g:4A+P", 0.9, others="y:4A+P=0.88 r:S+4A=0.87 S=0.3")
    assert not is_sure(close)
    reading = judge(close, is_sure, GREEN_RED.can_be)
    assert not reading.sure and reading.runner_up.notation == "r:S+4A"  # still within the margin
    far = judge(seen("g:4A+P", 0.9, others="y:4A+P=0.88 S=0.3"), is_sure, GREEN_RED.can_be)
    assert far.sure


def test_a_low_confidence_stays_unsure_whatever_the_rules_rule_out():
    assert not judge(seen("g:4A+P", 0.6, others="y:4A+P=0.5"), is_sure, GREEN_RED.can_be).sure


def test_a_ruled_out_card_gives_way_to_the_likeliest_possible_one_never_surely():
    reading = judge(seen("y:4A+P", 0.98, others="g:4A+P=0.9 S=0.1"), is_sure, GREEN_RED.can_be)
    assert reading.card.notation == "g:4A+P" and not reading.sure
    assert reading.ruled_out == parse_card("y:4A+P") and reading.confidence == 0.9
    assert names(reading.candidates) == ["g:4A+P", "S"]


def test_a_ruled_out_card_s_close_faces_come_before_the_others():
    reading = judge(seen("y:15+", 0.9, candidates="r:15+ b:15+ g:15+", others="S=0.5"), is_sure, GREEN_RED.can_be)
    assert names(reading.candidates) == ["r:15+", "g:15+", "S"] and not reading.sure


def test_at_most_four_candidates_likeliest_first():
    reading = judge(seen("S", 0.7, candidates="A", others="M=0.6 P=0.5 O=0.4 g:4S+P=0.3"), is_sure)
    assert names(reading.candidates) == ["S", "A", "M", "P"] and len(reading.candidates) == MAX_CANDIDATES


def test_nothing_is_proposed_when_no_card_it_might_be_can_come():
    assert judge(seen("y:4A+P", 0.95, others="y:4M+P=0.5 !=0.2"), is_sure, GREEN_RED.can_be) is None


def test_a_sequence_is_judged_card_after_card():
    """The same order seen twice (a misread, or the card seen again): the
    second sight cannot be it."""
    twice = seen("g:4A+P", 0.95, others="g:4M+P=0.6 S=0.2")
    first, second = judge_sequence([twice, twice], is_sure, GREEN_RED)
    assert first.card.notation == "g:4A+P" and first.sure
    assert second.card.notation == "g:4M+P" and not second.sure


def test_a_reading_of_a_card_beyond_the_supply_is_refused_in_the_page_language(app):
    """The camera reads a 9th salami where a 2-player game has 8: the page says why in its words."""
    from companion.engine.ingredients import Ingredients
    from companion.web.readings import refusal_json

    eight = Ingredients.from_cards([parse_card("S")] * 8)
    upcoming = NextCard(Deck.for_players(2), (Color.GREEN, Color.RED), seen=eight)
    with app.test_request_context(headers={"Cookie": "lang=nl"}):
        refusal = refusal_json(seen("S", 0.95), upcoming)
    assert refusal == {"card": "S", "reason": "Er is geen 9e kaart met salami (S): in een spel met 2 spelers zijn er "
                                              "maar 8 kaarten met salami."}
