"""The combination judge's legality layers, checked entry points and readings."""
import pytest

from companion.maus.engine import (
    ALL_DIFFERENT, STAY_IN_RANGE, Card, ColoursNotAllowed, Deck, Helper, HelperUse, IllegalCard, IllegalHelperUse,
    IllegalSetup, Ingredient, Kind, MausError, MausRules, NotationError, NotRunOrSet, WrongCardCount, format_cards, judge, lay,
    parse_cards,
)

ALL_DIFFERENT_RULES = MausRules("all different", colours=ALL_DIFFERENT)
IN_RANGE_RULES = MausRules("in range", helper_values=STAY_IN_RANGE)


def points(cards: str, helper: Helper | None = None, rules=None) -> list[int]:
    verdict = judge(parse_cards(cards), helper, rules=rules) if rules else judge(parse_cards(cards), helper)
    return [way.points for way in verdict.options]


@pytest.mark.parametrize("cards, helper, message", [
    ("g5 g6", None, "a combination is three cards, not 2"),
    ("g5 g6 g7 g7", None, "four cards make a combination only with Amélie"),
    ("g5 g6 g7 g7", Helper.LILLY, "four cards make a combination only with Amélie"),
    ("g3 g4 g5 g6 g7", Helper.AMELIE, "a combination is three cards or four, not 5"),
    ("", None, "a combination is three cards, not 0"),
])
def test_card_count(cards, helper, message):
    verdict = judge(parse_cards(cards), helper)
    assert not verdict.legal and isinstance(verdict.error, WrongCardCount) and verdict.reason == message
    with pytest.raises(WrongCardCount, match=message):
        lay(parse_cards(cards), helper)


@pytest.mark.parametrize("cards", ["g4 g5 g7", "g5 g5 g6", "r3 r5 r7", "g4 g4 g5 g6"])
def test_neither_run_nor_set(cards):
    helper = Helper.AMELIE if len(cards.split()) == 4 else None
    verdict = judge(parse_cards(cards), helper)
    assert isinstance(verdict.error, NotRunOrSet) and "neither a run" in verdict.reason
    with pytest.raises(NotRunOrSet):
        lay(parse_cards(cards), helper)


def test_the_laying_order_does_not_matter():
    assert points("b6 r4 b5") == points("r4 b5 b6") == [4]
    assert format_cards(judge(parse_cards("b6 r4 b5")).best.kept) == "r4"


def test_amelie_with_three_cards_is_an_ordinary_combination():
    scoring = judge(parse_cards("g5 g6 g7"), Helper.AMELIE).best
    assert scoring.points == 7 and scoring.use is None


def test_amelie_one_colour_run_keeps_the_highest_and_the_lowest():
    scoring = judge(parse_cards("g6 g3 g5 g4"), Helper.AMELIE).best
    assert (format_cards(scoring.kept), scoring.points) == ("g6 g3", 9)


def test_amelie_may_not_empty_the_hand_either():
    assert not judge(parse_cards("g3 g4 g5 g6"), Helper.AMELIE, hand_after=0).legal
    assert judge(parse_cards("g3 g4 g5 g6"), Helper.AMELIE, hand_after=1).legal


def test_amelie_mixed_set_of_four_keeps_two():
    assert points("r4 g4 b4 b4", Helper.AMELIE) == [8]


def test_a_set_keeps_the_best_printed_cards():
    # Maurice lays g4 as 5: the set 5-5-5 of one colour keeps the two printed 5s, not the 4
    verdict = judge(parse_cards("g4 g5 g5"), Helper.MAURICE)
    assert verdict.best.kind is Kind.SET and format_cards(verdict.best.kept) == "g5 g5"
    assert [w.points for w in verdict.options] == [10, 5]   # or g5 raised to 6: run 4-5-6 keeps the printed 5


