"""Illegal input is refused with a specific exception, and nothing is half applied."""
import pytest

from companion.engine import (
    MAMMA_MIA, ColorNotAtTable, Color, Decision, Deck, DuplicateOrder, Evaluation, IllegalCard, IllegalChoice,
    IllegalHandCards, Ingredients, MammaMiaInPile, NoPendingOrder, OrderPending, RulesError, TooManyIngredients,
    parse_card, parse_pile,
)


def five_players(table: str = "") -> Evaluation:
    return Evaluation(Deck.for_players(5), list(Color), Ingredients.from_notation(table))


def snapshot(ev: Evaluation):
    return (ev.table, list(ev.revealed), list(ev.outcomes), ev.used, ev.pending)


def test_a_fourteenth_salami_in_a_five_player_game():
    ev = five_players("10S")
    ev.run(parse_pile("3S"), lambda p: Decision.accept())
    before = snapshot(ev)
    with pytest.raises(TooManyIngredients, match="a 14th salami card .* 5-player game has only 13"):
        ev.reveal(parse_card("S"))
    assert snapshot(ev) == before


def test_a_ninth_pineapple_in_a_two_player_game_counting_leftovers():
    ev = Evaluation(Deck.for_players(2), [Color.GREEN, Color.RED], Ingredients.from_notation("5A"))
    ev.run(parse_pile("3A"), lambda p: Decision.accept())
    with pytest.raises(TooManyIngredients, match="9th pineapple"):
        ev.reveal(parse_card("A"))


def test_leftovers_beyond_the_deck_are_refused():
    with pytest.raises(TooManyIngredients):
        Evaluation(Deck.for_players(2), [Color.GREEN, Color.RED], Ingredients.from_notation("9S"))


def test_an_order_of_a_colour_not_at_the_table():
    ev = Evaluation(Deck.for_players(2), [Color.GREEN, Color.RED])
    with pytest.raises(ColorNotAtTable, match="purple is not at this table"):
        ev.reveal(parse_card("p:4S+O"))
    assert ev.revealed == []


def test_the_same_order_card_twice():
    ev = five_players("4S P")
    ev.reveal(parse_card("g:4S+P"))
    with pytest.raises(DuplicateOrder, match="appears twice"):
        ev.reveal(parse_card("g:4S+P"))


def test_an_order_delivered_in_an_earlier_round():
    ev = Evaluation(Deck.for_players(5), list(Color), delivered_before=[parse_card("g:4S+P")])
    with pytest.raises(DuplicateOrder, match="already delivered"):
        ev.reveal(parse_card("g:4S+P"))


def test_an_order_not_printed_in_the_edition():
    with pytest.raises(IllegalCard, match="not one of green's eight order cards"):
        five_players().reveal(parse_card("g:5A+P"))


def test_a_double_without_the_variant():
    with pytest.raises(IllegalCard, match="Doubled Ingredients"):
        five_players().reveal(parse_card("S2"))


def test_the_mamma_mia_card_is_not_in_the_pile():
    with pytest.raises(MammaMiaInPile):
        five_players().reveal(MAMMA_MIA)


def test_a_monotoni_joker_equal_to_the_personal_ingredient():
    ev = five_players("6P")
    ev.reveal(parse_card("g:P+6J"))
    before = snapshot(ev)
    with pytest.raises(IllegalChoice, match="may not be pepper, green's own ingredient"):
        ev.decide(Decision.accept(choice=parse_card("P").ingredient))
    assert snapshot(ev) == before


def test_a_choice_for_an_order_without_one():
    ev = five_players("3A")
    ev.reveal(parse_card("g:4A+P"))
    with pytest.raises(IllegalChoice, match="no ingredient to choose"):
        ev.decide(Decision.accept(choice=parse_card("A").ingredient))


def test_a_decision_when_none_is_pending():
    with pytest.raises(NoPendingOrder):
        five_players().decide(Decision.accept())


def test_a_reveal_while_an_order_waits():
    ev = five_players()
    ev.reveal(parse_card("g:4A+P"))
    with pytest.raises(OrderPending, match="still waits"):
        ev.reveal(parse_card("A"))


@pytest.mark.parametrize("hand, message", [("A", "does not cover"), ("2A O", "O is not needed")])
def test_hand_cards_that_do_not_fit_the_shortfall(hand, message):
    ev = five_players("2A P")
    ev.reveal(parse_card("g:4A+P"))
    before = snapshot(ev)
    with pytest.raises(IllegalHandCards, match=message):
        ev.decide(Decision.accept(hand=Ingredients.from_notation(hand)))
    assert snapshot(ev) == before


def test_every_refusal_is_a_value_error():
    for error in (TooManyIngredients, ColorNotAtTable, DuplicateOrder, IllegalChoice, NoPendingOrder):
        assert issubclass(error, RulesError) and issubclass(error, ValueError)
