"""Optional rule 2D10 Land CRT (seeds, "Land Combat Chart": "2 Die 10 Land CRT (an optional rule)").

When ON, the land combat die roll is two ten-sided dice added together, read on one table of
two columns (Blitz, Assault) in ``data/crt_2d10.json`` (authored: see its header).  The odds
become a die modifier, the 1D10 modifiers are doubled, and two results are new: H (half the
organized attackers stay organized) and E (an extra attacker loss in bad weather or terrain).

It changes land combat only through the combat plugin's hooks ``land_combat_result`` and
``land_combat_disorganized``; Blitz bonus may not be ON with it (the framework refuses).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules.combat import odds as O
from plugins.rules.combat.ui import LEGEND as O_LEGEND

RULE_ID = "2d10-land-crt"
DATA = Path(__file__).resolve().parent / "data" / "crt_2d10.json"
ARMOUR = O.ARM_TYPES | O.MECH_TYPES


@cache
def table() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


table_data = table  # the chart hook's argument ``table`` is the column's name


def odds_modifier(level: int) -> int:
    """The odds as a die modifier: every level above or below 2:1 is worth 2."""
    t = table()["odds_modifier"]
    return t["per_level"] * (level - t["zero_at_level"])


def _open_ground(state, evaluation) -> bool:
    """Non-city clear or desert hex in fine weather: where the ARM modifiers count."""
    city = O.core.world_map().city_at(O.norm(evaluation["hex"]))
    return city is None and evaluation["terrain"] in ("clear", "desert") and evaluation["weather"] == "fine"


def modifiers(state, evaluation, attackers, defenders, column: str) -> dict[str, int]:
    """The 2D10 die modifiers of one combat (reason -> value)."""
    doubled = table()["drm_multiplier"]
    drm = {f"odds {O.level_name(evaluation['level'])}": odds_modifier(evaluation["level"])}
    for reason, value in evaluation["drm"].items():
        if reason != "odds below 1:2":  # the odds modifier covers every level
            drm[reason] = value * doubled
    if _open_ground(state, evaluation):
        # "Offensive Blitz modifiers do not apply if using the Assault table; but defensive
        # ARM and MECH modifiers do apply, even when using the Assault table."
        attacking = sum(1 for u in attackers if O.unit_type(u) in ARMOUR)
        defending = sum(1 for u in defenders if O.unit_type(u) in ARMOUR)
        if attacking and column == "blitz":
            drm["attacking ARM/MECH/HQ-A in the open"] = attacking
        if defending:
            drm["defending ARM/MECH/HQ-A in the open"] = -defending
    return drm


def read(column: str, modified: int) -> str:
    t = table()
    row = t["rows"][max(t["row_min"], min(modified, t["row_max"])) - t["row_min"]]
    return t["columns"][column][row]


def bad_ground(evaluation) -> bool:
    return evaluation["weather"] != "fine" or evaluation["terrain"] not in table()["bad_terrain_exempt"]


def losses(code: str, evaluation) -> dict[str, int]:
    p = O.parse_result(code)
    extra = 1 if "E" in code.split("/")[0] and bad_ground(evaluation) else 0
    return {"attacker": p["attacker_losses"] + extra, "defender": p["defender_losses"]}


@hookimpl(optionalhook=True)
def land_combat_result(ctx, combat, evaluation, table):
    if not is_on(ctx.state, RULE_ID):
        return None
    state = ctx.state
    units = state["units"].units
    attackers = [units[i] for i in combat.attackers if i in units and units[i].on_map]
    defenders = O.defenders(state, combat.hex, combat.powers[0]) if combat.powers else []
    drm = modifiers(state, evaluation, attackers, defenders, table)
    dice = ctx.roll(f"land combat at {evaluation['place']} (combat {combat.id}, 2D10 {table} column)",
                    faces=10, count=2)
    roll = sum(dice)
    modified = roll + sum(drm.values())
    code = read(table, modified)
    return {"roll": roll, "modified": modified, "result": code, "drm": drm, "losses": losses(code, evaluation),
            "crt": "2d10"}


# What the 2D10 table's codes mean beyond the 1D10 legend (the combat plugin's LEGEND).
LEGEND_2D10 = [
    ("H", "half disorganized: half of the surviving organized attackers stay organized"),
    ("E", "one more attacker loss if the hex is in bad weather or bad terrain"),
]


@hookimpl(optionalhook=True)
def land_combat_chart(table, odds=None, modified=None, crt="1d10"):
    """The front end's chart (app/uihooks.py) of a combat read on this table: rows are the
    modified 2D10 totals, the two columns Blitz and Assault, the column read is the combat's
    ``table`` (the odds are a die modifier here, not a column), the row its ``modified`` total."""
    if crt != "2d10" or table not in table_data()["columns"]:
        return None
    t = table_data()
    rows = list(t["rows"])
    chart = {"title": f"2D10 Land CRT (optional rule): {table.capitalize()} column", "rows": rows,
             "columns": list(t["columns"]),
             "cells": {r: {c: t["columns"][c][r] for c in t["columns"]} for r in rows},
             "legend": [list(pair) for pair in O_LEGEND + LEGEND_2D10], "source": t["source"],
             "approximations": t["approximations"], "column": table, "row": None}
    if modified is not None:
        chart["row"] = rows[max(t["row_min"], min(modified, t["row_max"])) - t["row_min"]]
    return chart


@hookimpl(optionalhook=True)
def land_combat_disorganized(state, combat, side, units, result):
    """Half disorganized: "half of the surviving organized attackers remain organized"."""
    if not is_on(state, RULE_ID) or side != "attacker" or not result or "H" not in result["result"].split("/")[0]:
        return None
    by_strength = sorted(units, key=lambda u: (-O.combat_factor(state["units"].units[u]), u))
    stay = len(units) // 2
    return by_strength[stay:]
