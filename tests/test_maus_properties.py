"""The combination judge against a plain brute-force oracle written here,
over every three-card hand with every helper, every four-card hand with
Amélie, and random hands, hand sizes and readings.

The oracle shares no code with the engine: it tries each way the helper can
change one card, keeps what the rule sheet says, and collects the points.
"""
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings, strategies as st

from companion.maus.engine import (
    ALL_DIFFERENT, NOT_ALL_ONE, MAY_LEAVE_RANGE, STAY_IN_RANGE, Card, Helper, Ingredient, Kind, MausRules, judge,
)

COLOURS = ["red", "yellow", "green", "blue", "purple"]
VALUES = [3, 4, 5, 6, 7]
HELPER_NAMES = [None, "etienne", "henri", "mathieu", "maurice", "lilly", "amelie", "claude"]
FACES = [(colour, value) for colour in COLOURS for value in VALUES]


def oracle_points(cards, helper, hand_after=None, all_different=False, may_leave=True):
    """Every score the holder of ``helper`` can make with ``cards``
    (pairs of colour and printed value); empty when they may not be laid."""
    n = len(cards)
    if not (n == 3 or (n == 4 and helper == "amelie")):
        return set()
    if hand_after is not None and hand_after < 1:
        return set()
    layouts = [list(cards)]
    for i, (colour, value) in enumerate(cards):
        changed = []
        if helper == "mathieu":
            changed = [(colour, value - 1)]
        elif helper == "maurice":
            changed = [(colour, value + 1)]
        elif helper == "claude":
            changed = [(other, value) for other in COLOURS if other != colour]
        for card in changed:
            if may_leave or 3 <= card[1] <= 7:
                layouts.append(cards[:i] + [card] + cards[i + 1:])
    found = set()
    for layout in layouts:
        score = oracle_score(cards, layout, helper, all_different)
        if score is not None:
            found.add(score)
    return found


def oracle_score(cards, layout, helper, all_different):
    n = len(cards)
    printed = [value for _, value in cards]
    laid = [value for _, value in layout]
    ordered = sorted(laid)
    is_set = ordered[0] == ordered[-1]
    is_run = all(ordered[k] + 1 == ordered[k + 1] for k in range(n - 1))
    if not (is_set or is_run):
        return None
    colours = {colour for colour, _ in layout}
    one_colour = len(colours) == 1
    if not one_colour and all_different and len(colours) < n:
        return None
    if is_run:
        pairs = sorted(zip(laid, printed))  # lowest as laid first
        if one_colour or helper == "lilly":
            kept, rest = [pairs[-1][1]], pairs[:-1]
        else:
            kept, rest = [pairs[0][1]], pairs[1:]
        if n == 4:
            kept.append(rest[0][1])
        return sum(kept)
    keep = (2 if one_colour else 1) + (1 if n == 4 else 0)
    return sum(sorted(printed, reverse=True)[:keep])


def engine_cards(cards):
    return [Card(Ingredient(colour), value) for colour, value in cards]


def check_against_oracle(cards, helper_name, hand_after=None, rules=MausRules("default")):
    helper = None if helper_name is None else Helper(helper_name)
    verdict = judge(engine_cards(cards), helper, hand_after, rules)
    expected = oracle_points(list(cards), helper_name, hand_after, rules.colours is ALL_DIFFERENT,
                             rules.helper_values.may_leave_range)
    assert verdict.legal == bool(expected), (cards, helper_name, verdict)
    assert {way.points for way in verdict.options} == expected, (cards, helper_name, verdict.options)
    if verdict.legal:
        assert verdict.reason is None and verdict.best.points == max(expected)
        assert [w.points for w in verdict.options] == sorted((w.points for w in verdict.options), reverse=True)
    else:
        assert verdict.reason and verdict.best is None
    for way in verdict.options:
        check_way(way, engine_cards(cards), helper)


def check_way(way, cards, helper):
    assert Counter(way.kept) + Counter(way.discarded) == Counter(cards)
    assert way.points == sum(card.value for card in way.kept)
    changed = [i for i in range(len(cards)) if way.laid[i] != cards[i]]
    assert len(changed) <= 1 and (not changed or helper in (Helper.MATHIEU, Helper.MAURICE, Helper.CLAUDE))
    values = sorted(card.value for card in way.laid)
    assert (way.kind is Kind.SET) == (values[0] == values[-1])
    assert way.single_colour == (len({card.ingredient for card in way.laid}) == 1)


@pytest.mark.parametrize("helper_name", HELPER_NAMES)
def test_every_three_card_hand_with_every_helper(helper_name):
    hands = list(combinations_with_replacement(FACES, 3))
    assert len(hands) == 2925
    legal = 0
    for hand in hands:
        check_against_oracle(list(hand), helper_name)
        legal += bool(oracle_points(list(hand), helper_name))
    assert 0 < legal < len(hands)   # both kinds of verdict were met


def test_every_four_card_hand_with_amelie():
    for hand in combinations_with_replacement(FACES, 4):
        check_against_oracle(list(hand), "amelie")


readings = st.builds(lambda c, v: MausRules("drawn", colours=c, helper_values=v),
                     st.sampled_from([NOT_ALL_ONE, ALL_DIFFERENT]), st.sampled_from([MAY_LEAVE_RANGE, STAY_IN_RANGE]))


@settings(max_examples=1500)
@given(st.lists(st.sampled_from(FACES), min_size=0, max_size=5), st.sampled_from(HELPER_NAMES),
       st.one_of(st.none(), st.integers(0, 5)), readings)
def test_random_hands_hand_sizes_and_readings(cards, helper_name, hand_after, rules):
    check_against_oracle(cards, helper_name, hand_after, rules)


def test_the_oracle_knows_the_worked_examples():
    """The oracle itself can fail: it scores RULES-MAUS.md's examples as written there."""
    assert oracle_points([("blue", 4), ("blue", 5), ("red", 6)], None) == {4}
    assert oracle_points([("blue", 4), ("blue", 5), ("red", 6)], "lilly") == {6}
    assert max(oracle_points([("blue", 4), ("blue", 5), ("red", 6)], "claude")) == 6
    assert oracle_points([("green", 3), ("green", 4), ("green", 6)], "mathieu") == {6}
    assert oracle_points([("red", 3), ("blue", 4), ("green", 5), ("yellow", 6)], "amelie") == {7}
    assert oracle_points([("red", 7)] * 4, "amelie") == {21}
    assert oracle_points([("red", 5), ("green", 5), ("blue", 5)], None, hand_after=0) == set()
