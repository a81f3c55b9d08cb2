"""Land Movement: one land unit moves along a path or to a hex; entering enemy hexes changes
their control (Captured Facilities) and overruns the air and naval units there; a move into
enemy land units overruns them (``overrun``).

``plan_land_move`` is the one judgement of a move: the handler, the choices (every
destination offered) and the preview all ask it, so what is offered is what is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.turn import activities
from plugins.rules.units import UnitMoved

from .events import FacilitiesCaptured, Hex, LandUnitMoved, LandUnitsOverrun, UnitsOverrun, rules
from .labels import hex_label, unit_label
from .movement import (
    NO_CONTROL_TYPES,
    MoveRules,
    _adjacent,
    cheapest_path,
    norm,
    path_cost,
    reachable,
    stacking_problems,
)
from .movers import LAND_MOVE, check_mover, movers
from .overrun import overrun_approach, overrun_odds

REBASE_DIGRESSION = "digressions.rebase-overrun-units"


class MoveLandUnit(Command):
    """Move one land unit along ``path`` (the hexes it enters, in order), or to ``to`` by
    the cheapest path."""

    unit: str
    path: list[Hex] | None = None
    to: Hex | None = None


@dataclass
class LandMovePlan:
    """What a land move does: the hexes entered, the movement points, the overrun if any."""

    path: list[Hex]
    cost: int
    overrun: list[str] = field(default_factory=list)  # enemy land units destroyed entering the last hex
    odds: float | None = None  # the overrun's odds (k of k:1); None: not judged (no rules asked)
    odds_text: str = ""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": [list(h) for h in self.path], "cost": self.cost,
                               "to": list(self.path[-1]), "activities": {LAND_MOVE: 1},
                               "overrun": bool(self.overrun)}
        if self.overrun:
            out.update(overrun_units=list(self.overrun), odds=self.odds, odds_text=self.odds_text,
                       odds_judged=self.odds is not None)
        return out


def plan_land_move(state, unit, path=None, to=None, *, hook=None, judge: bool = True,
                   rules: MoveRules | None = None, found: dict | None = None) -> LandMovePlan:
    """Judge moving ``unit`` (already checked by ``movers.check_mover``) along ``path`` or to
    ``to``: the plan, or Rejected naming the rule.  ``hook`` (the game's ``pm.hook``) answers an
    overrun's odds and supply; ``judge=False`` leaves them out (a preview that cannot ask).
    ``rules`` and ``found`` (the unit's ``reachable``) may be given when already built."""
    if (path is None) == (to is None):
        raise Rejected("Land Movement: give either a path or a destination (to)")
    if path is not None and not path:
        raise Rejected("Land Movement: the path enters no hex")
    rules = rules or MoveRules(state, unit)
    target = norm(path[-1] if path is not None else to)
    if target in rules.enemy_land:
        # Land Movement: "Enemy units might be overrun during land movement"
        approach = overrun_approach(state, unit, path, to, rules)
        plan = LandMovePlan(approach.path, approach.cost, approach.defenders)
        if judge:
            plan.odds, plan.odds_text = overrun_odds(state, unit, approach, hook)
        return plan
    if path is not None:
        cost = path_cost(state, unit.id, path, rules)
        hexes = [norm(h) for h in path]
        if hexes[0] == norm(unit.hex):
            hexes = hexes[1:]
    else:
        hexes = cheapest_path(state, unit.id, to, found if found is not None else reachable(state, unit.id, rules))
        if not hexes:
            raise Rejected("Land Movement: the unit is already there")
        cost = path_cost(state, unit.id, hexes, rules)
    dest = hexes[-1]
    caught = [u.id for u in state["units"].in_hex(dest) if u.branch != "land" and rules.hostile(u.power)]
    problems = stacking_problems(state, dest, adding=[unit], leaving=caught)
    if problems:
        # Over-Stacked Hex: "You cannot voluntarily overstack"
        raise Rejected(problems[0] + " (you cannot voluntarily overstack)")
    return LandMovePlan(hexes, cost)


# ---------------------------------------------------------------- the command
def move_land_unit(ctx, cmd: MoveLandUnit) -> None:
    """Land Movement: "Each land unit that moves counts as a land move." """
    state = ctx.state
    unit = check_mover(state, cmd.actor, cmd.unit, LAND_MOVE)
    rules = MoveRules(state, unit)
    plan = plan_land_move(state, unit, cmd.path, cmd.to, hook=ctx.host.pm.hook, rules=rules)
    activities.use_activity(ctx, unit.power, LAND_MOVE)
    dest = plan.path[-1]
    if plan.overrun:
        ctx.emit(LandUnitsOverrun(hex=dest, units=plan.overrun, by=unit.id, power=unit.power, odds=plan.odds))
        for uid in plan.overrun:
            ctx.emit(UnitMoved(unit=uid, to_hex=None, to_where="eliminated"))
    ctx.emit(LandUnitMoved(unit=unit.id, power=unit.power, from_hex=norm(unit.hex), path=plan.path, cost=plan.cost))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=dest))
    if enter_hexes(ctx, unit, plan.path, rules):
        # Land Movement: overrun air and naval units rebase "as a digression"
        ctx.push(REBASE_DIGRESSION)


