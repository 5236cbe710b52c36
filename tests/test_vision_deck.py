"""The stand-in deck: 51 distinct faces from the engine's card list, a
manifest that round-trips, and orders of a colour that differ only on the pizza."""
from __future__ import annotations

import json

import numpy as np
import pytest

from companion.engine import Color, Deck, IngredientCard, Order, card_from_json, card_to_json
from vision.catalog import distinct_faces, face_kind, face_slug
from vision.recognize.decks import read_manifest
from tools.synth.deck_art import _render_cached, layout_for, render_back, render_face
from tools.synth.deck_files import contact_sheet, load_deck, render_deck, write_deck
from tools.synth.style import ALT_STYLE, DEFAULT_STYLE, style_named


@pytest.fixture(scope="module")
def deck():
    return render_deck()


def test_catalogue_has_every_distinct_face_once():
    faces = distinct_faces()
    assert len(faces) == 51
    assert len(set(faces)) == 51
    kinds = [face_kind(f) for f in faces]
    assert [kinds.count(k) for k in ("ingredient", "double", "order", "special", "mamma_mia")] == [5, 5, 25, 15, 1]
    engine_orders = {o for c in Color for o in Deck.for_players(5).orders(c)}
    assert engine_orders == {f for f in faces if isinstance(f, Order)}


def test_slugs_are_unique_and_file_safe():
    slugs = [face_slug(f) for f in distinct_faces()]
    assert len(set(slugs)) == 51
    assert all(set(s) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-+") for s in slugs)
    assert "order-green-4A+P" in slugs and "double-salami" in slugs and "mamma-mia" in slugs


def test_faces_are_portrait_card_shaped_and_pairwise_distinct(deck):
    for face in deck:
        assert face.image.shape == (624, 400, 3)
    flat = [f.image.astype(np.int16) for f in deck]
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            assert np.abs(flat[i] - flat[j]).mean() > 0.5, (deck[i].card, deck[j].card)


def test_rendering_is_deterministic():
    card = Order.from_notation("g:4A+P")
    first = _render_cached.__wrapped__(card, DEFAULT_STYLE)
    second = _render_cached.__wrapped__(card, DEFAULT_STYLE)
    assert np.array_equal(first, second)


@pytest.mark.parametrize("style", [DEFAULT_STYLE, ALT_STYLE], ids=lambda s: s.name)
def test_orders_of_one_colour_differ_only_inside_the_pizza_panel(style):
    x0, y0, x1, y1 = layout_for(style).pizza_panel
    for color in Color:
        faces = [render_face(o, style) for o in Deck.for_players(5).orders(color)]
        outside = np.ones(faces[0].shape[:2], bool)
        outside[y0:y1 + 1, x0:x1 + 1] = False
        for face in faces[1:]:
            assert np.array_equal(face[outside], faces[0][outside]), color
        insides = [f[y0:y1, x0:x1].astype(np.int16) for f in faces]
        for i in range(8):
            for j in range(i + 1, 8):
                assert np.abs(insides[i] - insides[j]).mean() > 1.0


def test_order_frame_is_the_owner_colour():
    for color in Color:
        face = render_face(Order.from_notation(f"{color.letter}:15+"))
        assert np.abs(face[40, 30].astype(int) - DEFAULT_STYLE.colors[color]).max() <= 2


def test_double_differs_from_single_but_shares_its_tint():
    single = render_face(IngredientCard.from_notation("S"))
    double = render_face(IngredientCard.from_notation("S2"))
    assert np.abs(single.astype(int) - double.astype(int)).mean() > 5
    assert np.array_equal(single[300, 25], double[300, 25])


def test_alternative_style_looks_different_for_every_card():
    assert style_named("alt") is ALT_STYLE
    for card in distinct_faces():
        a, b = render_face(card), render_face(card, ALT_STYLE)
        assert np.abs(a.astype(int) - b.astype(int)).mean() > 10, card
    assert np.abs(render_back().astype(int) - render_back(ALT_STYLE).astype(int)).mean() > 10
    with pytest.raises(ValueError):
        style_named("nope")


def test_manifest_round_trips_through_card_from_json(tmp_path):
    entries = write_deck(tmp_path)
    data = json.loads((tmp_path / "manifest.json").read_text())
    assert len(data["cards"]) == 51
    assert data["cards"][0] == {"image": "ingredient-salami.png",
                                "card": {"kind": "ingredient", "ingredient": "salami", "double": False}}
    assert [card_from_json(c["card"]) for c in data["cards"]] == distinct_faces()
    assert all(card_to_json(e.card) == c["card"] for e, c in zip(entries, data["cards"]))
    loaded = load_deck(tmp_path)
    assert np.array_equal(loaded[10].image, render_face(loaded[10].card))
    assert [e.card for e in read_manifest(tmp_path)] == distinct_faces()
    assert [f.card for f in load_deck(tmp_path / "manifest.json")] == distinct_faces()


def test_manifest_with_a_missing_image_is_refused(tmp_path):
    write_deck(tmp_path)
    (tmp_path / "mamma-mia.png").unlink()
    with pytest.raises(FileNotFoundError):
        load_deck(tmp_path)


def test_contact_sheet_shows_every_face(deck):
    sheet = contact_sheet(deck, columns=10, card_width=100)
    rows = 6
    assert sheet.shape[1] == 10 * 112 + 12
    assert sheet.shape[0] == rows * (156 + 12 + 22) + 12
    assert sheet.std() > 30
