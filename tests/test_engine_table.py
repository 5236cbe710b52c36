"""The table game the web app keeps: three rounds rebuilt from an event log."""
import pytest

from companion.engine import (
    Color, ColorNotAtTable, DuplicateOrder, IllegalCard, IllegalChoice, IllegalHandCards, IllegalSetup,
    MammaMiaInPile, NoPendingOrder, OrderPending, TooManyIngredients, WrongPhase, parse_card, parse_pile,
)
from companion.engine.table import NothingToUndo, TableGame, TablePhase, cheapest_first
from companion.engine.tablelog import (
    BadPayload, CardRevealed, GameCreated, HandsCounted, OrderDecided, RoundEnded, Seat, Undo, event_from_json,
    in_effect,
)
from companion.engine.vocabulary import Ingredient

GREEN, RED = Color.GREEN, Color.RED


def new_game(colors=(GREEN, RED), doubled=False) -> TableGame:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    return TableGame(GameCreated(tuple(Seat(n, c) for n, c in zip(names, colors)), doubled))


def reveal(game: TableGame, pile: str) -> None:
    for card in parse_pile(pile):
        game.apply(CardRevealed(card))


def notations(orders) -> list[str]:
    return [o.notation for o in orders]


def snapshot(game: TableGame) -> tuple:
    """Everything a refused or replayed event could have changed."""
    evaluation = game.evaluation
    revealed = tuple(evaluation.revealed) if evaluation else ()
    outcomes = tuple(evaluation.outcomes) if evaluation else ()
    return (game.round, game.phase, game.table, revealed, outcomes, game.pending, tuple(game.history),
            tuple(game.events), game.hand_counts)


def play_three_rounds(game: TableGame) -> None:
    """Round 1: RULES.md's 4 pineapple + 1 pepper; round 2: the Czech Monotoni;
    round 3: the French/Czech Minimale."""
    reveal(game, "P 2S 3A 4M g:4A+P")
    game.apply(OrderDecided(True))
    reveal(game, "r:S+4M")                      # everything face up: settled at once
    game.apply(RoundEnded())
    reveal(game, "4P S 2M 4A g:P+6J")           # table 4P 2S 2M 4A (one salami left over)
    game.apply(OrderDecided(True, Ingredient.PINEAPPLE))
    reveal(game, "r:15+")
    game.apply(OrderDecided(False))
    game.apply(RoundEnded())
    reveal(game, "3A g:P+3?")                    # table 3P 2S 2M 3A, no olive
    game.apply(OrderDecided(True, Ingredient.MUSHROOM))
    reveal(game, "r:S+4A")
    game.apply(OrderDecided(False))
    game.apply(RoundEnded())


def test_a_whole_game_with_leftovers_carried_and_ranking():
    game = new_game()
    play_three_rounds(game)
    assert game.phase is TablePhase.COUNTING
    assert [notations(game.delivered_in(r)[GREEN]) for r in (1, 2, 3)] == [["g:4A+P"], ["g:P+6J"], ["g:P+3?"]]
    assert [notations(game.delivered_in(r)[RED]) for r in (1, 2, 3)] == [["r:S+4M"], [], []]
    assert [r.leftovers_out.notation for r in game.history] == ["S", "2S 2M 3P", "2S 3A 2P"]
    assert game.history[1].leftovers_in.notation == "S"
    assert notations(game.history[1].orders(RED, False)) == ["r:15+"]
    assert "r:15+" in notations(game.remaining(RED)) and "r:S+4M" not in notations(game.remaining(RED))
    assert len(game.remaining(GREEN)) == 5
    game.apply(HandsCounted(((GREEN, 2), (RED, 5))))
    assert game.phase is TablePhase.OVER
    assert [(s.place, s.color, s.delivered, s.hand_cards) for s in game.ranking()] == [(1, GREEN, 3, 2), (2, RED, 1, 5)]


def test_worked_example_needs_one_pineapple_and_leaves_salami_and_mushroom():
    game = new_game()
    reveal(game, "P 2S 3A 4M g:4A+P")
    pending = game.pending
    assert pending.order.notation == "g:4A+P" and pending.table.notation == "2S 3A 4M P"
    assert [o.needed.describe() for o in pending.options] == ["1 pineapple"]
    game.apply(OrderDecided(True))
    assert game.table.notation == "2S 4M"


