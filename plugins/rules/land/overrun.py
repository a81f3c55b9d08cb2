"""Overruns during land movement: the checks (data/overrun.json says what is authored)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kernel.errors import Rejected
from plugins.rules import core

from .movement import (
    MoveRules,
    _adjacent,
    _zoc_of,
    hex_cost,
    hexside_cost,
    movement_allowance,
    norm,
    reachable,
    walk_path,
)

DATA = Path(__file__).with_name("data") / "overrun.json"


@cache
def overrun_rules() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def _as_if_adjacent(state, unit, from_hex):
    """The state with ``unit`` standing at ``from_hex``, for judging the overrun's odds as
    the land combat rules would from there (a scratch copy: the game's state is untouched)."""
    from kernel.state import GameState
    from plugins.rules.units import hex_key as unit_hex_key

    units = state["units"].model_copy(deep=True)
    old = unit_hex_key(unit.hex)
    units.at_hex[old] = [i for i in units.at_hex.get(old, []) if i != unit.id]
    if not units.at_hex[old]:
        del units.at_hex[old]
    units.units[unit.id].hex = tuple(from_hex)
    units.at_hex.setdefault(unit_hex_key(from_hex), []).append(unit.id)
    return GameState(state.kernel, {**state.sections, "units": units})


def _odds(state, unit, dest, from_hex) -> tuple[bool, float, str]:
    """(enough for an overrun, the odds as a number, the odds in words), by the land
    combat rules when the combat plugin is present, else by plain combat factors."""
    need = overrun_rules()["min_odds"]
    try:
        from plugins.rules.combat.odds import evaluate, odds_level
    except ImportError:
        attack = unit.factors.get("combat", 0)
        defence = sum(u.factors.get("combat", 0) for u in state["units"].in_hex(dest)
                      if u.branch == "land" and u.power != unit.power)
        if defence <= 0:
            return True, float("inf"), "no defending factors"
        ratio = attack / defence
        return ratio >= need, round(ratio, 2), f"{attack} against {defence}"
    out = evaluate(_as_if_adjacent(state, unit, from_hex), [unit.id], dest)
    if out.get("automatic"):
        return True, float(need), "no defending factors"
    level = out["level"]
    ratio = max(level - 1, 0)  # level of k:1 is k + 1 (Land Combat odds levels)
    return level >= odds_level(need, 1), float(ratio), out["odds"]


def overrun_check(state, unit, path=None, to=None):
    """Can ``unit`` overrun the enemy land units in the last hex of ``path`` (or ``to``)?

    Returns (path entered, movement points spent, odds, overrun unit ids) or raises
    Rejected naming the rule."""
    rules_data = overrun_rules()
    dest = norm(path[-1] if path else to)
    rules = MoveRules(state, unit)
    defenders = [u for u in state["units"].in_hex(dest) if u.branch == "land" and rules.hostile(u.power)]
    # the overrun hex's own units do not stop the unit on its way in (authored, see data)
    rules.zoc = _zoc_of(state, rules.hostile, skip_hex=dest)
    start = norm(unit.hex)
    if path:
        approach = [norm(h) for h in path[:-1]]
        if approach and approach[0] == start:
            approach = approach[1:]
        spent, here = walk_path(rules, unit, approach)
        choices = [(spent, here, approach)]
    else:
        found = reachable(state, unit.id, rules=rules)
        choices = []
        for n, _kind in _adjacent(dest):
            if n in found:
                back, h = [], n
                while h is not None and found[h][1] is not None:
                    back.append(h)
                    h = found[h][1]
                choices.append((found[n][0], n, list(reversed(back))))
    best = None
    for spent, last, approach in sorted(choices, key=lambda c: c[0]):
        kind = next((k for n, k in _adjacent(last) if n == dest), False)
        if kind is False:
            continue
        if core.across_fort(state, last, dest):
            continue  # Fortifications: "You can't overrun a land unit in a fortification hex
            # across a fortification hexside."
        if last != start and last in rules.zoc:
            continue  # it would have had to stop there
        enter = hex_cost(state, dest, rules.weather(dest))
        extra = hexside_cost(kind, rules.weather(last), rules.weather(dest))
        if enter is None or extra is None:
            continue
        total = spent + enter + extra + rules_data["extra_mp"]
        if best is None or total < best[0]:
            best = (total, approach + [dest], last)
    if best is None:
        raise Rejected(f"Overrun: {unit.name or unit.id} cannot reach {dest[0]},{dest[1]} to overrun it "
                       "(path, zones of control, fortification hexsides)")
    total, full_path, last = best
    allowance = movement_allowance(unit)
    if total > allowance:
        raise Rejected(f"Overrun: {unit.name or unit.id} needs {total} movement points to overrun "
                       f"{dest[0]},{dest[1]} (the hex's cost + {rules_data['extra_mp']}), it has {allowance}")
    if "supply" in state.sections:  # the supply rules are in this game
        from plugins.rules.supply import in_supply

        # Supply: checked "immediately before resolving an overrun"; like a declared attack
        # (Land Combat Resolution), it needs the unit making it in supply (authored, see data)
        if not in_supply(state, unit.id):
            raise Rejected(f"Overrun: {unit.name or unit.id} is out of supply; an overrun needs the "
                           "overrunning unit in supply (Supply Sources and Paths)")
    enough, ratio, words = _odds(state, unit, dest, last)
    if not enough:
        raise Rejected(f"Overrun: the final odds against {dest[0]},{dest[1]} are {words}; an overrun needs "
                       f"{rules_data['min_odds']}:1")
    return full_path, total, ratio, [u.id for u in defenders]
