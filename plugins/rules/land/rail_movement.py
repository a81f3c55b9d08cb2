"""Rail Movement: land and air units move along rail lines through hexes their side controls,
clear of enemy units and zones of control; "Each unit that moves by rail counts as a rail
move.  But if the distance the unit travels is more than 60 hexes, it counts as 2 rail moves."

``plan_rail_move`` is the one judgement of a rail move: the handler, the choices and the
preview all ask it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.turn import activities
from plugins.rules.units import UnitMoved

from .events import Hex, UnitRailMoved, rules
from .labels import hex_label, unit_label
from .movement import MoveRules, norm, stacking_problems
from .movers import RAIL_MOVE, check_mover, movers, power_problem


class RailMove(Command):
    """Move one land or air unit by rail along ``path`` (rail hexes entered), or to ``to``."""

    unit: str
    path: list[Hex] | None = None
    to: Hex | None = None


# ---------------------------------------------------------------- the rail network
_RAIL_ADJ: dict | None = None


def rail_graph() -> dict:
    """Rail hexes and the rail hexes they connect to (consecutive hexes of a line)."""
    global _RAIL_ADJ
    if _RAIL_ADJ is None:
        adj: dict = {}
        for line in core.world_map().rails:
            for a, b in zip(line.hexes, line.hexes[1:]):
                adj.setdefault(a, set()).add(b)
                adj.setdefault(b, set()).add(a)
        _RAIL_ADJ = adj
    return _RAIL_ADJ


def rail_step_problem(rules: MoveRules, a, b) -> str:
    """Why a rail move may not go from rail hex ``a`` on to ``b`` ("" if it may)."""
    if b not in rail_graph().get(a, ()):
        return f"Rail Movement: no rail line joins {a[0]},{a[1]} and {b[0]},{b[1]}"
    owner = rules.controller(b)
    if owner not in rules.friends:
        return (f"Rail Movement: hex {b[0]},{b[1]} is not controlled by your side "
                "(Captured Facilities: you can use railroads controlled by your side)")
    if b in rules.zoc:
        return f"Rail Movement: hex {b[0]},{b[1]} is in an enemy zone of control"
    if b in rules.enemy_land or b in rules.enemy_other:
        return f"Rail Movement: hex {b[0]},{b[1]} holds enemy units"
    return ""


def rail_start_problem(unit) -> str:
    if norm(unit.hex) not in rail_graph():
        return f"Rail Movement: {unit.name or unit.id} is not on a rail hex"
    return ""


def rail_reach(rules: MoveRules, start) -> dict:
    """Every rail hex a unit at ``start`` can reach: ``{hex: previous hex}`` (the start's
    previous is None), breadth first, so following ``previous`` back gives a shortest path."""
    graph = rail_graph()
    prev = {start: None}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            for n in sorted(graph.get(h, ())):
                if n not in prev and not rail_step_problem(rules, h, n):
                    prev[n] = h
                    nxt.append(n)
        frontier = nxt
    return prev


def rail_path_check(state, unit, path, rules: MoveRules | None = None) -> list[Hex]:
    """``path`` (rail hexes entered; the unit's own hex may lead) if the unit may take it,
    else Rejected naming the rule."""
    rules = rules or MoveRules(state, unit)
    here = norm(unit.hex)
    hexes = [norm(h) for h in path]
    if hexes and hexes[0] == here:
        hexes = hexes[1:]
    if not hexes:
        raise Rejected("Rail Movement: the path enters no hex")
    problem = rail_start_problem(unit)
    if problem:
        raise Rejected(problem)
    for h in hexes:
        problem = rail_step_problem(rules, here, h)
        if problem:
            raise Rejected(problem)
        here = h
    return hexes


def rail_path_to(state, unit, to, rules: MoveRules | None = None, prev: dict | None = None) -> list[Hex]:
    """The shortest rail path to ``to`` (hexes entered), or Rejected; ``prev`` is the unit's
    ``rail_reach`` when the caller has it already."""
    start, to = norm(unit.hex), norm(to)
    problem = rail_start_problem(unit)
    if problem:
        raise Rejected(problem)
    if prev is None:
        prev = rail_reach(rules or MoveRules(state, unit), start)
    if to not in prev:
        raise Rejected(f"Rail Movement: no rail path through hexes your side controls, clear of enemy "
                       f"zones of control, leads to {to[0]},{to[1]}")
    path = []
    h = to
    while prev[h] is not None:
        path.append(h)
        h = prev[h]
    return list(reversed(path))


# ---------------------------------------------------------------- judging a rail move
@dataclass
class RailMovePlan:
    path: list[Hex]
    rail_moves: int

    def as_dict(self) -> dict[str, Any]:
        return {"path": [list(h) for h in self.path], "to": list(self.path[-1]), "hexes": len(self.path),
                "rail_moves": self.rail_moves, "activities": {RAIL_MOVE: self.rail_moves}}


def plan_rail_move(state, unit, path=None, to=None, *, rules: MoveRules | None = None,
                   prev: dict | None = None) -> RailMovePlan:
    """Judge moving ``unit`` (already checked by ``movers.check_mover``) by rail along ``path``
    or to ``to``: the plan, or Rejected naming the rule."""
    if (path is None) == (to is None):
        raise Rejected("Rail Movement: give either a path or a destination (to)")
    rules = rules or MoveRules(state, unit)
    if path is not None:
        hexes = rail_path_check(state, unit, path, rules)
    else:
        if norm(to) == norm(unit.hex):
            raise Rejected("Rail Movement: the unit is already there")
        hexes = rail_path_to(state, unit, to, rules, prev)
    problems = stacking_problems(state, hexes[-1], adding=[unit])
    if problems:
        raise Rejected(problems[0] + " (you cannot voluntarily overstack)")
    moves = activities.rail_moves_for(len(hexes))
    problem = power_problem(state, unit.power, RAIL_MOVE, moves)
    if problem:
        raise Rejected(problem)
    return RailMovePlan(hexes, moves)


def rail_move(ctx, cmd: RailMove) -> None:
    """Rail Movement: "Each unit that moves by rail counts as a rail move.  But if the
    distance the unit travels is more than 60 hexes, it counts as 2 rail moves." """
    state = ctx.state
    unit = check_mover(state, cmd.actor, cmd.unit, RAIL_MOVE)
    plan = plan_rail_move(state, unit, cmd.path, cmd.to)
    activities.use_activity(ctx, unit.power, RAIL_MOVE, plan.rail_moves)
    ctx.emit(UnitRailMoved(unit=unit.id, power=unit.power, from_hex=norm(unit.hex), path=plan.path,
                           rail_moves=plan.rail_moves))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=plan.path[-1]))


