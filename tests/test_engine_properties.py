"""Properties over random whole games played by the bots."""
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.engine import CLASSIC_RULES, MAMMA_MIA, SPANISH_RULES, Color, Deck, Decision, Evaluation, Order
from companion.engine.bots import RandomBot, ThriftyBot
from companion.engine.game import Game, Phase

import random


def check_invariants(game: Game) -> None:
    assert game.ingredient_census() == game.deck.ingredient_stock(), "ingredient cards created or lost"
    assert min(game.table.singles + game.table.doubles) >= 0
    mamma_mia_in_supply = game.supply.count(MAMMA_MIA)
    assert mamma_mia_in_supply + (game.holder is not None) >= 1 and mamma_mia_in_supply <= 1
    for color in game.colors:
        orders = game.order_census(color)
        assert len(orders) == 8 and set(orders) == set(game.deck.orders(color))


games = st.builds(
    lambda n, seed, doubles, spanish: (n, seed, doubles, spanish),
    st.integers(2, 5), st.integers(0, 2**32 - 1), st.booleans(), st.booleans(),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_whole_games_conserve_every_card(params):
    n, seed, doubles, spanish = params
    rng = random.Random(seed)
    colors = rng.sample(list(Color), n)
    game = Game(colors, Deck.for_players(n, doubles), SPANISH_RULES if spanish else CLASSIC_RULES, seed=seed)
    bots = {c: (RandomBot if i % 2 else ThriftyBot)(random.Random(seed + i)) for i, c in enumerate(colors)}
    check_invariants(game)
    while game.phase is not Phase.OVER:
        if game.phase is Phase.PLAYING:
            game.play(bots[game.current_player.color].turn(game, game.current_player))
        elif game.unrevealed:
            reveal = game.reveal_next()
            if reveal.pending:
                check_invariants(game)
                game.decide(bots[reveal.pending.order.color].decide(game, reveal.pending))
        else:
            game.finish_round()
        check_invariants(game)
    assert len(game.summaries) == 3
    delivered = sum(len(p.delivered) for p in game.players.values())
    assert delivered == sum(len(o) for s in game.summaries for o in s.delivered.values())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_step_by_step_equals_whole_pile(seed, doubles):
    """Revealing one card at a time gives what the whole-pile run gives."""
    rng = random.Random(seed)
    colors = [Color.GREEN, Color.RED, Color.BROWN]
    game = Game(colors, Deck.for_players(3, doubles), seed=seed)
    bots = {c: RandomBot(random.Random(seed + i)) for i, c in enumerate(colors)}
    while game.phase is Phase.PLAYING:
        game.play(bots[game.current_player.color].turn(game, game.current_player))
    pile = list(game.oven)
    decide = lambda p: Decision.accept(p.best().choice) if rng.random() < 0.5 else Decision.decline()  # noqa: E731
    whole = Evaluation(game.deck, colors)
    decisions = []
    def recording(pending):
        decisions.append(decide(pending))
        return decisions[-1]
    whole.run(pile, recording)
    stepwise = Evaluation(game.deck, colors)
    replay = iter(decisions)
    for card in pile:
        if stepwise.reveal(card).pending:
            stepwise.decide(next(replay))
        assert min(stepwise.table.unit_counts) >= 0
    assert stepwise.outcomes == whole.outcomes and stepwise.table == whole.table
    assert all(isinstance(o.order, Order) for o in whole.outcomes)
