"""The whole game: set-up, phase-1 turns, rounds and ranking."""
import pytest

from companion.engine import (
    CLASSIC_RULES, MAMMA_MIA, SPANISH_RULES, Color, Decision, Deck, IllegalSetup, IllegalTurn, Ingredient,
    IngredientCard, Ingredients, WrongPhase, parse_card, parse_pile,
)
from companion.engine.game import Game, Phase, Source, Turn

GREEN, RED, YELLOW, BROWN, PURPLE = Color.GREEN, Color.RED, Color.YELLOW, Color.BROWN, Color.PURPLE


@pytest.mark.parametrize("players, per_kind", [(2, 8), (3, 10), (4, 12), (5, 13)])
def test_set_up_removes_ingredients_by_player_count(players, per_kind):
    deck = Deck.for_players(players)
    assert deck.ingredient_stock() == Ingredients((per_kind,) * 5)
    doubled = Deck.for_players(players, doubles=True)
    assert doubled.ingredient_stock() == Ingredients((per_kind - 2,) * 5, (2,) * 5)


@pytest.mark.parametrize("players", [1, 6])
def test_player_count_outside_two_to_five_is_refused(players):
    with pytest.raises(IllegalSetup, match="2, 3, 4, 5 players"):
        Deck.for_players(players)


def test_deck_holds_eight_orders_per_colour_forty_in_all():
    deck = Deck.for_players(5)
    orders = [o for c in Color for o in deck.orders(c)]
    assert len(orders) == len(set(orders)) == 40
    for color in Color:
        personal = deck.personal(color)
        for order in deck.orders(color):
            if order.special != "bombastica":
                assert (order.pizza.fixed if order.special else personal) is personal
                if not order.special:
                    assert order.pizza.need[personal] == 1


@pytest.mark.parametrize("rules", [CLASSIC_RULES, SPANISH_RULES])
def test_deal_gives_six_ingredients_and_one_order(rules):
    game = Game([GREEN, RED, YELLOW], rules=rules, seed=11)
    for player in game.players.values():
        dealt_mamma_mia = game.holder is player.color
        assert player.hand.card_count == 6 and len(player.orders) == 1 and len(player.waiter) == 7
        assert dealt_mamma_mia is False or rules.mamma_mia_in_deal
    supply_cards = len(game.supply) - (MAMMA_MIA in game.supply)
    assert supply_cards == 5 * 10 - 18


def test_colours_must_differ():
    with pytest.raises(IllegalSetup):
        Game([GREEN, GREEN])


def staged(hand: str, orders: str = "", waiter: str = "", rules=CLASSIC_RULES) -> Game:
    """A 2-player game whose current player (green) holds exactly what is given."""
    game = Game([GREEN, RED], rules=rules, seed=5)
    player = game.player(GREEN)
    stock = [c for c in game.supply if c is not MAMMA_MIA] + player.hand.cards()
    game.holder = None
    player.hand = Ingredients.from_notation(hand)
    for card in player.hand.cards():
        stock.remove(card)
    game.supply = stock
    player.orders = list(parse_pile(orders))
    player.waiter = [o for o in parse_pile(waiter)]
    game.current = 0
    return game


def test_french_turn_example_draws_short_from_waiter_pile():
    # Albert (green) plays three salami and his 4 salami + 1 pepper, draws from his waiter
    # pile which holds only three cards, and plays on with six cards.
    game = staged("3S 2A M", "g:4S+P", "g:4A+P g:4M+P g:P+4O")
    game.play(Turn.parse("3S g:4S+P", Source.WAITER))
    assert game.oven == parse_pile("3S g:4S+P")
    green = game.player(GREEN)
    assert green.hand_size == 6 and green.waiter == []
    assert game.current_player.color is RED


def test_refill_from_supply_to_seven():
    game = staged("3S 2A M", "g:4S+P")
    game.play(Turn.parse("2A"))
    assert game.player(GREEN).hand_size == 7


@pytest.mark.parametrize("turn, message", [
    ("S A", "one kind of ingredient per turn"),
    ("4S", "does not hold 4S"),
    ("S g:4A+P", "does not hold green order 4 pineapple"),
])
def test_illegal_turns_are_refused_and_change_nothing(turn, message):
    game = staged("3S 2A M", "g:4S+P")
    before = (game.player(GREEN).hand, list(game.oven), list(game.supply))
    with pytest.raises(IllegalTurn, match=message):
        game.play(Turn.parse(turn))
    assert (game.player(GREEN).hand, game.oven, game.supply) == before


def test_two_orders_in_one_turn_are_refused():
    with pytest.raises(IllegalTurn, match="one order"):
        Turn.parse("S g:4S+P g:4A+P")


def test_classic_rules_allow_playing_no_ingredient():
    game = staged("3S", "g:4S+P")
    game.play(Turn.parse("g:4S+P"))
    assert game.oven == [parse_card("g:4S+P")]