def enter_hexes(ctx, unit, path, rules: MoveRules) -> bool:
    """Captured Facilities: "Control of a hex changes when an enemy land unit (except for
    partisans or supply units) enters it"; air and naval units in a hex that passes to
    enemy control are overrun.  Returns whether any were."""
    if unit.type in NO_CONTROL_TYPES:
        return False
    state = ctx.state
    overran = False
    for h in path:
        owner = rules.controller(h)
        if owner is not None and rules.hostile(owner):
            ctx.emit(core.HexControlChanged(hex=h, power=unit.power))
            facilities = _facilities(h)
            if facilities:
                ctx.emit(FacilitiesCaptured(hex=h, power=unit.power, facilities=facilities))
        # Rebase Overrun Units Digression: enemy air and naval units in a hex an enemy land
        # unit enters are overrun, whoever controlled the hex (e.g. aircraft left in a hex the
        # other side took back by a retreat)
        caught = [u.id for u in state["units"].in_hex(h) if u.branch != "land" and rules.hostile(u.power)]
        if caught:
            ctx.emit(UnitsOverrun(hex=h, units=caught, by=unit.power))
            overran = True
    return overran


def _facilities(h) -> list[str]:
    m = core.world_map()
    out = []
    city = m.city_at(h)
    if city is not None:
        if city.port == "major":
            out.append(f"major port {city.name} (functions as a minor port until repaired)")
        elif city.port == "minor":
            out.append(f"minor port {city.name}")
        out.append(f"{'capital' if city.is_capital else 'city'} {city.name}")
    for f in m.economy_at(h):
        if f.feature == "factory":
            out.append(f"{f.count} factor{'y' if f.count == 1 else 'ies'} at {f.place}")
        else:
            oil = "oil " if f.kind == "oil" else ""
            out.append(f"{f.count} {oil}resource{'' if f.count == 1 else 's'} at {f.place}")
    return out


# ---------------------------------------------------------------- choices and preview
def move_choices(state, actor: str, step_id: str, host=None) -> list[Field] | None:
    """The land units ``actor`` may move now, each with the hexes it may move to (built when
    asked).  Overruns are offered when the game's rules (``host``) accept them."""
    hook = host.pm.hook if host is not None else None
    units = movers(state, actor, LAND_MOVE)
    if units is None:
        return None
    return [Field("unit", "unit", [
        Option(u.id, unit_label(u), then=lambda u=u: [Field("to", "hex", lambda u=u: destinations(state, u, hook),
                                                            label="move to")])
        for u in units], label="land unit to move")]


def destinations(state, unit, hook=None) -> list[Option]:
    """Every hex ``unit`` may move to now, cheapest first, labelled with terrain and cost: the
    reachable hexes ``plan_land_move`` accepts, and (with ``hook``) the overruns it accepts."""
    rules = MoveRules(state, unit)
    found = reachable(state, unit.id, rules)
    start = norm(unit.hex)
    out = []
    for h, (cost, _prev) in sorted(found.items(), key=lambda item: (item[1][0], item[0])):
        if h == start:
            continue
        try:
            plan = plan_land_move(state, unit, to=h, rules=rules, found=found)
        except Rejected:
            continue
        out.append(Option(list(h), f"{hex_label(h)}: {plan.cost} MP"))
    if hook is None:
        return out
    targets = sorted({n for h in found for n, _kind in _adjacent(h) if n in rules.enemy_land})
    for h in targets:
        try:
            plan = plan_land_move(state, unit, to=h, hook=hook, rules=rules)
        except Rejected:
            continue
        out.append(Option(list(h), f"{hex_label(h)}: overrun {len(plan.overrun)} unit(s) at {plan.odds_text}, "
                                   f"{plan.cost} MP"))
    return out


def preview_move(state, cmd: MoveLandUnit, host=None) -> dict:
    """The path and cost the handler would use, the activities, and whether it overruns (with
    its odds, judged by the game's rules, ``host``); Rejected as the handler would refuse."""
    hook = host.pm.hook if host is not None else None
    unit = check_mover(state, cmd.actor, cmd.unit, LAND_MOVE)
    plan = plan_land_move(state, unit, cmd.path, cmd.to, hook=hook, judge=hook is not None)
    return {"unit": unit.id, **plan.as_dict()}


rules.command(MoveLandUnit, choices=move_choices, preview=preview_move)(move_land_unit)
