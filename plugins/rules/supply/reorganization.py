"""Reorganization (seeds "Reorganize Units" L4972-5046): by HQ in the End of Impulse stage
(``HQReorganize``, each phasing major power) and the End of Turn Reorganization.

An organized HQ spends its reorganization points on disorganized co-operating land or air
units within its range (motorized movement points, traced like a basic supply path) and
becomes disorganized.  Handler, choices and preview ask ``reorganize_problem``.
"""

from __future__ import annotations

import heapq
from typing import Literal

from kernel.choices import Option, one_of
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules.core import is_hq
from plugins.rules.land.movement import BAD_WEATHER, effective_terrain
from plugins.rules.units import UnitFlipped

from . import trace
from .state import EndOfTurnReorganized, HQReorganized, now, rules, supply_state
from .trace import REORG_COST

RULE = "Reorganization by HQ"


class HQReorganize(Command):
    hq: str
    unit: str
    points: Literal["all", "one"] = "all"


def reorg_value(hq) -> int:
    return int(hq.factors.get("reorg", hq.factors.get("combat", 0)))


def hq_points_left(state, hq) -> int | float:
    used = supply_state(state).hq_points.get(hq.id)
    spent = used[2] if used and tuple(used[:2]) == now(state) else 0
    return max(0, reorg_value(hq) - spent)


def reorganization_costs(state, hq, limit: int) -> dict:
    """Reorganize Units, By HQ: motorized-MP cost from the HQ's hex to each hex within its
    reorganization range, traced like a basic supply path, never overseas.  A hex adjacent
    to the HQ is always within range if the path may enter it."""
    tracer = trace.tracer_for(state, hq.power)  # its enterable hexes shared with the supply trace
    start = tuple(hq.hex)
    dist = {start: 0}
    frontier = [(0, start)]
    while frontier:
        d, h = heapq.heappop(frontier)
        if d != dist.get(h):
            continue
        for n, lake_side, _straits, _rail in trace._adjacent(h):
            if not tracer.enterable(n) or not tracer.crossable(h, n, lake_side):
                continue
            weather = tracer.weather(n)
            cost = trace.MOTORIZED_COST.get(effective_terrain(trace._hex_facts(n)[0], weather), 1)
            if weather in BAD_WEATHER:
                cost *= 2
            nd = d + cost
            if d == 0:
                nd = min(nd, limit)  # "You may always trace 1 hex"
            if nd > limit:
                continue
            if nd < dist.get(n, trace.UNLIMITED):
                dist[n] = nd
                heapq.heappush(frontier, (nd, n))
    return dist


def _partial(state, unit_id: str) -> int:
    got = supply_state(state).partial.get(unit_id)
    return got[2] if got and tuple(got[:2]) == now(state) else 0


def _hq_in_use(state, hq) -> bool:
    used = supply_state(state).hq_points.get(hq.id)
    return bool(used) and tuple(used[:2]) == now(state)


def _name(unit) -> str:
    return unit.name or unit.id


def hq_problem(state, actor: str | None, hq_id: str) -> str | None:
    """Why the HQ may not reorganize anything now (for ``actor``, when given), or None."""
    hq = state["units"].units.get(hq_id)
    if hq is None:
        return f"{RULE}: no unit {hq_id!r}"
    if actor is not None and hq.power != actor and state.kernel.side_of(hq.power) != actor:
        return f"{RULE}: {_name(hq)} belongs to {hq.power}, not {actor}"
    if not is_hq(hq) or not hq.on_map:
        return f"{RULE}: {_name(hq)} is not an HQ on the map"
    if not hq.face_up and not _hq_in_use(state, hq):
        return f"{RULE}: only an organized HQ can reorganize units ({_name(hq)} is disorganized)"
    if hq_points_left(state, hq) <= 0:
        return f"{RULE}: {_name(hq)} has no reorganization points left"
    return None


def reorganize_problem(state, hq_id: str, unit_id: str, actor: str | None = None,
                       costs: dict | None = None) -> str | None:
    """Why the HQ may not reorganize the unit now (a reason naming the rule), or None.

    ``costs``: the HQ's ``reorganization_costs`` when the caller has them already."""
    problem = hq_problem(state, actor, hq_id)
    if problem:
        return problem
    hq = state["units"].units[hq_id]
    unit = state["units"].units.get(unit_id)
    if unit is None:
        return f"{RULE}: no unit {unit_id!r}"
    if unit.id == hq.id:
        return f"{RULE}: an HQ cannot reorganize itself"
    if unit.face_up:
        return f"{RULE}: {_name(unit)} is not disorganized"
    if not unit.on_map or unit.branch == "naval":
        return f"{RULE}: {_name(unit)} is not a land or air unit on the map"
    if state.kernel.side_of(unit.power) != state.kernel.side_of(hq.power):
        return f"{RULE}: {_name(unit)} does not co-operate with {_name(hq)}"
    if costs is None:
        costs = reorganization_costs(state, hq, reorg_value(hq))
    if tuple(unit.hex) not in costs:
        return (f"{RULE}: {_name(unit)} is beyond the HQ's reorganization range "
                f"({reorg_value(hq)} motorized movement points, traced like a basic supply path)")
    return None


def can_reorganize(state, hq_id: str, unit_id: str) -> str | None:
    """Why the HQ may not reorganize the unit now, or None (any owner)."""
    return reorganize_problem(state, hq_id, unit_id)