def test_spanish_rules_require_an_ingredient_and_a_pass_without_any():
    game = staged("3S", "g:4S+P", rules=SPANISH_RULES)
    with pytest.raises(IllegalTurn, match="must play at least one"):
        game.play(Turn.parse("g:4S+P"))
    empty = staged("", "g:4S+P", rules=SPANISH_RULES)
    with pytest.raises(IllegalTurn, match="must pass"):
        empty.play(Turn.parse("g:4S+P"))
    empty.play(Turn())   # passing and drawing is fine
    assert empty.player(GREEN).hand_size == 7


def test_drawing_mamma_mia_lays_it_down_and_draws_a_replacement():
    game = staged("3S 2A M", "g:4S+P")
    game.supply.append(MAMMA_MIA)
    game.play(Turn.parse("2A"))
    assert game.holder is GREEN and game.player(GREEN).hand_size == 7
    assert MAMMA_MIA not in game.supply and MAMMA_MIA not in game.oven


def test_round_ends_at_once_when_last_supply_card_is_drawn():
    game = staged("3S 2A M", "g:4S+P")
    game.supply = [IngredientCard(Ingredient.OLIVE)]
    game.play(Turn.parse("2A"))
    assert game.phase is Phase.EVALUATING and game.player(GREEN).hand_size == 6  # 5 + the last card
    with pytest.raises(WrongPhase):
        game.play(Turn())


def evaluate_round(game: Game, decide=lambda pending: Decision.accept()) -> None:
    while game.unrevealed:
        reveal = game.reveal_next()
        if reveal.pending:
            game.decide(decide(reveal.pending))


def test_rounds_carry_leftovers_and_return_failed_orders_under_the_waiter_pile():
    game = staged("4S P", "g:4A+P", "g:4S+P")
    game.supply = [IngredientCard(Ingredient.OLIVE)] * 2
    game.play(Turn.parse("4S g:4A+P"))           # draws both olives: round 1 ends
    game.holder = RED
    evaluate_round(game, lambda pending: Decision.decline())
    summary = game.finish_round()
    assert summary.returned[GREEN] == [parse_card("g:4A+P")] and summary.leftovers.notation == "4S"
    green = game.player(GREEN)
    assert green.waiter[-1] == parse_card("g:4A+P")   # under the waiter pile
    assert game.round == 2 and game.table.notation == "4S"
    assert game.supply == [MAMMA_MIA]                 # nothing was used: only the Mamma Mia! card
    assert game.current_player.color is RED           # the Mamma Mia! holder starts


def test_hand_cards_added_leave_the_owners_hand():
    game = staged("4A 2O", "g:4A+P")
    game.table = Ingredients.from_notation("P")
    game.supply = [IngredientCard(Ingredient.OLIVE)]
    game.play(Turn.parse("2A g:4A+P"))   # 2 pineapple in the pile, 1 still in hand
    evaluate_round(game, lambda pending: Decision.accept())
    green = game.player(GREEN)
    assert [o for _, o in green.delivered] == [] and game.evaluation.delivered[GREEN]
    assert green.hand == Ingredients.from_notation("3O")


def test_decline_is_the_only_answer_when_the_hand_cannot_cover():
    from companion.engine import IllegalHandCards

    game = staged("2O", "g:4A+P")
    game.supply = [IngredientCard(Ingredient.OLIVE)]
    game.play(Turn.parse("g:4A+P"))
    game.reveal_next()
    with pytest.raises(IllegalHandCards, match="cannot add 4 pineapple and 1 pepper"):
        game.decide(Decision.accept())
    assert game.decide(Decision.decline()).fulfilled is False


def test_finish_round_needs_a_fully_evaluated_pile():
    game = staged("3S", "g:4S+P")
    game.supply = [IngredientCard(Ingredient.OLIVE)]
    game.play(Turn.parse("3S g:4S+P"))
    with pytest.raises(WrongPhase, match="not fully evaluated"):
        game.finish_round()


def test_ranking_most_deliveries_then_most_ingredient_cards_in_hand():
    game = Game([GREEN, RED, YELLOW, BROWN], seed=1)
    delivered = {GREEN: 3, RED: 3, YELLOW: 4, BROWN: 3}
    hands = {GREEN: "2S", RED: "5S", YELLOW: "", BROWN: "5A"}
    for color in game.colors:
        player = game.player(color)
        player.delivered = [(1, o) for o in game.deck.orders(color)[: delivered[color]]]
        player.hand = Ingredients.from_notation(hands[color])
    ranking = [(s.place, s.color) for s in game.ranking()]
    assert ranking == [(1, YELLOW), (2, RED), (2, BROWN), (4, GREEN)]


def test_three_rounds_then_the_game_is_over():
    from companion.engine.bots import simulate

    game = simulate([GREEN, RED, YELLOW], seed=4)
    assert game.phase is Phase.OVER and [s.round for s in game.summaries] == [1, 2, 3]
    with pytest.raises(WrongPhase):
        game.reveal_next()


def test_revealing_past_the_end_of_the_pile():
    from companion.engine import PileExhausted

    game = staged("3S", "g:4S+P")
    game.supply = [IngredientCard(Ingredient.OLIVE)]
    game.play(Turn.parse("3S"))
    evaluate_round(game)
    with pytest.raises(PileExhausted, match="finish the round"):
        game.reveal_next()
    assert game.finish_round().leftovers.notation == "3S"
