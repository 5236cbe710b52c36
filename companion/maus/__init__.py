"""Maus au Chocolat (Kosmos 2009): the second game at the table.

:mod:`companion.maus.engine` holds its rules, pure and without I/O;
:mod:`companion.maus.contract` the JSON contract of ``mamma-mia maus``.
"""
