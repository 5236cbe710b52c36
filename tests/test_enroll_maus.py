"""`mamma-mia enroll DIR` on a Maus au Chocolat deck: the manifest says the
game, the phone photos become straightened faces that the Maus camera reads
with, and a Maus card written wrong is named with its fault."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import cli
from companion.maus.engine import Card

from tools.synth.maus_enroll import write_maus_enroll_photos
from tools.synth.maus_style import DEFAULT_MAUS_STYLE
from vision.maus import MausReader, load_maus_deck
from vision.recognize.decks import ENROLLED, MANIFEST

CARDS = [Card.from_notation(n) for n in ("r3/3", "r3/4", "r4/2", "g5/3", "b6/1", "p7/2", "y7/1")]


def enroll(folder: Path, capsys) -> tuple[int, str, str]:
    code = cli.main(["enroll", str(folder)])
    out, err = capsys.readouterr()
    return code, out, err


def test_phone_photos_of_a_maus_deck_are_enrolled_for_the_maus_camera(tmp_path, capsys):
    write_maus_enroll_photos(tmp_path, DEFAULT_MAUS_STYLE, seed=7, cards=CARDS)
    code, out, err = enroll(tmp_path, capsys)
    assert code == 0, err
    assert f"Enrolled 7 faces into {tmp_path / ENROLLED}." in out
    assert f"mamma-mia serve --deck {tmp_path}" in out
    assert "the deck lacks 63 of the 70 faces" in err and "g5/2" in err  # faces never taught are named
    enrolled = json.loads((tmp_path / ENROLLED / MANIFEST).read_text())
    assert enrolled["game"] == "maus"
    assert [(e["image"], e["card"]) for e in enrolled["cards"]] == [
        (f"maus-{c.ingredient.letter}{c.value}-{c.coins}.png", c.notation) for c in CARDS]
    assert not (tmp_path / ENROLLED / "ocr.json").exists()  # the printed words are Mamma Mia!'s alone
    deck = load_maus_deck(tmp_path)
    assert deck.cards == tuple(CARDS) and len(MausReader(deck).deck) == 7


@pytest.mark.parametrize("card, message", [
    ("g5", "cards[1]: 'g5' lacks its coins"),
    ("g5/9", "cards[1]: g5/9 is not a card of the game"),
    ({"kind": "ingredient", "ingredient": "salami", "double": False}, "cards[1]: expected a Maus card"),
])
def test_a_maus_card_written_wrong_is_named(tmp_path, capsys, card, message):
    write_maus_enroll_photos(tmp_path, DEFAULT_MAUS_STYLE, seed=7, cards=CARDS[:2])
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    manifest["cards"][1]["card"] = card
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    code, _, err = enroll(tmp_path, capsys)
    assert code == 2 and message in err and not (tmp_path / ENROLLED).exists()


def test_an_unknown_game_is_refused(tmp_path, capsys):
    (tmp_path / MANIFEST).write_text(json.dumps({"game": "chess", "cards": [{"image": "a.jpg", "card": "g5/3"}]}))
    code, _, err = enroll(tmp_path, capsys)
    assert code == 2 and "game must be one of mamma-mia, maus, not 'chess'" in err
