"""Overruns during land movement (data/overrun.json says what the seeds give and what is
authored).  Land judges the approach (path, movement points, zones of control, fortification
hexsides); the odds and the supply check belong to rules that come after land, asked
through the hooks land publishes (``hooks.py``: ``overrun_odds``, ``overrun_refusal``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from kernel.errors import Rejected
from kernel.state import GameState
from plugins.rules import core
from plugins.rules.units import hex_key as unit_hex_key

from .movement import (
    MoveRules,
    _adjacent,
    hex_cost,
    hexside_cost,
    movement_allowance,
    norm,
    reachable,
    walk_path,
)

DATA = Path(__file__).with_name("data") / "overrun.json"
Hex = tuple[int, int]


@cache
def overrun_rules() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


@dataclass
class OverrunApproach:
    """How a unit would reach a hex of enemy land units to overrun them."""

    path: list[Hex]  # hexes entered, the overrun hex last
    cost: int  # movement points, the overrun's extra points included
    from_hex: Hex  # the hex it overruns from
    defenders: list[str]  # the enemy land units there


def _as_if_adjacent(state, unit, from_hex) -> GameState:
    """The state with ``unit`` standing at ``from_hex``, for judging the overrun's odds as
    the land combat rules would from there (a scratch copy: the game's state is untouched).
    Only what changes is copied (the moved unit, its two stacks); the rest is shared, read only."""
    old_units = state["units"]
    units = old_units.model_copy()
    units.units = {**old_units.units, unit.id: old_units.units[unit.id].model_copy(update={"hex": tuple(from_hex)})}
    units.at_hex = dict(old_units.at_hex)
    old = unit_hex_key(unit.hex)
    units.at_hex[old] = [i for i in units.at_hex.get(old, []) if i != unit.id]
    if not units.at_hex[old]:
        del units.at_hex[old]
    new = unit_hex_key(from_hex)
    units.at_hex[new] = [*units.at_hex.get(new, []), unit.id]
    return GameState(state.kernel, {**state.sections, "units": units})


def overrun_approach(state, unit, path=None, to=None, rules: MoveRules | None = None) -> OverrunApproach:
    """The cheapest legal way for ``unit`` to overrun the enemy land units in the last hex of
    ``path`` (or ``to``), or Rejected naming the rule.  ``rules``: the unit's ``MoveRules``
    for this state when the caller has them already."""
    rules_data = overrun_rules()
    dest = norm(path[-1] if path else to)
    # the overrun hex's own units do not stop the unit on its way in (authored, see data)
    rules = (rules or MoveRules(state, unit)).without_zoc_of(dest)
    defenders = [u.id for u in state["units"].in_hex(dest) if u.branch == "land" and rules.hostile(u.power)]
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
    return OverrunApproach(full_path, total, last, defenders)


def overrun_odds(state, unit, approach: OverrunApproach, hook) -> tuple[float, str]:
    """The overrun's odds (k of k:1, and in words) when the rules after land allow it, or
    Rejected: the final odds against min_odds:1, then supply (Supply: checked "immediately
    before resolving an overrun").  Both must hold, so their order changes no answer, only the
    reason given when both fail; the odds come first because they are cheap and rarely
    enough, while supply traces the power's whole supply net (the unit's destinations list
    every overrun in reach).  ``hook`` is the game's ``pm.hook``."""
    need = overrun_rules()["min_odds"]
    dest = approach.path[-1]
    answer = None
    if hook is not None:
        answer = hook.overrun_odds(state=_as_if_adjacent(state, unit, approach.from_hex), unit=unit,
                                   hex_=dest, min_odds=need, hook=hook)
    if answer is None:
        raise Rejected("Overrun: this game has no land combat rules to judge the overrun's odds "
                       "(no plugin answers the land plugin's overrun_odds hook)")
    if not answer["enough"]:
        raise Rejected(f"Overrun: the final odds against {dest[0]},{dest[1]} are {answer['odds']}; an overrun "
                       f"needs {need}:1")
    refusal = hook.overrun_refusal(state=state, unit=unit, hex_=dest)
    if refusal:
        raise Rejected(refusal)
    return float(answer["ratio"]), str(answer["odds"])


def overrun_check(state, unit, path=None, to=None, hook=None):
    """Can ``unit`` overrun the enemy land units in the last hex of ``path`` (or ``to``)?
    ``hook``: the game's ``pm.hook`` (the odds and supply are asked through it).

    Returns (path entered, movement points spent, odds, overrun unit ids) or raises
    Rejected naming the rule."""
    approach = overrun_approach(state, unit, path, to)
    ratio, _words = overrun_odds(state, unit, approach, hook)
    return approach.path, approach.cost, ratio, approach.defenders
