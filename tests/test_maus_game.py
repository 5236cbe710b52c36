"""A Maus au Chocolat game as the table follows it: bids, combinations in
helper order, helpers moving on, hand sizes, the end at 30 and the ranking."""
import random

import pytest

from companion.maus.engine import (
    HELPERS, BidsRevealed, CombinationLaid, CombinationSkipped, GameStarted, HandLimitCheck, Helper, HelperNumbers,
    HelperSeating, HelperUse, IllegalBids, IllegalSetup, MausGame, MausRules, NoCardLeft, NotRunOrSet, OutOfTurn,
    Phase, TieBreakHelpers, WrongPhase, parse_cards,
)

H = Helper


def new_game(held=(H.MATHIEU, H.LILLY, H.CLAUDE), oldest=0, rules=MausRules("default"), spare=None):
    players = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")[:len(held)]
    return MausGame(GameStarted(players, HelperSeating.from_held(list(held), oldest, spare), rules=rules))


def skip_round(game, coins=None):
    game.bid(coins or [1] * len(game.players))
    while game.phase is Phase.LAYING:
        game.skip(game.next_to_lay)


# helpers moving on ---------------------------------------------------------------------

def test_helpers_pass_left_and_the_oldest_feeds_the_spare_row():
    seating = HelperSeating.from_held([H.MATHIEU, H.LILLY, H.HENRI], oldest=0)
    assert seating.spare == (H.ETIENNE, H.MAURICE, H.AMELIE, H.CLAUDE)
    after = seating.passed_on()
    assert after.held == (H.HENRI, H.ETIENNE, H.LILLY)
    assert after.spare == (H.MAURICE, H.AMELIE, H.CLAUDE, H.MATHIEU)


def test_the_oldest_player_need_not_sit_first():
    seating = HelperSeating.from_held([H.MATHIEU, H.LILLY, H.HENRI, H.CLAUDE], oldest=2,
                                      spare=[H.AMELIE, H.ETIENNE, H.MAURICE])
    after = seating.passed_on()
    assert after.held == (H.CLAUDE, H.MATHIEU, H.LILLY, H.AMELIE)
    assert after.spare == (H.ETIENNE, H.MAURICE, H.HENRI)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_seat_holds_every_helper_once_in_seven_rounds(players):
    seating = HelperSeating.from_held(list(HELPERS[:players]), oldest=players - 1)
    seen = [set() for _ in range(players)]
    start = seating
    for _ in range(7):
        for seat, helper in enumerate(seating.held):
            seen[seat].add(helper)
        seating = seating.passed_on()
    assert seating == start and all(s == set(HELPERS) for s in seen)


def test_dealing_helpers_at_random():
    seating = HelperSeating.deal(4, oldest=3, rng=random.Random(7))
    assert len(seating.held) == 4 and len(seating.spare) == 3 and seating.oldest == 3
    assert seating == HelperSeating.deal(4, oldest=3, rng=random.Random(7))
    assert len({HelperSeating.deal(4, 0, random.Random(seed)).held for seed in range(20)}) > 10


@pytest.mark.parametrize("held, oldest, message", [
    ([H.MATHIEU], 0, "played by 2 to 6 players"),
    ([H.MATHIEU, H.MATHIEU], 0, "each helper is held by one player"),
    ([H.MATHIEU, H.LILLY], 2, "the oldest player must be one of the 2 seats"),
])
def test_impossible_seatings_are_refused(held, oldest, message):
    with pytest.raises(IllegalSetup, match=message):
        HelperSeating.from_held(held, oldest)


def test_helper_numbers_must_differ_and_be_complete():
    with pytest.raises(IllegalSetup, match="share an order number"):
        HelperNumbers((1, 2, 3, 4, 5, 6, 6))
    with pytest.raises(IllegalSetup, match="no order number for claude"):
        HelperNumbers.from_dict({"etienne": 1, "henri": 2, "lilly": 3, "maurice": 4, "mathieu": 5, "amelie": 6})


# a round -------------------------------------------------------------------------------