# ---------------------------------------------------------------- choices and preview
def rail_choices(state, actor: str, step_id: str) -> list[Field] | None:
    """The units ``actor`` may move by rail now (on a rail hex), each with the rail hexes it
    may move to (built when asked)."""
    units = movers(state, actor, RAIL_MOVE)
    if units is None:
        return None
    units = [u for u in units if not rail_start_problem(u)]
    return [Field("unit", "unit", [
        Option(u.id, unit_label(u), then=lambda u=u: [Field("to", "hex", lambda u=u: rail_destinations(state, u),
                                                            label="move by rail to")])
        for u in units], label="unit to move by rail")]


def rail_destinations(state, unit) -> list[Option]:
    """Every rail hex ``unit`` may move to now, nearest first, with the rail moves it costs."""
    rules = MoveRules(state, unit)
    start = norm(unit.hex)
    prev = rail_reach(rules, start)
    out = []
    for h in prev:  # breadth first: nearest first
        if h == start:
            continue
        try:
            plan = plan_rail_move(state, unit, to=h, rules=rules, prev=prev)
        except Rejected:
            continue
        n = plan.rail_moves
        out.append(Option(list(h), f"{hex_label(h)}: {len(plan.path)} hexes, {n} rail move{'s' if n > 1 else ''}"))
    return out


def preview_rail_move(state, cmd: RailMove) -> dict:
    """The rail path the handler would take, its length and the rail moves it counts as."""
    unit = check_mover(state, cmd.actor, cmd.unit, RAIL_MOVE)
    return {"unit": unit.id, **plan_rail_move(state, unit, cmd.path, cmd.to).as_dict()}


rules.command(RailMove, choices=rail_choices, preview=preview_rail_move)(rail_move)
