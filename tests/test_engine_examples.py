"""Every worked example of RULES.md and the rule sheets, as tests."""
import pytest

from companion.engine import (
    Color, Decision, Deck, Evaluation, IllegalChoice, Ingredient, Ingredients, parse_card, parse_pile,
)
from companion.engine.pizzas import Minimale, Monotoni

S, A, M, P, O = Ingredient


def evaluation(table: str, players=(Color.GREEN, Color.RED), doubles=False) -> Evaluation:
    return Evaluation(Deck.for_players(len(players), doubles), players, Ingredients.from_notation(table))


@pytest.mark.parametrize("table, stays", [
    ("P 2S 3A 4M", "2S 4M"),   # RULES.md, Dutch and Spanish sheets
    ("P 7S 3A 4M", "7S 4M"),   # French sheet: 7 salami face up
])
def test_order_completed_with_one_card_from_hand(table, stays):
    ev = evaluation(table)
    pending = ev.reveal(parse_card("g:4A+P")).pending
    assert pending.options[0].needed.as_dict() == {"pineapple": 1}
    outcome = ev.decide(Decision.accept(hand=Ingredients.from_notation("A")))
    assert outcome.fulfilled
    assert outcome.used_from_table == Ingredients.from_notation("3A P")
    assert ev.used == Ingredients.from_notation("4A P")  # five cards go to the used pile
    assert ev.table == Ingredients.from_notation(stays)
    assert ev.delivered[Color.GREEN] == [parse_card("g:4A+P")]


def test_order_not_completed_removes_nothing_and_returns_to_owner():
    ev = evaluation("P 2S 3A 4M")
    ev.reveal(parse_card("g:4A+P"))
    outcome = ev.decide(Decision.decline())
    assert not outcome.fulfilled and outcome.used_from_table == Ingredients()
    assert ev.table == Ingredients.from_notation("P 2S 3A 4M")
    assert ev.returned[Color.GREEN] == [parse_card("g:4A+P")]


def test_monotoni_czech_example():
    # 4 pepper, 2 salami, 2 mushroom, 4 pineapple; green (pepper) reveals Monotoni.
    ev = evaluation("4P 2S 2M 4A")
    pending = ev.reveal(parse_card("g:P+6J")).pending
    costs = {o.choice: o.needed.as_dict() for o in pending.options}
    assert costs == {S: {"salami": 4}, A: {"pineapple": 2}, M: {"mushroom": 4}, O: {"olive": 6}}
    assert pending.best().choice is A
    with pytest.raises(IllegalChoice, match="may not be pepper"):
        ev.decide(Decision.accept(choice=P))
    assert ev.pending is pending  # the refused decision changed nothing
    ev.decide(Decision.accept(choice=A, hand=Ingredients.from_notation("2A")))
    assert ev.table == Ingredients.from_notation("3P 2S 2M")


def test_minimale_french_and_czech_example():
    # 2 pepper, 2 salami, 2 mushroom, 3 pineapple, no olive; green (pepper) reveals Minimale.
    ev = evaluation("2P 2S 2M 3A")
    pending = ev.reveal(parse_card("g:P+3?")).pending
    assert {o.choice: o.needed.as_dict() for o in pending.options} == {S: {"salami": 1}, M: {"mushroom": 1}}
    with pytest.raises(IllegalChoice, match="choose salami or mushroom"):
        ev.decide(Decision.accept(choice=O))  # olive: not face up
    with pytest.raises(IllegalChoice):
        ev.decide(Decision.accept(choice=P))  # pepper: green's own
    outcome = ev.decide(Decision.accept(choice=M, hand=Ingredients.from_notation("M")))
    assert outcome.fulfilled and ev.table == Ingredients.from_notation("P 2S 3A")


def test_minimale_with_no_eligible_ingredient_cannot_succeed():
    ev = evaluation("3P")
    reveal = ev.reveal(parse_card("g:P+3?"))
    assert reveal.pending is None
    assert not reveal.outcome.fulfilled and reveal.outcome.reason == "no eligible ingredient"


def test_minimale_fewest_ignores_own_ingredient():
    # Pepper alone has the fewest, but it does not take part: salami (2) is the fewest that counts.
    assert Minimale(P).eligible(Ingredients.from_notation("P 2S 3M")) == (S,)


def test_bombastica_uses_every_face_up_ingredient():
    ev = evaluation("4S 4A 4M 4P 2O")   # 18 face up, more than 15
    outcome = ev.reveal(parse_card("r:15+")).outcome
    assert outcome.fulfilled and ev.table == Ingredients()  # nothing stays face up
    assert ev.used.total_units == 18


def test_bombastica_shortfall_from_any_hand_cards():
    ev = evaluation("4S 4A 4M")
    pending = ev.reveal(parse_card("r:15+")).pending
    assert pending.options[0].needed.as_dict() == {"any": 3}
    outcome = ev.decide(Decision.accept(hand=Ingredients.from_notation("O 2P")))
    assert outcome.fulfilled and ev.used.total_units == 15


def test_order_fulfilled_from_table_needs_no_decision():
    ev = evaluation("4S P 2M")
    reveal = ev.reveal(parse_card("g:4S+P"))
    assert reveal.pending is None and reveal.outcome.fulfilled
    assert ev.table == Ingredients.from_notation("2M")


def test_leftovers_count_for_the_next_pile():
    ev = evaluation("3S")   # carried over from the last round
    outcomes = ev.run(parse_pile("S P g:4S+P"), lambda p: Decision.decline())
    assert outcomes[0].fulfilled and ev.table == Ingredients()


class TestDoubledIngredients:
    def test_double_on_table_used_first_and_may_overpay(self):
        ev = evaluation("P2 2P 4A", doubles=True)
        ev.reveal(parse_card("g:4A+P"))
        assert ev.table == Ingredients.from_notation("2P")   # the double paid for the 1 pepper

    def test_double_counts_two_on_the_table(self):
        ev = evaluation("2A2 P", doubles=True)
        assert ev.reveal(parse_card("g:4A+P")).outcome.fulfilled

    def test_double_from_hand_counts_two_and_may_overpay(self):
        ev = evaluation("3A P", doubles=True)
        ev.reveal(parse_card("g:4A+P"))
        outcome = ev.decide(Decision.accept(hand=Ingredients.from_notation("A2")))
        assert outcome.fulfilled and ev.used == Ingredients.from_notation("3A A2 P")

    def test_doubles_count_two_towards_bombastica(self):
        ev = evaluation("S2 A2 M2 P2 O2 2S 2A 1M", doubles=True)   # 15 units, 13 cards
        assert ev.reveal(parse_card("g:15+")).outcome.fulfilled

    def test_doubles_count_two_for_minimale_fewest(self):
        table = Ingredients.from_notation("S2 A A M M M", )
        # salami: 1 card but 2 units, pineapple 2 units: they tie.
        assert Minimale(P).eligible(table) == (S, A)

    def test_monotoni_needs_units(self):
        options = Monotoni(P).options(Ingredients.from_notation("3M2 P"))
        assert next(o for o in options if o.choice is M).needed.as_dict() == {}