def test_a_round_bids_then_combinations_in_helper_order():
    game = new_game()   # Ann Mathieu 5, Bob Lilly 3, Cy Claude 7
    picks = game.bid([2, 4, 2])
    assert [p.seat for p in picks] == [1, 2, 0]      # Bob most coins; Ann and Cy tie, Claude beats Mathieu
    assert game.hands == [6, 6, 6] and game.phase is Phase.LAYING
    assert game.helper_order == [2, 0, 1] and game.next_to_lay == 2
    with pytest.raises(OutOfTurn, match="Cy \\(Claude\\) lays before Ann"):
        game.skip(0)
    scoring = game.lay(2, parse_cards("b4 b5 r6"), HelperUse.from_notation("claude r6>b6", 2))
    assert scoring.points == 6 and game.hands[2] == 3
    game.lay(0, parse_cards("g3 g4 g6"), HelperUse.from_notation("mathieu g6>g5", 2))
    game.lay(1, parse_cards("b4 b5 r6"))              # Lilly: the mixed run keeps its highest
    assert game.scores == [6, 6, 6] and game.round == 2 and game.phase is Phase.BIDDING
    record = game.history[0]
    assert record.held == (H.MATHIEU, H.LILLY, H.CLAUDE) and [s for s, _ in record.laid] == [2, 0, 1]
    assert game.seating.held == (H.CLAUDE, H.ETIENNE, H.LILLY)   # passed on for round 2


@pytest.mark.parametrize("held, cards", [((H.LILLY, H.MATHIEU), "b4 b5 r6"), ((H.AMELIE, H.MATHIEU), "r3 b4 g5 y6"),
                                         ((H.CLAUDE, H.ETIENNE), "b4 b5 r6"), ((H.HENRI, H.ETIENNE), "b4 b5 r6")])
def test_the_best_way_the_judge_offers_can_be_laid_as_it_is(held, cards):
    game = new_game(held)
    game.bid([1, 1])
    if game.next_to_lay != 0:
        game.skip(1)
    best = game.judge(0, parse_cards(cards)).best
    assert best.use is None or best.use.helper is held[0]
    assert game.lay(0, parse_cards(cards), best.use) == best


def test_henri_adds_two_coins():
    game = new_game((H.HENRI, H.LILLY, H.CLAUDE))
    assert [p.seat for p in game.bid([3, 4, 5])] == [2, 0, 1]   # Henri 3 + 2 = 5 ties Claude: Claude 7 > Henri 2
    game = new_game((H.HENRI, H.LILLY, H.ETIENNE))
    assert [p.seat for p in game.bid([3, 4, 5])] == [0, 2, 1]   # Henri's 5 beats Etienne's 5 on the number: 2 > 1


@pytest.mark.parametrize("coins, message", [([1, 2], "3 bids, not 2"), ([1, 2, -1], "seat 3's bid"),
                                            ([1, 2, True], "seat 3's bid")])
def test_bids_are_one_coin_count_per_player(coins, message):
    game = new_game()
    with pytest.raises(IllegalBids, match=message):
        game.bid(coins)
    assert game.phase is Phase.BIDDING and game.hands == [5, 5, 5]


def test_actions_out_of_phase_are_refused():
    game = new_game()
    with pytest.raises(WrongPhase):
        game.skip(0)
    game.bid([1, 2, 3])
    with pytest.raises(WrongPhase):
        game.bid([1, 2, 3])


def test_an_illegal_combination_changes_nothing():
    game = new_game()
    game.bid([1, 2, 3])
    with pytest.raises(NotRunOrSet):
        game.lay(2, parse_cards("g3 g4 g6"))
    assert game.hands == [6, 6, 6] and game.scores == [0, 0, 0] and game.next_to_lay == 2


def play_round(game, laid):
    """Bids of one coin each; ``laid`` maps seats to the cards they lay, the others skip."""
    game.bid([1] * len(game.players))
    while game.phase is Phase.LAYING:
        seat = game.next_to_lay
        if seat in laid:
            game.lay(seat, parse_cards(laid[seat]))
        else:
            game.skip(seat)