def test_helpers_without_a_choice_change_nothing_here():
    for helper in (None, Helper.ETIENNE, Helper.HENRI):
        assert points("b4 b5 r6", helper) == [4]
        assert judge(parse_cards("b4 b5 r6"), helper).best.use is None


def test_lilly_changes_only_mixed_runs():
    assert points("r5 g5 b5", Helper.LILLY) == [5]
    assert judge(parse_cards("g5 g6 g7"), Helper.LILLY).best.use is None


def test_claude_offers_each_outcome_once():
    assert points("r4 b5 g6", Helper.CLAUDE) == [4]            # three colours: no one change makes one colour
    assert points("r5 b5 b5", Helper.CLAUDE) == [10, 5]        # two blue 5s kept
    assert points("g5 g6 g7", Helper.CLAUDE) == [7, 5]         # legal, if worse: a card made another colour


def test_identical_changes_are_one_option():
    # lower g6: set 5-5-5 of one colour keeps the printed 6 and a 5; lower either g5: run 4-5-6
    verdict = judge(parse_cards("g5 g5 g6"), Helper.MATHIEU)
    assert [w.points for w in verdict.options] == [11, 6]
    verdict = judge(parse_cards("g5 g5 g4"), Helper.MAURICE)   # either g5 raised: the same run; or g4 raised: a set
    assert [w.points for w in verdict.options] == [10, 5]


def test_a_chooser_that_cannot_help_says_so():
    verdict = judge(parse_cards("g3 g5 g7"), Helper.MATHIEU)
    assert verdict.reason == "3-5-7 is neither a run (consecutive values) nor a set (equal values), " \
                             "and Mathieu cannot make it a combination"


def test_reading_values_may_leave_the_printed_range():
    assert points("g6 g7 g7", Helper.MAURICE) == [14, 7]            # 7 raised to 8: run 6-7-8
    assert points("g6 g7 g7", Helper.MAURICE, IN_RANGE_RULES) == [14]
    assert points("g3 g3 g4", Helper.MATHIEU) == [7, 4]              # 3 lowered to 2: run 2-3-4 keeps the 4
    assert points("g3 g3 g4", Helper.MATHIEU, IN_RANGE_RULES) == [7]
    with pytest.raises(IllegalHelperUse):
        lay(parse_cards("g6 g7 g7"), Helper.MAURICE, HelperUse.from_notation("maurice g7>g8", 1), rules=IN_RANGE_RULES)


def test_reading_two_of_a_colour_and_one_other_is_mixed():
    assert points("b4 b5 r6") == [4]
    verdict = judge(parse_cards("b4 b5 r6"), rules=ALL_DIFFERENT_RULES)
    assert isinstance(verdict.error, ColoursNotAllowed)
    assert points("g4 b5 r6", rules=ALL_DIFFERENT_RULES) == [4]
    assert points("b4 b5 b6", rules=ALL_DIFFERENT_RULES) == [6]
    # Claude can mend it either way: one colour (6) or three colours (4)
    assert points("b4 b5 r6", Helper.CLAUDE, ALL_DIFFERENT_RULES) == [6, 4]


def test_readings_by_their_keys():
    rules = MausRules.from_dict({"colours": "all_different", "helper_values": "stay_in_range"})
    assert rules == MausRules(colours=ALL_DIFFERENT, helper_values=STAY_IN_RANGE)
    assert MausRules.from_dict(rules.as_dict()) == rules
    with pytest.raises(IllegalSetup, match="unknown rule option 'colors'"):
        MausRules.from_dict({"colors": "all_different"})
    with pytest.raises(IllegalSetup, match="colours may be not_all_one or all_different, not 'mixed'"):
        MausRules.from_dict({"colours": "mixed"})


def test_lay_with_a_chosen_change():
    scoring = lay(parse_cards("g3 g4 g6"), Helper.MATHIEU, HelperUse.from_notation("mathieu g6>g5", 2))
    assert scoring.points == 6 and format_cards(scoring.laid) == "g3 g4 g5"
    assert lay(parse_cards("b4 b5 r6"), Helper.CLAUDE).points == 4   # no change: as printed