def reorganization_cost(state, hq, unit, hook=None) -> int | float:
    """The points ``hq`` spends to organize ``unit``: the usual cost, or a rule's (the hook
    ``reorganization_cost``, asked through ``hook``, the game's ``pm.hook``)."""
    changed = hook.reorganization_cost(state=state, hq=hq, unit=unit) if hook is not None else None
    return REORG_COST if changed is None else changed


def _spend(state, hq, unit, points: str, hook=None) -> tuple[int | float, bool]:
    """(points spent, unit organized) for reorganizing ``unit`` with ``points`` ("all"/"one")."""
    left = hq_points_left(state, hq)
    needed = reorganization_cost(state, hq, unit, hook) - _partial(state, unit.id)
    spend = min(left, needed) if points == "all" else min(1, needed)
    return spend, spend >= needed


def hq_reorganize(ctx, cmd: HQReorganize) -> None:
    state = ctx.state
    problem = reorganize_problem(state, cmd.hq, cmd.unit, actor=cmd.actor)
    if problem:
        raise Rejected(problem)
    units = state["units"].units
    hq, unit = units[cmd.hq], units[cmd.unit]
    left = hq_points_left(state, hq)
    spend, organized = _spend(state, hq, unit, cmd.points, ctx.host.pm.hook)
    was_organized = hq.face_up
    ctx.emit(HQReorganized(hq=hq.id, unit=unit.id, points=spend, points_left=left - spend, organized=organized))
    if organized:
        ctx.emit(UnitFlipped(unit=unit.id, face_up=True))
    if was_organized:
        # "The HQ becomes disorganized after it reorganizes other units."
        ctx.emit(UnitFlipped(unit=hq.id, face_up=False))


# ---------------------------------------------------------------- choices and preview
def targets(state, hq, actor: str | None = None) -> list[str]:
    """The units ``hq`` may reorganize now."""
    if hq_problem(state, actor, hq.id):
        return []
    costs = reorganization_costs(state, hq, reorg_value(hq))
    return sorted(u.id for u in state["units"].units.values()
                  if not u.face_up and u.on_map and tuple(u.hex) in costs
                  and reorganize_problem(state, hq.id, u.id, actor=actor, costs=costs) is None)


POINTS = [Option("all", "as many points as it needs"), Option("one", "one point")]


def hq_reorganize_choices(state, actor: str, step_id: str):
    """Each HQ of the actor that can reorganize a unit, then those units, then the points."""
    units = state["units"].units
    found = {u.id: targets(state, u, actor) for u in units.values() if is_hq(u) and u.on_map
             and (u.power == actor or state.kernel.side_of(u.power) == actor)}
    found = {hq: ids for hq, ids in found.items() if ids}
    if not found:
        return None

    def label(uid):
        u = units[uid]
        return f"{_name(u)} ({u.type}) at {u.hex[0]},{u.hex[1]}"

    def hq_label(hq_id):
        return f"{label(hq_id)}: {hq_points_left(state, units[hq_id])} point(s) left"

    def which(hq_id):
        return [one_of("unit", "unit", found[hq_id], label=label,
                       then=lambda _uid: [one_of("points", "option", [o.value for o in POINTS],
                                                 label=lambda v: next(o.label for o in POINTS if o.value == v))])]

    return [one_of("hq", "unit", sorted(found), label=hq_label, then=which)]


def hq_reorganize_preview(state, cmd: HQReorganize, host=None) -> dict:
    problem = reorganize_problem(state, cmd.hq, cmd.unit, actor=cmd.actor)
    if problem:
        raise Rejected(problem)
    units = state["units"].units
    hq, unit = units[cmd.hq], units[cmd.unit]
    spend, organized = _spend(state, hq, unit, cmd.points, host.pm.hook if host is not None else None)
    return {"points": spend, "points_left": hq_points_left(state, hq) - spend, "organized": organized,
            "hq_disorganized": hq.face_up}


# ---------------------------------------------------------------- steps
def end_of_turn_reorganization(ctx, step_id) -> None:
    """End of Turn Reorganization: "If the optional oil rule is not being used, then all
    disorganized units are reorganized.  There is one exception to this, which is that if the
    optional rule for reorganizing isolated units is in use, then isolated units are not
    reorganized" (asked through the hook ``end_of_turn_reorganization_refusal``)."""
    refusal = ctx.host.pm.hook.end_of_turn_reorganization_refusal
    flipped = sorted(u.id for u in ctx.state["units"].units.values() if u.on_map and not u.face_up
                     and refusal(state=ctx.state, unit=u) is None)
    for unit_id in flipped:
        ctx.emit(UnitFlipped(unit=unit_id, face_up=True))
    ctx.emit(EndOfTurnReorganized(units=flipped))


def anything_to_reorganize(state) -> bool:
    """May an HQ of the phasing side reorganize a disorganized unit now?"""
    k = state.kernel
    powers = set(k.sides.get(k.active_side, [])) if k.active_side else set(k.powers())
    return any(targets(state, u) for u in state["units"].units.values()
               if u.power in powers and is_hq(u) and u.on_map)


rules.command(HQReorganize, choices=hq_reorganize_choices, preview=hq_reorganize_preview)(hq_reorganize)