def test_at_least_one_card_stays_in_hand():
    game = new_game()
    play_round(game, {2: "g5 g6 g7"})     # Cy: 6 - 3 = 3
    play_round(game, {2: "g5 g6 g7"})     # 4 - 3 = 1
    play_round(game, {})                  # 2
    game.bid([1, 1, 1])                   # 3: exactly three cards may not all be laid
    assert game.hands[2] == 3
    while game.next_to_lay != 2:
        game.skip(game.next_to_lay)
    assert isinstance(game.judge(2, parse_cards("g5 g6 g7")).error, NoCardLeft)
    with pytest.raises(NoCardLeft):
        game.lay(2, parse_cards("g5 g6 g7"))
    assert game.hands[2] == 3 and game.scores[2] == 14


def test_amelie_lays_four_and_keeps_one_more():
    game = new_game((H.CLAUDE, H.LILLY, H.AMELIE))
    play_round(game, {2: "g3 g4 g5 g6"})  # one colour: the highest and the lowest still available
    assert game.hands[2] == 2 and game.scored[2] == list(parse_cards("g3 g6")) and game.scores[2] == 9


def test_the_hand_limit_when_a_hand_grows():
    game = new_game()
    for _ in range(3):
        skip_round(game)
    assert game.hands == [8, 8, 8]
    skip_round(game)
    assert game.hands == [8, 8, 8] and game.history[-1].limit_discards == (1, 1, 1)


def test_the_hand_limit_at_the_end_of_the_round():
    game = new_game(rules=MausRules("round end", hand_limit=HandLimitCheck.AT_ROUND_END))
    for _ in range(3):
        skip_round(game)
    play_round(game, {2: "r5 g5 b5"})        # from 9 cards: 6 left, nothing discarded
    assert game.hands == [8, 8, 6] and game.history[-1].limit_discards == (1, 1, 0)


# the end ---------------------------------------------------------------------------------

def play_to_thirty(game, cards=("y6 y6 y6", "g6 g6 g6", "r6 r6 r6")):
    """Every player lays a 12-point set whenever they hold four cards or more."""
    while game.phase is not Phase.OVER:
        game.bid([1] * len(game.players))
        while game.phase is Phase.LAYING:
            seat = game.next_to_lay
            if game.hands[seat] >= 4:
                game.lay(seat, parse_cards(cards[seat]))
            else:
                game.skip(seat)
    return game


def test_the_round_is_played_to_its_end_then_the_ranking():
    game = play_to_thirty(new_game())
    assert game.round == 5 and len(game.history) == 5 and game.scores == [36, 36, 36]
    held = game.history[-1].held
    ranking = game.ranking()
    assert [s.seat for s in ranking] == sorted(range(3), key=lambda s: -game.numbers[held[s]])
    assert [s.place for s in ranking] == [1, 2, 3] and ranking[0].points == 36
    with pytest.raises(WrongPhase):
        game.bid([1, 1, 1])


def test_the_tie_break_reading_changes_the_winner():
    last = play_to_thirty(new_game((H.CLAUDE, H.ETIENNE)))
    passed = play_to_thirty(new_game((H.CLAUDE, H.ETIENNE),
                                     rules=MausRules("passed", tie_break=TieBreakHelpers.PASSED_ON_HELPERS)))
    assert last.scores == passed.scores and last.scores[0] == last.scores[1]
    final = last.history[-1].held
    after = last.seating.passed_on().held
    assert final != after
    assert last.ranking()[0].helper == max(final, key=last.numbers.__getitem__)
    assert passed.ranking()[0].helper == max(after, key=passed.numbers.__getitem__)


def test_more_points_win_whatever_the_helpers():
    game = new_game((H.ETIENNE, H.CLAUDE))
    game.bid([1, 1])
    game.skip(1)
    game.lay(0, parse_cards("r7 r7 r7"))     # Etienne's holder: 14 points
    assert [s.seat for s in game.ranking()] == [0, 1]


def test_replaying_the_events_gives_the_same_game():
    started = GameStarted(("Ann", "Bob"), HelperSeating.from_held([H.MATHIEU, H.LILLY], 1))
    events = [started, BidsRevealed((2, 3)), CombinationLaid(0, parse_cards("g3 g4 g6"),
              HelperUse.from_notation("mathieu g6>g5", 2)), CombinationSkipped(1), BidsRevealed((1, 1))]
    game = MausGame.replay(events)
    assert game.scores == [6, 0] and game.round == 2 and game.phase is Phase.LAYING
    assert game.hands == [4, 7]
    with pytest.raises(WrongPhase):
        MausGame.replay(events[1:])
