"""Which cards can come next in a round's pile, and why another cannot: the
legality layers asked about a card before it is revealed."""
import pytest

from companion.engine import (
    MAMMA_MIA, Color, ColorNotAtTable, Deck, DuplicateOrder, Edition, Evaluation, IllegalCard, Ingredients,
    MammaMiaInPile, NextCard, TooManyIngredients, parse_card, parse_pile,
)
from companion.engine.table import TableGame
from companion.engine.tablelog import CardRevealed, GameCreated, OrderDecided, RoundEnded, Seat

GREEN, RED = Color.GREEN, Color.RED


def table_game(doubled: bool = False) -> TableGame:
    return TableGame(GameCreated((Seat("Ann", GREEN), Seat("Bob", RED)), doubled))


def reveal(game: TableGame, pile: str) -> None:
    for card in parse_pile(pile):
        game.apply(CardRevealed(card))


def notations(cards) -> set[str]:
    return {c.notation for c in cards}


def test_at_the_start_of_a_base_game_the_singles_and_the_tables_orders_can_come():
    possible = table_game().next_card.possible()
    orders = Edition.load().orders
    assert notations(possible) == {"S", "A", "M", "P", "O"} | notations(orders[GREEN] + orders[RED])
    assert possible[:5] == tuple(parse_pile("S A M P O"))  # the edition's order: ingredients first


def test_doubles_can_come_only_with_the_variant():
    assert parse_card("A2") in table_game(doubled=True).next_card.possible()
    refusal = table_game().next_card.why_not(parse_card("A2"))
    assert isinstance(refusal, IllegalCard) and "Doubled Ingredients" in str(refusal)


@pytest.mark.parametrize("card, error, words", [
    ("y:4A+P", ColorNotAtTable, "yellow is not at this table"),
    ("!", MammaMiaInPile, "never part of the oven pile"),
    ("g:9S", IllegalCard, "not one of green's eight order cards"),
])
def test_cards_that_do_not_exist_at_this_table_are_never_possible(card, error, words):
    refusal = table_game().next_card.why_not(parse_card(card))
    assert isinstance(refusal, error) and words in str(refusal)
    assert parse_card(card) not in table_game().next_card.possible()


def test_an_order_already_on_the_pile_this_round_cannot_come_again():
    game = table_game()
    reveal(game, "S g:4S+P")
    game.apply(OrderDecided(False))
    refusal = game.next_card.why_not(parse_card("g:4S+P"))
    assert isinstance(refusal, DuplicateOrder) and "appears twice" in str(refusal)
    assert parse_card("g:4S+P") not in game.next_card.possible()
    assert parse_card("g:4A+P") in game.next_card.possible()


def test_an_order_delivered_in_an_earlier_round_cannot_come_but_a_returned_one_can():
    game = table_game()
    reveal(game, "4S P g:4S+P g:4A+P")
    game.apply(OrderDecided(False))  # green could not add the pineapple: the order goes back
    game.apply(RoundEnded())
    refusal = game.next_card.why_not(parse_card("g:4S+P"))
    assert isinstance(refusal, DuplicateOrder) and "already delivered" in str(refusal)
    assert game.next_card.can_be(parse_card("g:4A+P"))


def test_no_more_copies_of_an_ingredient_than_the_deck_holds_counting_leftovers():
    evaluation = Evaluation(Deck.for_players(2), [GREEN, RED], Ingredients.from_notation("5A"))
    for card in parse_pile("3A"):
        evaluation.reveal(card)
    refusal = evaluation.next_card.why_not(parse_card("A"))
    assert isinstance(refusal, TooManyIngredients) and "a 9th pineapple card" in str(refusal)
    assert parse_card("A") not in evaluation.next_card.possible()
    assert parse_card("S") in evaluation.next_card.possible()


def test_while_an_order_waits_for_its_owner_the_cards_that_can_come_next_stay_the_same():
    game = table_game()
    reveal(game, "S g:4A+P")
    assert game.pending is not None
    before = game.next_card.possible()
    game.apply(OrderDecided(True))
    assert game.next_card.possible() == before


def test_what_the_reveal_refuses_is_exactly_what_why_not_names():
    """One set of rules: each face the evaluation refuses has a reason, and each it takes has none."""
    for face in Edition.load().faces():
        game = table_game()
        reveal(game, "3S g:4S+P")
        game.apply(OrderDecided(False))
        reason = game.next_card.why_not(face)
        try:
            game.apply(CardRevealed(face))
        except IllegalCard as refused:
            assert reason is not None and str(refused) == str(reason)
        else:
            assert reason is None


def test_after_follows_a_sequence_of_cards_without_deciding_orders():
    upcoming = table_game().next_card
    for card in parse_pile("S g:P+6J S"):
        upcoming = upcoming.after(card)
    assert not upcoming.can_be(parse_card("g:P+6J")) and upcoming.seen.notation == "2S"
    with pytest.raises(DuplicateOrder):
        upcoming.after(parse_card("g:P+6J"))


def test_once_the_rounds_are_over_nothing_comes_next():
    game = table_game()
    for _ in range(3):
        game.apply(RoundEnded())
    assert game.next_card is None


def test_the_edition_prints_51_distinct_faces_ending_with_the_mamma_mia_card():
    faces = Edition.load().faces()
    assert len(faces) == len(set(faces)) == 51 and faces[-1] is MAMMA_MIA
    assert isinstance(NextCard(Deck.for_players(5), tuple(Color)).why_not(MAMMA_MIA), MammaMiaInPile)
