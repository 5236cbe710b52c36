"""The stages joined: image in, identified cards out."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np

from companion.engine import Card

from ..threads import one_thread
from .config import VisionConfig
from .corners import corner_hypotheses
from .detect import EdgeChains, outline_quads
from .discern import Verdict
from .identify import ReferenceDeck, card_scores, identify, identify_many
from .overlap import clear_of, inside_far_larger, overlapping, overlaps_any
from .rectify import rectify, rectify_many
from .refine import refine, refine_finest
from .types import Detection, Match, Quad, SetAside, median_short_side
from .scene import Scene
from .verify import outline_support
from .work import GLANCE, LOOK, LOOKS_PER_ALIGNMENT, Allowance, Work, alignment_cost, search_cost, step_cost, unlimited


class Recogniser:
    """Finds and identifies the cards of ``deck`` in images.

    Rough outlines are identified; the promising ones are aligned with their
    best reference and identified again; overlapping results (a pile's outline
    around its top card, a frame inside a card) keep only the best.
    """

    def __init__(self, deck: ReferenceDeck, config: VisionConfig | None = None) -> None:
        """``config`` (default: the deck's) may change how cards are searched
        for, aligned and reported; faces are still described as the deck's
        config says, so its sizes must be the deck's."""
        self.deck = deck
        self.config: VisionConfig = config or deck.config
        if (self.config.face_size, self.config.glance_size, self.config.face_margin) != \
                (deck.config.face_size, deck.config.glance_size, deck.config.face_margin):
            raise ValueError("the recogniser's face sizes differ from its deck's")
        strict = dict(min_confidence=self.config.second_confidence, min_clear_confidence=self.config.second_confidence)
        self._coarser = _second(deck, self.config, self.config.fallback_width, self.config.fallback_alignments, **strict)
        self._finer = _second(deck, self.config, self.config.finer_width, self.config.finer_alignments, **strict)
        # an outline is aligned only if the work left pays for it and for its card's fine
        # comparison, which is set aside for the card when it is kept
        self._judge_cost = deck.fine.judge_cost if deck.fine else 0.0
        self._outline_cost = alignment_cost(self.config) + self._judge_cost

    def recognise(self, image: np.ndarray, work: Work | None = None) -> list[Detection]:
        """Every card found in ``image`` (BGR), the most confident first,
        spending at most ``work`` (default: ``config.work_budget`` units; see
        :mod:`.work`) beyond the first search."""
        with one_thread():
            return self._recognise(image, work or Work(self.config.work_budget))

    def _recognise(self, image: np.ndarray, work: Work) -> list[Detection]:
        aside = SetAside()
        found = self._found(image, work, aside)
        work.release(self._judge_cost * len(found))
        # a card read inside an outline far larger that read as a card is a detail of that card
        hosts = [d for d in aside.read if d.confidence >= self.config.detail_host_confidence]
        found = [self._discerned(image, d, work)[0] for d in found
                 if not inside_far_larger(d, hosts, self.config.min_size_of_kept)]
        found += self._family_readings(image, aside.of_family, found, work)
        return sorted(found, key=lambda d: -d.confidence)

    def _found(self, image: np.ndarray, work: Work, aside: SetAside) -> list[Detection]:
        work.charge(search_cost(image.shape, self.config.detect_width))
        found = self._search(image, work=work, aside=aside)
        width = image.shape[1]
        coarser, finer = (s if s and width > s.config.detect_width else None for s in (self._coarser, self._finer))
        if not found:
            return coarser._paid_search(image, found, work, aside) if coarser else found
        if self._small(found, width):
            # a layout's small cards: narrow borders blurred into a cloth, or smeared by motion
            for second in (finer, coarser):
                if second:
                    found = second._paid_search(image, found, work, aside)
        return found

    def _paid_search(self, image: np.ndarray, found: list[Detection], work: Work,
                     aside: SetAside) -> list[Detection]:
        """A second search, if the work left pays for it (and ``found`` as it is if not)."""
        if not work.take(search_cost(image.shape, self.config.detect_width)):
            return found
        return self._search(image, found, work, aside)

    def _search(self, image: np.ndarray, found: Sequence[Detection] = (), work: Work | None = None,
                aside: SetAside | None = None) -> list[Detection]:
        """``found`` and the cards found beside them: from traced outlines, then
        (outlines broken by a hand or merged with the cards beneath or a
        cloth's lines) from corners and the frames printed inside cards.
        What was read but not kept is set ``aside``."""
        scene = Scene.of(image, self.config, work or unlimited())
        allowance = scene.allowance
        aside = SetAside() if aside is None else aside
        outlines = outline_quads(scene.chains, self.config)
        found = self._confirm(scene, clear_of(outlines, found), list(found), allowance, aside)
        grown = corner_hypotheses(scene.chains, self.config, [d.corners for d in found])
        framed = [q.enlarged(self.config.inner_frame_scale) for q in outlines]
        return self._confirm(scene, clear_of(grown + framed, found), found, allowance, aside)

    def _small(self, found: list[Detection], width: int) -> bool:
        """Whether the cards ``found`` are small enough for a finer search,
        their median short side against the image's ``width``."""
        if len(found) >= self.config.max_refined:
            return False
        return median_short_side(np.array([d.corners for d in found])) < self.config.finer_below * width

    def _confirm(self, scene: Scene, quads: list[Quad], found: list[Detection],
                 allowance: Allowance, aside: SetAside) -> list[Detection]:
        # an outline far smaller than every card found is not worth even a glance
        least = self._least_area(found)
        rough = self.glance(scene.chains, [q for q in quads if q.area >= least])
        promising = sorted((d for d in rough if d.confidence >= self.config.refine_threshold),
                           key=lambda d: -d.confidence)
        kept = list(found)
        outlines = np.array([d.corners for d in promising]).reshape(-1, 4, 2)
        covered = overlapping(outlines, [k.corners for k in kept])
        for index, rough_look in enumerate(promising):
            if covered[index]:
                continue  # another outline of a card already kept: costs nothing
            if not allowance.take(rough_look.confidence):
                break  # spent; a lower glance is no more worth aligning than this one
            if Quad(rough_look.corners).area < self._least_area(kept):
                continue  # after the allowance, which it should not free for other patterns
            if not self._worth_aligning(scene, rough_look):
                continue
            if not scene.work.fits(self._outline_cost):
                break  # the most promising outlines have had their turn
            detection = self.aligned(scene, rough_look)
            if self._is_new_card(scene, detection, kept):
                kept.append(detection)
                scene.work.reserve(self._judge_cost)
                covered |= overlapping(outlines, [detection.corners])
                allowance.give_back(rough_look.confidence)
            else:
                aside.read.append(detection)
                if self._names_its_family(scene, detection, kept):
                    aside.of_family.append(detection)
            if len(kept) >= self.config.max_refined:
                break
        return sorted(kept, key=lambda d: -d.confidence)

    def _worth_aligning(self, scene: Scene, rough: Detection) -> bool:
        """A weak glance is aligned only if it clearly names one card or edges
        run along its outline; the check costs a tenth of an alignment."""
        config = self.config
        return rough.confidence >= config.weak_glance or rough.match.margin >= config.weak_clear_margin or \
            outline_support(scene.gradients, rough.corners, config) >= config.weak_min_support

    def _least_area(self, kept: list[Detection]) -> float:
        """The area an outline needs to be aligned beside the cards ``kept``.
        Cards are one size and lie at about one distance from the camera, so an
        outline far smaller than every card kept is a pattern of the table or a
        detail of a card."""
        return self.config.min_size_of_kept * min((Quad(k.corners).area for k in kept), default=0.0)

    def _is_new_card(self, scene: Scene, detection: Detection, kept: list[Detection]) -> bool:
        """Confident, clear of the cards kept so far, and outlined by edges."""
        return self.config.is_confident(detection.match) and \
            not overlaps_any(detection, kept) and \
            outline_support(scene.gradients, detection.corners, self.config) >= self.config.min_outline_support

    def _names_its_family(self, scene: Scene, detection: Detection, kept: list[Detection]) -> bool:
        """Not confident of its card, but clearly a card of its family: the
        faces of a family (the orders of one printing) look alike at low
        resolution, so a reading of one of them under a thumb or a cast may
        fall short of :meth:`_is_new_card` though no card outside the family
        comes near it. Whether it shows its card's face is then for the fine
        comparison to say (:meth:`_family_readings`)."""
        return not overlaps_any(detection, kept) and \
            self._of_family(scene, detection, self.config.family_lone_confidence)

    def _of_family(self, scene: Scene, detection: Detection, floor: float) -> bool:
        """:meth:`_names_its_family`, wherever the cards kept lie, from a
        similarity of ``floor``."""
        config, fine = self.config, self.deck.fine
        if fine is None or detection.confidence < floor:
            return False
        family = fine.family_of(self.deck.cards.index(detection.card))
        if family is None:
            return False
        if outline_support(scene.gradients, detection.corners, config) < config.min_outline_support:
            return False
        scene.work.charge(LOOK)
        scores = card_scores(rectify(scene.image, Quad(detection.corners), config.face_size), self.deck)
        outside = np.delete(scores, list(family.members))
        return detection.confidence - float(outside.max(initial=0.0)) >= config.clear_margin

    def _family_readings(self, image: np.ndarray, of_family: list[Detection], found: list[Detection],
                         work: Work) -> list[Detection]:
        """The readings of ``of_family`` clear of the cards ``found`` and of
        one another (the most confident first), not far smaller than every
        one of them, whose card's face, in the fine comparison, explains at
        least ``config.family_min_fit`` of the reading and at least 1 less
        the reading's similarity, while the work left pays for that
        comparison; below ``config.family_min_confidence`` only while no card
        has been read. Their confidence is below ``sure_confidence`` (it is
        below ``min_confidence``): such a reading is sure only as one told
        apart from its family (``config.is_sure``)."""
        readings: list[Detection] = []
        weak_left = self.config.family_lone_readings
        for detection in sorted(of_family, key=lambda d: -d.confidence):
            taken = found + readings
            if detection.confidence < self.config.family_min_confidence:
                if taken or weak_left <= 0:
                    break  # the rest are weaker still
                weak_left -= 1
            if overlaps_any(detection, taken) or \
                    Quad(detection.corners).area < self._least_area(taken) or not work.fits(self._judge_cost):
                continue
            reading, verdict = self._discerned(image, detection, work)
            if verdict is not None and verdict.fit >= max(self.config.family_min_fit, 1 - detection.confidence):
                readings.append(reading)
        return readings

    def discerned(self, image: np.ndarray, detection: Detection, work: Work | None = None) -> Detection:
        """``detection`` looked at again where the faces close to its card
        differ (:mod:`.discern`). The card may change to one of them that the
        reading is clearly nearer. Every other card is then ruled out either
        there (a close face) or by the reading's margin over it at low
        resolution (any other): the runner-up is the most similar card not
        ruled out, and a close face not ruled out is among the candidates,
        with the reading's own confidence, so that it is not sure."""
        return self._discerned(image, detection, work)[0]

    def _discerned(self, image: np.ndarray, detection: Detection,
                   work: Work | None = None) -> tuple[Detection, Verdict | None]:
        """:meth:`discerned`, and the fine comparison's verdict (``None``
        for a card with no close faces)."""
        fine, deck = self.deck.fine, self.deck
        outline = Quad(detection.corners)
        verdict = fine.judge(image, outline, deck.cards.index(detection.card), work) if fine is not None else None
        scores = card_scores(rectify(image, outline, self.config.face_size), deck)
        if verdict is None:
            ruled_out = {deck.cards.index(detection.card)}
            others = _others(deck, scores, ruled_out)
            # without a fine comparison (a deck built without one) close faces were not looked for
            return Detection(replace(detection.match, others=others, alone=fine is not None), outline.corners), None
        family = fine.family_of(verdict.card)
        member = family.members.index(verdict.card)
        ruled_out = {verdict.card, *verdict.unresolved} | {m for k, m in enumerate(family.members)
                                                           if family.close[member, k]}
        candidates = tuple(deck.cards[i] for i in verdict.unresolved)
        others = _others(deck, scores, ruled_out)
        confidence = max(0.0, float(scores[verdict.card]))
        if candidates:
            runner_up, runner_up_confidence = candidates[0], confidence
        else:
            runner_up, runner_up_confidence = others[0] if others else (None, 0.0)
        match = Match(deck.cards[verdict.card], confidence, detection.match.upside_down, runner_up,
                      runner_up_confidence, candidates, others, verdict.fit)
        return Detection(match, outline.corners), verdict

    def glance(self, chains: EdgeChains, quads: Sequence[Quad]) -> list[Detection]:
        """A first identification of each quad, cheaply, from the coarse image."""
        outlines = chains.to_coarse(np.array([q.corners for q in quads], np.float32).reshape(-1, 4, 2))
        faces = rectify_many(chains.coarse, outlines, self.config.glance_size, self.config.glance_oversample)
        return [_oriented(match, quad) for match, quad in zip(identify_many(faces, self.deck, glance=True), quads)]

    def examine(self, image: np.ndarray, quad: Quad) -> Detection:
        """Identify the face inside ``quad``; corners come back in face order."""
        return _oriented(identify(rectify(image, quad, self.config.face_size), self.deck), quad)

    def aligned(self, scene: Scene, rough: Detection) -> Detection:
        """``rough`` seen at full size, after ECC alignment with its best match
        unless it is sure already at full size, as it is or a little larger
        (a glance is blurred: it finds the card, not how well the outline
        fits). A weak glance is nearly never sure as it stands, so it is
        aligned without those looks first; when alignment fails, it is
        looked at once, grown: glare on a pale card throws ECC off and
        weakens the glance, though the card's face still names it clearly.
        An outline that glanced as a card and is still unsure is read
        again larger (:meth:`_outer`)."""
        plain = grown = None
        scene.work.charge(LOOKS_PER_ALIGNMENT * LOOK)
        if rough.confidence >= self.config.weak_glance:
            plain = self.examine(scene.image, Quad(rough.corners))
            if self.config.is_sure(plain.match):
                return plain
            grown = self._grown(scene, Quad(rough.corners))
            if grown is not None and self.config.is_sure(grown.match):
                return grown
        quad, seen = self._refined(scene, rough, plain)
        if quad is None:
            found = plain or self.examine(scene.image, Quad(rough.corners).enlarged(self.config.outline_growth))
        else:
            better = seen or self.examine(scene.image, quad)
            found = better if plain is None or better.confidence > plain.confidence else plain
        return found if plain is None else self._outer(scene, rough, found, grown)

    def _outer(self, scene: Scene, rough: Detection, found: Detection,
               grown: Detection | None = None) -> Detection:
        """``found`` (what alignment made of ``rough``), or, when it is not
        sure, the card as read along a larger outline that reads it better
        (``config.frame_growths``), aligned from there at full size alone, if
        that reading is confident: ``rough`` may follow a printed frame inside
        the card. Asked of an outline that glanced as a card, while the work
        pays for the looks, the full-size step and the fine comparison of the
        card it may become. A larger reading short of confident is taken when
        it clearly names its family (:meth:`_of_family`): a pale card under a
        thumb or glare may read so even along its true edge, and the fine
        comparison then says which of the family it is. ``grown``, the look
        :meth:`_grown` took, is not taken again."""
        config, quad = self.config, Quad(rough.corners)
        taken = [grown] if grown is not None and config.outline_growth in config.frame_growths else []
        growths = [g for g in config.frame_growths if not taken or g != config.outline_growth]
        finest = step_cost(config.refine_steps[-1])
        # the looks, one more to tell whether a reading short of confident names its family, the
        # full-size step, and the fine comparison
        if config.is_sure(found.match) or not config.frame_growths or \
                not scene.work.fits((len(growths) + 2) * LOOK + finest + self._judge_cost):
            return found
        best = max(taken + self._looked_at(scene, [quad.enlarged(g) for g in growths]), key=lambda d: d.confidence)
        if best.confidence <= found.confidence:
            return found
        aligned = refine_finest(scene.levels, Quad(best.corners), self.deck.templates_of(best.card), config,
                                scene.work)
        seen = self._looked_at(scene, [aligned]) if aligned is not None else []
        best = max([best, *seen], key=lambda d: d.confidence)
        # a check of a cloth looked at larger may come nearer a card without becoming one; a card
        # under a thumb or glare may read short of confident along its true edge, yet clearly as
        # one of its family's faces, which the fine comparison then tells apart
        return best if config.is_confident(best.match) or \
            self._of_family(scene, best, config.family_min_confidence) else found

    def _looked_at(self, scene: Scene, quads: Sequence[Quad]) -> list[Detection]:
        """:meth:`examine` of each of ``quads``, charged to the scene's work."""
        scene.work.charge(len(quads) * LOOK)
        return [self.examine(scene.image, quad) for quad in quads]

    def _grown(self, scene: Scene, quad: Quad) -> Detection | None:
        """The look at ``quad`` enlarged by ``config.outline_growth`` (``None``
        at 1.0): it costs a tenth of an alignment, and most outlines of a
        card that are not sure as they are lie just inside its edge."""
        if self.config.outline_growth == 1.0:
            return None
        return self.examine(scene.image, quad.enlarged(self.config.outline_growth))

    def _refined(self, scene: Scene, rough: Detection,
                 plain: Detection | None) -> tuple[Quad | None, Detection | None]:
        """The outline of ``rough`` aligned (or ``None``), and the full-size
        look that was sure of it when alignment stopped early for that. An
        outline whose face ``plain`` already names its card but that the
        coarse steps lose is aligned at full size alone."""
        sure: list[Detection] = []

        def look(quad: Quad) -> float:
            # after a step a real card looks like one again; most outlines that do
            # not are patterns of the table, not worth the next step
            return self.glance(scene.chains, [quad])[0].confidence

        def settled(quad: Quad) -> bool:
            # a look at full size costs a fifth of the fine step it may save; refine
            # returns the outline at once when it is sure, so the look is of that outline
            seen = self.examine(scene.image, quad)
            if self.config.is_sure(seen.match):
                sure.append(seen)
            return bool(sure)

        templates = self.deck.templates_of(rough.card)
        quad = refine(scene.levels, Quad(rough.corners), templates, self.config, look, settled, scene.work)
        if quad is None:
            start = self._nearby(scene, rough)
            if start is not None:
                quad = refine(scene.levels, start, templates, self.config, look, settled, scene.work)
        if quad is None and plain is not None and plain.card == rough.card and self.config.names_its_card(plain.match):
            quad = refine_finest(scene.levels, Quad(rough.corners), templates, self.config, scene.work)
        return quad, (sure[0] if sure else None)

    def _nearby(self, scene: Scene, rough: Detection) -> Quad | None:
        """The outline near ``rough``'s (moved along the card's sides, a
        little larger or smaller: ``config.nearby_moves``, ``nearby_scales``)
        at which its card glances best, if that is ``config.nearby_gain``
        better than at its own and as good as a first alignment step must
        leave it; asked only of an outline that glanced as a card, not weakly
        (a pattern of the table), at most ``config.max_nearby`` times a
        search, while the work left pays for the glances and a second
        alignment. An outline traced from the card below, or cut
        by a thumb, lies too far off for ECC to find the card from it, and
        close enough for a glance."""
        config = self.config
        if rough.confidence < config.weak_glance or not scene.allowance.take_nearby():
            return None
        best = rough
        for moves, scales in ((config.nearby_moves, config.nearby_scales), (config.nearby_finer, (1.0,))):
            nearby = Quad(best.corners).nearby(moves, scales)
            if not scene.work.fits(GLANCE * len(nearby) + self._outline_cost):
                return None
            scene.work.charge(GLANCE * len(nearby))
            best = max((d for d in self.glance(scene.chains, nearby) if d.card == rough.card), default=best,
                       key=lambda d: d.confidence)
            best = best if best.confidence > rough.confidence else rough
        if best.confidence < max(rough.confidence + config.nearby_gain, config.refine_steps[0].go_on):
            return None
        return Quad(best.corners)


def _second(deck: ReferenceDeck, config: VisionConfig, width: int, alignments: int,
            **settings: float) -> Recogniser | None:
    """The recogniser of a second search at ``width`` (``None`` at 0), with
    ``alignments`` in vain of each kind and ``settings`` changed; it searches
    no further itself."""
    if not width:
        return None
    return Recogniser(deck, replace(config, detect_width=width, fallback_width=0, finer_width=0,
                                    max_alignments=alignments, max_weak_alignments=alignments, **settings))


def _others(deck: ReferenceDeck, scores: np.ndarray, left_out: set[int]) -> tuple[tuple[Card, float], ...]:
    """The cards of ``deck`` but ``left_out``, most similar first, with
    their similarity (``scores``, one per card; at least 0)."""
    order = np.argsort(-scores, kind="stable").tolist()
    return tuple((deck.cards[i], max(0.0, float(scores[i]))) for i in order if i not in left_out)


def _oriented(match: Match, quad: Quad) -> Detection:
    """The detection with its corners in face order (turned when upside down)."""
    return Detection(match, quad.turned().corners if match.upside_down else quad.corners)


__all__ = ["Recogniser"]