def test_monotoni_lists_every_joker_cheapest_first_never_the_own_ingredient():
    game = new_game()
    reveal(game, "4P 2S 2M 4A g:P+6J")
    options = cheapest_first(game.pending.options)
    assert [(o.choice.value, o.needed.as_dict()) for o in options] == [
        ("pineapple", {"pineapple": 2}), ("salami", {"salami": 4}),
        ("mushroom", {"mushroom": 4}), ("olive", {"olive": 6})]
    with pytest.raises(IllegalChoice, match="may not be pepper"):
        game.apply(OrderDecided(True, Ingredient.PEPPER))
    assert game.pending is not None


def test_minimale_offers_the_tied_fewest_or_fails_when_none_is_eligible():
    game = new_game()
    reveal(game, "2P 2S 2M 3A g:P+3?")
    assert [o.choice.value for o in cheapest_first(game.pending.options)] == ["salami", "mushroom"]
    with pytest.raises(IllegalChoice, match="choose salami or mushroom"):
        game.apply(OrderDecided(True, Ingredient.PINEAPPLE))
    game.apply(OrderDecided(False))
    other = new_game()
    reveal(other, "2P g:P+3?")                 # only the own ingredient face up
    outcome = other.evaluation.outcomes[-1]
    assert other.pending is None and outcome.options == ()
    assert outcome.fulfilled is False and outcome.reason == "no eligible ingredient"


@pytest.mark.parametrize("pile, card, error, message", [
    ("13S", "S", TooManyIngredients, "14th salami"),
    ("", "y:4S+A", ColorNotAtTable, "yellow is not at this table"),
    ("", "!", MammaMiaInPile, "never part of the oven pile"),
    ("", "S2", IllegalCard, "Doubled Ingredients"),
    ("", "g:9A+P", IllegalCard, "not one of green's eight"),
    ("g:15+", "g:15+", DuplicateOrder, "appears twice"),
])
def test_impossible_cards_are_refused_and_change_nothing(pile, card, error, message):
    game = new_game((GREEN, RED, Color.BROWN, Color.PURPLE, Color.YELLOW) if pile == "13S" else (GREEN, RED))
    reveal(game, pile)
    if game.pending:
        game.apply(OrderDecided(False))
    before = snapshot(game)
    with pytest.raises(error, match=message):
        game.apply(CardRevealed(parse_card(card)))
    assert snapshot(game) == before


def test_an_order_delivered_in_an_earlier_round_cannot_turn_up_again():
    game = new_game()
    reveal(game, "4S P g:4S+P")
    game.apply(RoundEnded())
    with pytest.raises(DuplicateOrder, match="already delivered"):
        game.apply(CardRevealed(parse_card("g:4S+P")))
    assert "g:4S+P" not in game.revealable(GREEN)


def test_an_order_returned_in_round_one_may_come_back_in_round_two():
    game = new_game()
    reveal(game, "g:4S+P")
    game.apply(OrderDecided(False))
    game.apply(RoundEnded())
    assert parse_card("g:4S+P") in game.revealable(GREEN)
    reveal(game, "g:4S+P")
    assert game.pending is not None


def test_ingredients_left_over_count_against_the_supply_next_round():
    game = new_game()
    reveal(game, "6S")
    game.apply(RoundEnded())
    reveal(game, "2S")
    with pytest.raises(TooManyIngredients, match="9th salami"):
        game.apply(CardRevealed(parse_card("S")))


def test_sequence_errors():
    game = new_game()
    with pytest.raises(NoPendingOrder):
        game.apply(OrderDecided(True))
    with pytest.raises(NothingToUndo):
        game.apply(Undo())
    reveal(game, "g:4S+P")
    with pytest.raises(OrderPending, match="still waits"):
        game.apply(CardRevealed(parse_card("S")))
    with pytest.raises(OrderPending, match="before ending the round"):
        game.apply(RoundEnded())
    with pytest.raises(WrongPhase, match="after round 3"):
        game.apply(HandsCounted(((GREEN, 1), (RED, 1))))
    with pytest.raises(WrongPhase, match="already set up"):
        game.apply(GameCreated((Seat("X", GREEN), Seat("Y", RED))))


