"""What the window asks land combat beyond its commands (the front end's hooks, specified in
app/uihooks.py; optional here, so a game without a window does not need them): the land
combat results table as the seeds' "Land Combat" section describes the chart, so the window
can show the table used with its column and the die's row highlighted."""

from __future__ import annotations

from kernel.hookspecs import hookimpl

from . import odds as O

__all__ = ["land_combat_chart"]

# Land Combat, "Results", "Retreats", "Shatter", "Disorganization step": what a cell's codes mean.
LEGEND = [
    ("X/Y", "X: the attacker's result, Y: the defender's"),
    ("a number", "that many land units destroyed (the owner chooses which)"),
    ("R", "retreat: the attacker retreats every surviving defender 1 hex"),
    ("S", "shatter: surviving defenders to the production pool (or R, attacker's choice)"),
    ("B", "breakthrough: as S; attacking ARM, MECH and HQ-A may advance 2 hexes"),
    ("*", "the attackers are not disorganized"),
    ("-", "no effect"),
]


def level_of(odds: str) -> int:
    """The odds level of a final odds name (the inverse of ``odds.level_name``)."""
    attack, defence = (int(x) for x in odds.split(":"))
    if defence == 1:
        return 1 if attack == 1 else attack + 1
    if (attack, defence) == (3, 2):
        return 2
    return 2 - defence


@hookimpl(optionalhook=True)
def land_combat_chart(table, odds=None, modified=None, crt="1d10"):
    """The 1D10 ``table`` ("blitz" / "assault") of data/land_crt.json: its rows (modified
    rolls), columns (final odds), cells, the legend and where the grid comes from; with
    ``odds`` (a final odds name) the column the die is read on, with ``modified`` (the
    modified roll) its row, as Land Combat, "Results" reads them (``odds.lookup``).  None
    for a combat read on another ``crt`` (an optional rule's, which answers for it)."""
    if crt != "1d10":
        return None
    crt = O.crt()
    if table not in crt["tables"]:
        return None
    grid = crt["tables"][table]
    chart = {"title": f"1D10 Land CRT: {table.capitalize()}", "rows": list(crt["rows"]),
             "columns": list(grid["columns"]), "cells": {r: dict(c) for r, c in grid["cells"].items()},
             "legend": [list(pair) for pair in LEGEND], "source": crt["source"],
             "approximations": crt["approximations"], "column": None, "row": None}
    if odds and odds != "auto":
        chart["column"] = O.column(table, level_of(odds))
    if modified is not None:
        rows = crt["rows"]
        chart["row"] = rows[max(0, min(modified, len(rows) - 1))]
    return chart
