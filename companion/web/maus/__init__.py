"""Maus au Chocolat in the table app: its kind (:mod:`.kind`), what its
pages show of a game (:mod:`.view`), its API moves (:mod:`.api`), its
set-up page (:mod:`.pages`) and its camera (:mod:`.camera`)."""
