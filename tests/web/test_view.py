"""The state the API sends: set-up, face-up rows, timeline and ranking."""
from companion.engine import Color, parse_pile
from companion.engine.table import TableGame
from companion.engine.tablelog import CardRevealed, GameCreated, HandsCounted, OrderDecided, RoundEnded, Seat
from companion.web.mammamia.view import table_view


def new_game(colors=(Color.GREEN, Color.RED), doubled=False) -> TableGame:
    return TableGame(GameCreated(tuple(Seat(n, c) for n, c in zip(["Ann", "Bob", "Cy"], colors)), doubled))


def reveal(game: TableGame, pile: str) -> None:
    for card in parse_pile(pile):
        game.apply(CardRevealed(card))


def test_set_up_tells_which_cards_to_remove():
    setup = table_view(new_game((Color.GREEN, Color.RED, Color.BROWN), doubled=True))["setup"]
    assert (setup["remove_per_kind"], setup["doubles_per_kind"], setup["singles_per_kind"]) == (3, 2, 8)
    assert setup["unused_colors"] == ["yellow", "purple"]
    assert setup["text"] == ("remove 3 cards of each ingredient, then replace 2 more of each by the double "
                             "cards; leave out the orders of colours nobody plays")


def test_face_up_rows_count_doubles_twice():
    game = new_game(doubled=True)
    reveal(game, "S S2 A")
    table = table_view(game)["table"]
    assert table["notation"] == "S S2 A" and table["units"] == 4
    assert table["rows"][0] == {"ingredient": "salami", "letter": "S", "singles": 1, "doubles": 1, "units": 3}


def test_the_timeline_shows_each_card_and_each_verdict():
    game = new_game()
    reveal(game, "2P g:P+3? S g:4S+P")
    timeline = table_view(game)["timeline"]
    assert [e["card"] for e in timeline] == ["P", "P", "g:P+3?", "S", "g:4S+P"]
    minimale = timeline[2]
    assert minimale["player"] == "Ann" and minimale["outcome"]["eligible"] == []
    assert minimale["outcome"]["reason"] == "no eligible ingredient" and not minimale["pending"]
    assert timeline[4]["pending"] and timeline[4]["outcome"] is None
    pending = table_view(game)["pending"]
    assert pending["options"][0]["add_from_hand"] == "3 salami" and not pending["choose"]
    game.apply(OrderDecided(False))
    assert table_view(game)["timeline"][4]["outcome"]["reason"] == "not added from hand"


def test_ranking_marks_places_decided_by_the_hand_cards():
    game = new_game((Color.GREEN, Color.RED, Color.PURPLE))
    reveal(game, "4S P g:4S+P")
    for _ in range(3):
        game.apply(RoundEnded())
    game.apply(HandsCounted(((Color.GREEN, 0), (Color.RED, 4), (Color.PURPLE, 2))))
    view = table_view(game)
    assert [(r["place"], r["name"], r["tie_break"]) for r in view["ranking"]] == [
        (1, "Ann", False), (2, "Bob", True), (3, "Cy", True)]
    assert view["phase"] == "over" and view["players"][1]["hand_cards"] == 4


def test_a_declined_minimale_shows_no_ingredient_as_if_chosen():
    """Green's Minimale with salami the one fewest face up: declined, it went back made with nothing."""
    game = new_game()
    reveal(game, "S A A g:P+3?")
    assert [o["choice"] for o in table_view(game)["pending"]["options"]] == ["salami"]
    game.apply(OrderDecided(False))
    outcome = table_view(game)["timeline"][-1]["outcome"]
    assert (outcome["fulfilled"], outcome["choice"], outcome["eligible"]) == (False, None, ["salami"])
    game.apply(RoundEnded())
    assert table_view(game)["history"][0]["orders"][0]["choice"] is None


def test_a_delivered_minimale_keeps_its_ingredient():
    game = new_game()
    reveal(game, "S A A P g:P+3?")
    game.apply(OrderDecided(True))
    outcome = table_view(game)["timeline"][-1]["outcome"]
    assert (outcome["fulfilled"], outcome["choice"]) == (True, "salami")