@pytest.mark.parametrize("helper, change, message", [
    (Helper.LILLY, "mathieu g6>g5", "Mathieu is not the helper this player holds"),
    (Helper.MATHIEU, "mathieu g6>g7", "Mathieu cannot lay the green 6 as green 7"),
    (Helper.MATHIEU, "mathieu g6>g4", "Mathieu cannot lay the green 6 as green 4"),
    (Helper.MAURICE, "maurice g6>g5", "Maurice cannot lay the green 6 as green 5"),
    (Helper.CLAUDE, "claude g6>g5", "Claude cannot lay the green 6 as green 5"),
    (Helper.MATHIEU, "mathieu", "Mathieu changes one of the laid cards"),
])
def test_lay_refuses_a_change_the_helper_cannot_make(helper, change, message):
    with pytest.raises(IllegalHelperUse, match=message):
        lay(parse_cards("g3 g4 g6"), helper, HelperUse.from_notation(change, 2))


def test_lay_refuses_a_change_that_makes_no_combination():
    with pytest.raises(NotRunOrSet):
        lay(parse_cards("g3 g4 g6"), Helper.MATHIEU, HelperUse.from_notation("mathieu g3>g2", 0))


def test_lay_refuses_a_change_pointing_past_the_cards():
    with pytest.raises(IllegalHelperUse):
        lay(parse_cards("g3 g4 g6"), Helper.MATHIEU, HelperUse.from_notation("mathieu g6>g5", 3))


@pytest.mark.parametrize("card, message", [
    (Card(Ingredient.GREEN, 9), "green 9: sweet values run from 3 to 7"),
    (Card(Ingredient.GREEN, 2), "green 2: sweet values run from 3 to 7"),
    (Card(Ingredient.GREEN, 7, coins=5), "green 7 with 5 coins: the stand-in deck's 7s show 1, 2 coins"),
])
def test_a_card_the_deck_does_not_have_is_refused(card, message):
    cards = [card, Card(Ingredient.GREEN, 5), Card(Ingredient.GREEN, 6)]
    with pytest.raises(IllegalCard, match=message):
        judge(cards)


@pytest.mark.parametrize("text", ["x5", "g", "5g", "g5/", "G5", "g5/x"])
def test_bad_notation(text):
    with pytest.raises(NotationError):
        Card.from_notation(text)


def test_notation_round_trip_and_readable_repr():
    card = Card.from_notation("p7/2")
    assert (card.ingredient, card.value, card.coins, str(card)) == (Ingredient.PURPLE, 7, 2, "p7/2")
    assert eval(repr(card)) == card
    assert repr(judge(parse_cards("g5 g6 g7")).best) == "<Scoring g5 g6 g7: run, keep g7, 7 points>"
    assert HelperUse.from_notation("claude r6>b6").describe() == "Claude makes the red 6 blue"
    with pytest.raises(NotationError):
        HelperUse.from_notation("claude r6")


def test_every_refusal_is_a_value_error():
    assert issubclass(MausError, ValueError) and issubclass(WrongCardCount, MausError)


def test_the_stand_in_deck_is_labelled_and_whole():
    deck = Deck.load()
    assert deck.stand_in and "STAND-IN" not in repr(deck) and "stand-in" in repr(deck)
    assert len(deck.cards()) == 80 and deck.cards_per_ingredient == 16
    assert sorted({c.value for c in deck.cards()}) == [3, 4, 5, 6, 7]
    assert sum(deck.faces().values()) == 80 and len(deck.faces()) == 70
    assert deck.helper_numbers[Helper.MATHIEU] == 5 and deck.helper_numbers[Helper.LILLY] == 3
    assert set(deck.numbers_from_sheet) == {Helper.MATHIEU, Helper.LILLY}
