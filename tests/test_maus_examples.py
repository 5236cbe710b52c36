"""Every worked example of RULES-MAUS.md, as tests."""
import pytest

from companion.maus.engine import (
    Deck, Helper, HelperSeating, Kind, NoCardLeft, format_cards, judge, lay, parse_cards, picking_order,
)
from companion.maus.engine.combination import HelperUse


def best(cards: str, helper: Helper | None = None):
    verdict = judge(parse_cards(cards), helper)
    assert verdict.legal, verdict.reason
    return verdict.best


def test_bids_most_coins_first_ties_to_the_higher_helper():
    # A 3 coins, B 5 (Mathieu, 5), C 5 (Lilly, 3), D 7
    seating = HelperSeating.from_held([Helper.ETIENNE, Helper.MATHIEU, Helper.LILLY, Helper.HENRI], oldest=0)
    picks = picking_order([3, 5, 5, 5], seating.held, Deck.load().helper_numbers)  # D's Henri: 5 + 2 = 7
    assert [p.seat for p in picks] == [3, 1, 2, 0]
    assert (picks[0].coins, picks[0].bonus, picks[0].total) == (5, 2, 7)
    assert picks[-1].seat == 0   # A takes the last two cards; A's bid card stays in the middle


def test_bids_as_in_the_sheet_without_henri():
    seating = HelperSeating.from_held([Helper.ETIENNE, Helper.MATHIEU, Helper.LILLY, Helper.CLAUDE], oldest=0)
    picks = picking_order([3, 5, 5, 7], seating.held, Deck.load().helper_numbers)
    assert [p.seat for p in picks] == [3, 1, 2, 0]


def test_mixed_run_keeps_the_lowest():
    scoring = best("b4 b5 r6")
    assert (scoring.kind, scoring.single_colour, format_cards(scoring.kept), scoring.points) == (Kind.RUN, False, "b4", 4)
    assert format_cards(scoring.discarded) == "b5 r6" and scoring.use is None


def test_mixed_run_with_lilly_keeps_the_highest():
    scoring = best("b4 b5 r6", Helper.LILLY)
    assert (format_cards(scoring.kept), scoring.points, scoring.use) == ("r6", 6, HelperUse(Helper.LILLY))


def test_mixed_run_with_claude_made_one_colour():
    verdict = judge(parse_cards("b4 b5 r6"), Helper.CLAUDE)
    scoring = verdict.best
    assert scoring.single_colour and format_cards(scoring.kept) == "r6" and scoring.points == 6
    assert scoring.use == HelperUse.from_notation("claude r6>b6", index=2)
    assert [w.points for w in verdict.options] == [6, 4]   # and laid as printed


def test_one_colour_run_keeps_the_highest():
    scoring = best("g5 g6 g7")
    assert (scoring.single_colour, format_cards(scoring.kept), scoring.points) == (True, "g7", 7)


def test_mixed_set_keeps_one():
    scoring = best("r5 g5 b5")
    assert (scoring.kind, len(scoring.kept), scoring.points) == (Kind.SET, 1, 5)


def test_one_colour_set_keeps_two():
    scoring = best("y6 y6 y6")
    assert (scoring.kind, format_cards(scoring.kept), scoring.points) == (Kind.SET, "y6 y6", 12)


def test_mathieu_lowers_the_six_and_its_printed_value_counts():
    assert not judge(parse_cards("g3 g4 g6")).legal
    scoring = best("g3 g4 g6", Helper.MATHIEU)
    assert format_cards(scoring.laid) == "g3 g4 g5"
    assert (format_cards(scoring.kept), scoring.points) == ("g6", 6)
    assert scoring.use == HelperUse.from_notation("mathieu g6>g5", index=2)


def test_amelie_mixed_run_of_four_keeps_the_two_lowest():
    scoring = best("r3 b4 g5 y6", Helper.AMELIE)
    assert (format_cards(scoring.kept), scoring.points) == ("r3 b4", 7)


def test_amelie_one_colour_set_of_four_keeps_three():
    scoring = best("r7 r7 r7 r7", Helper.AMELIE)
    assert (len(scoring.kept), scoring.points) == (3, 21)


@pytest.mark.parametrize("helper", [None, *Helper])
def test_three_cards_in_hand_may_not_all_be_laid(helper):
    verdict = judge(parse_cards("g5 g6 g7"), helper, hand_after=0)
    assert not verdict.legal and isinstance(verdict.error, NoCardLeft)
    with pytest.raises(NoCardLeft):
        lay(parse_cards("g5 g6 g7"), helper, hand_after=0)
    assert judge(parse_cards("g5 g6 g7"), helper, hand_after=1).legal
