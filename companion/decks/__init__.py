"""Decks of card faces the camera can compare with: the bundled stand-in
deck, a deck folder given to the server, and decks taught in the app
(:mod:`.store`), taught from pictures one card at a time (:mod:`.teaching`)."""
