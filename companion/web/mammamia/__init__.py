"""Mamma Mia! in the table app: its kind (:mod:`.kind`), its pages and API
actions, and what its pages show of a game (:mod:`.view`)."""