def test_hand_counts_are_checked():
    game = new_game()
    for _ in range(3):
        game.apply(RoundEnded())
    with pytest.raises(WrongPhase, match="rounds are over: enter the hand-card counts"):
        game.apply(CardRevealed(parse_card("S")))
    with pytest.raises(ColorNotAtTable):
        game.apply(HandsCounted(((GREEN, 1), (RED, 1), (Color.PURPLE, 1))))
    with pytest.raises(IllegalHandCards, match="missing for red"):
        game.apply(HandsCounted(((GREEN, 1),)))
    with pytest.raises(IllegalHandCards, match="at most 7"):
        game.apply(HandsCounted(((GREEN, 8), (RED, 1))))
    assert game.phase is TablePhase.COUNTING


def test_a_tie_in_deliveries_goes_to_more_hand_cards():
    game = new_game()
    for _ in range(3):
        game.apply(RoundEnded())
    game.apply(HandsCounted(((GREEN, 1), (RED, 4))))
    assert [(s.place, s.color, s.hand_cards) for s in game.ranking()] == [(1, RED, 4), (2, GREEN, 1)]


@pytest.mark.parametrize("seats, message", [
    ((Seat("Ann", GREEN),), "not 1"),
    ((Seat("Ann", GREEN), Seat("Bob", GREEN)), "colour of their own"),
    ((Seat("Ann", GREEN), Seat("ann", RED)), "name of their own"),
])
def test_set_up_is_checked(seats, message):
    with pytest.raises(IllegalSetup, match=message):
        TableGame(GameCreated(seats))


def test_undo_takes_back_the_last_event_in_effect_even_a_round_end():
    game = new_game()
    reveal(game, "P 2S 3A 4M g:4A+P")
    game.apply(OrderDecided(True))
    game.apply(RoundEnded())
    game.apply(Undo())
    assert game.round == 1 and game.table.notation == "2S 4M"
    game.apply(Undo())
    assert game.pending is not None and game.table.notation == "2S 3A 4M P"
    game.apply(Undo())
    assert game.pending is None and len(game.evaluation.revealed) == 10


def test_replaying_a_log_gives_the_same_state_as_applying_it():
    live = new_game()
    log = [live.created]
    for event in [*map(CardRevealed, parse_pile("P 2S 3A 4M g:4A+P")), OrderDecided(True), Undo(),
                  OrderDecided(False, None), RoundEnded(), CardRevealed(parse_card("S")), Undo()]:
        live.apply(event)
        log.append(event)
    assert snapshot(TableGame.replay(log)) == snapshot(live)
    assert len(in_effect(log)) == len(live.events)


def test_events_round_trip_through_json():
    events = [new_game().created, CardRevealed(parse_card("g:P+3?")), OrderDecided(True, Ingredient.OLIVE),
              OrderDecided(False), RoundEnded(), HandsCounted(((GREEN, 3),)), Undo()]
    assert [event_from_json(e.type, e.payload()) for e in events] == events


@pytest.mark.parametrize("type_, payload, field", [
    ("card_revealed", {"card": "Q"}, "card"),
    ("card_revealed", {"card": 3}, "card"),
    ("order_decided", {"accept": "yes"}, "accept"),
    ("order_decided", {"accept": True, "choice": "ham"}, "choice"),
    ("hands_counted", {"counts": {"green": -1}}, "counts"),
    ("game_created", {"players": [{"name": "Ann", "color": "teal"}]}, "players[0].color"),
    ("game_created", {"players": [{"name": " ", "color": "green"}]}, "players[0].name"),
    ("game_created", {"players": [], "doubled": "no"}, "doubled"),
    ("nonsense", {}, "type"),
])
def test_bad_payloads_name_their_field(type_, payload, field):
    with pytest.raises(BadPayload) as refused:
        event_from_json(type_, payload)
    assert refused.value.field == field and str(refused.value)
