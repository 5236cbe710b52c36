"""The work one photo may cost (vision.recognize.work): counted, not timed.
A photo whose first search finds no card is searched again only if the
budget pays for it, every outline is aligned only if the budget pays for its
worst case, and what is done is charged as it is done."""
import dataclasses

import pytest

from tools.synth.datasets import photo_stream
from vision.recognize import discern, pipeline, refine
from vision.recognize.config import DEFAULT_CONFIG
from vision.recognize.identify import ReferenceDeck
from vision.recognize.pipeline import Recogniser
from vision.recognize.scene import Scene
from vision.recognize.work import SEEN, Work, search_cost, step_cost, weigh_cost

from .recognize_support import ART, DECK

FIRST = search_cost((720, 1280), DEFAULT_CONFIG.detect_width)


@pytest.fixture(scope="module")
def smeared():
    """A photo the first search finds no card in: an order smeared 13 px by
    motion on a checked cloth (found by the coarser second search)."""
    [photo] = photo_stream(ART, 1, 401, ("top",), start=1176)
    return photo


class Ledger:
    """Every costly operation recognisers do from now on, priced with the
    work module's prices, counted where it happens (not where it is charged)."""

    def __init__(self, monkeypatch) -> None:
        self.units = 0.0
        self.searches: list[int] = []
        scene_of, aligned_by, judge = Scene.of, refine._aligned_by, discern.FineDeck.judge
        weigh, aligned, looked_at = discern.weigh, Recogniser.aligned, Recogniser._looked_at

        def counted_alignment(recogniser, scene, rough):
            self.units += pipeline.LOOKS_PER_ALIGNMENT * pipeline.LOOK  # its looks are charged as one
            return aligned(recogniser, scene, rough)

        def counted_looks(recogniser, scene, quads):
            self.units += len(quads) * pipeline.LOOK
            return looked_at(recogniser, scene, quads)

        def counted_scene(image, config, work=None):
            self.units += search_cost(image.shape, config.detect_width)
            self.searches.append(config.detect_width)
            return scene_of(image, config, work)

        def counted_step(step, *args, **kwargs):
            self.units += step_cost(step)
            return aligned_by(step, *args, **kwargs)

        def counted_judge(fine, image, outline, index, work=None):
            self.units += step_cost(fine.config.fine_align) + SEEN
            return judge(fine, image, outline, index, work)

        def counted_weigh(family, *args):
            self.units += weigh_cost(len(family.members), len(family.pixels))
            return weigh(family, *args)

        monkeypatch.setattr(Scene, "of", staticmethod(counted_scene))
        monkeypatch.setattr(refine, "_aligned_by", counted_step)
        monkeypatch.setattr(discern.FineDeck, "judge", counted_judge)
        monkeypatch.setattr(discern, "weigh", counted_weigh)
        monkeypatch.setattr(Recogniser, "aligned", counted_alignment)
        monkeypatch.setattr(Recogniser, "_looked_at", counted_looks)


def test_a_photo_that_defeats_the_first_search_stays_within_the_budget(smeared, monkeypatch):
    ledger = Ledger(monkeypatch)
    work = Work(DEFAULT_CONFIG.work_budget)
    found = Recogniser(DECK).recognise(smeared.image, work)
    assert [d.card for d in found] == [smeared.cards[-1].card]
    assert ledger.searches == [DEFAULT_CONFIG.detect_width, DEFAULT_CONFIG.fallback_width]
    assert ledger.units == pytest.approx(work.spent, rel=1e-9)
    assert FIRST < work.spent <= FIRST + DEFAULT_CONFIG.work_budget


@pytest.mark.parametrize("budget", [0.0, 5_000.0, 20_000.0, 40_000.0])
def test_a_smaller_budget_does_less_and_never_more_than_it_allows(smeared, budget, monkeypatch):
    """However small the budget, the photo is searched once and the work
    counted stays within it; the second search happens only when paid for."""
    ledger = Ledger(monkeypatch)
    work = Work(budget)
    found = Recogniser(DECK, dataclasses.replace(DEFAULT_CONFIG, work_budget=budget)).recognise(smeared.image, work)
    assert ledger.units <= FIRST + budget
    assert work.spent <= FIRST + budget
    second = search_cost(smeared.image.shape, DEFAULT_CONFIG.fallback_width)
    if budget < second:
        assert ledger.searches == [DEFAULT_CONFIG.detect_width] and found == []


def test_a_table_full_of_card_like_patterns_is_bounded_by_the_budget_alone(monkeypatch):
    """A checked cloth with no card on it offers many outlines; each is
    aligned only while the budget pays, so the work stops at the budget
    whatever the limits on alignments in vain allow."""
    [photo] = photo_stream(ART, 1, 11, ("empty",), start=0)
    lavish = dataclasses.replace(DEFAULT_CONFIG, max_alignments=500, max_weak_alignments=500, weak_min_support=0.0,
                                 refine_threshold=0.0)
    ledger = Ledger(monkeypatch)
    work = Work(30_000.0)
    Recogniser(DECK, dataclasses.replace(lavish, work_budget=30_000.0)).recognise(photo.image, work)
    assert ledger.units <= FIRST + 30_000.0
    assert work.spent > 30_000.0 - Recogniser(DECK)._outline_cost  # it went as far as the budget let it


def test_a_reading_is_weighed_against_its_family_a_bounded_number_of_times():
    deck = ReferenceDeck.from_faces(ART.faces.items())
    fine = deck.fine
    assert fine is not None
    assert fine.judge_cost == max(
        step_cost(DEFAULT_CONFIG.fine_align) + SEEN + weigh_cost(len(f.members), len(f.pixels))
        for f in {id(f): f for f in (fine.family_of(i) for i in range(len(deck.cards))) if f}.values())
