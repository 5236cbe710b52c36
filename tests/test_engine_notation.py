"""Card notation and the JSON form: every card round-trips."""
import pytest
from hypothesis import given, strategies as st

from companion.engine import (
    MAMMA_MIA, Color, Deck, Ingredient, IngredientCard, Ingredients, NotationError, card_from_json,
    card_to_json, format_pile, parse_card, parse_pile,
)

ALL_CARDS = (
    [IngredientCard(i, d) for i in Ingredient for d in (False, True)]
    + [o for c in Color for o in Deck.for_players(5).orders(c)]
    + [MAMMA_MIA]
)


def test_fifty_one_distinct_faces():
    assert len(set(ALL_CARDS)) == 51
    assert len({c.notation for c in ALL_CARDS}) == 51


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda c: c.notation)
def test_notation_and_json_round_trip(card):
    assert parse_card(card.notation) == card
    assert card_from_json(card_to_json(card)) == card
    assert eval(repr(card), {**globals(), "IngredientCard": IngredientCard,
                             "Order": type(ALL_CARDS[12]), "MammaMiaCard": type(MAMMA_MIA)}) == card


def test_json_form_of_the_contract():
    assert card_to_json(parse_card("g:4A+P")) == {
        "kind": "order", "color": "green", "recipe": {"pineapple": 4, "pepper": 1}}
    assert card_to_json(parse_card("g:15+")) == {"kind": "order", "color": "green", "special": "bombastica"}
    assert card_to_json(parse_card("g:P+3?")) == {
        "kind": "order", "color": "green", "special": "minimale", "fixed": "pepper"}
    assert card_to_json(parse_card("S2")) == {"kind": "ingredient", "ingredient": "salami", "double": True}


@pytest.mark.parametrize("text", ["X", "S3", "g:", "q:4A+P", "g:4A+A", "g:0A+P", "g:4Z", "gg:4A+P", "0S"])
def test_bad_notation_names_the_token(text):
    with pytest.raises(NotationError):
        parse_pile(text)


@pytest.mark.parametrize("data", [
    {"kind": "pizza"}, {"kind": "ingredient", "ingredient": "ham"},
    {"kind": "ingredient", "ingredient": "olive", "double": "yes"},
    {"kind": "order", "color": "green"}, {"kind": "order", "color": "green", "special": "calzone"},
    {"kind": "order", "color": "green", "recipe": {"pineapple": -1}}, 7,
])
def test_bad_json_cards(data):
    with pytest.raises(NotationError):
        card_from_json(data)


cards = st.sampled_from(ALL_CARDS[:-1])


@given(st.lists(cards, max_size=40), st.booleans())
def test_pile_round_trip(pile, compress):
    assert parse_pile(format_pile(pile, compress)) == pile


@given(st.lists(st.sampled_from(ALL_CARDS[:10]), max_size=30))
def test_table_notation_round_trip(table_cards):
    table = Ingredients.from_cards(table_cards)
    assert Ingredients.from_notation(table.notation) == table
    assert table.total_units == sum(c.units for c in table_cards)


def test_table_notation_reads_like_the_table():
    assert Ingredients.from_notation("S 2A S2 S").notation == "2S S2 2A"
    assert Ingredients().notation == "-"
