"""Advance after combat (seeds "Land Combat": Advancing after combat step; "Advance After
Combat"): surviving attackers may enter the emptied hex; after a B result (not converted)
HQ-A, ARM and MECH units, and MOT and CAV stacked with them, may go a second hex, where they
may overrun (land's overrun rules).

``plan_advance`` is the one judgement of an advance: handler, choices and preview ask it."""

from __future__ import annotations

from dataclasses import dataclass

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.land import LandUnitsOverrun
from plugins.rules.land.movement import MoveRules, hex_cost
from plugins.rules.land.overrun import overrun_check
from plugins.rules.units import UnitFlipped, UnitMoved

from . import odds as O
from .events import AttackCancelled, UnitAdvanced
from .labels import hex_label, unit_label
from .retreat import destroy, stack_ok
from .state import Combat, combat_now, current_combat, hook_of, living_attackers, rules, units, waiting_combats

RULE = "Land Combat, advance after combat"
SECOND_LEADERS = O.ARM_TYPES | O.MECH_TYPES  # HQ-A, ARM and MECH units


class AdvanceUnit(Command):
    unit: str
    to_hex: tuple[int, int]


@dataclass
class Advance:
    unit: object
    to: tuple[int, int]
    second: bool
    cost: int | None
    disorganized: bool
    overrun: tuple[float, list[str]] | None = None  # (odds, the overrun units)


def _second_hex_problem(state, c: Combat, unit, to) -> str | None:
    if not c.breakthrough:
        return (f"{RULE}: only a 'B' result (not converted) allows a second hex; the first hex of the "
                "advance must be the defending hex")
    if unit.id not in c.advanced or unit.id in c.second or O.norm(unit.hex) != c.hex:
        return f"{RULE}: the first hex of the advance must be the defending hex, and a unit advances a second hex only once"
    if not O.adjacent(c.hex, to):
        return f"{RULE}: the second hex must be next to the defending hex"
    if hex_cost(state, c.hex) != 1:
        return f"{RULE}: a second hex only if the defending hex cost 1 movement point (weather included)"
    t = O.unit_type(unit)
    if t not in SECOND_LEADERS:
        u = units(state)
        leaders = [u[i] for i in c.second if O.norm(u[i].hex) == to and O.unit_type(u[i]) in SECOND_LEADERS]
        if t not in ("mot", "cav") or not leaders or (
                not O.is_division(unit) and all(O.is_division(x) for x in leaders)):
            return (f"{RULE}: a second hex is for HQ-A, ARM and MECH units, and MOT and CAV stacked with "
                    "the same HQ-A, ARM or MECH unit (MOT/CAV corps not with only an ARM/MECH division)")
    return None


def plan_advance(state, c: Combat, unit_id: str, to_hex, hook=None) -> Advance:
    """How ``unit_id`` would advance into ``to_hex``, or Rejected naming the rule.  An overrun
    in the second hex is judged by land's ``overrun_check`` through ``hook`` (the game's
    ``pm.hook``); without it such an advance is refused."""
    unit = units(state).get(unit_id)
    if unit is None or unit_id not in c.attackers or not unit.on_map:
        raise Rejected(f"{RULE}: only surviving attacking units of this combat can advance ({unit_id} is not one)")
    name = unit.name or unit.id
    to = O.norm(to_hex)
    second = to != c.hex
    enemy_here = any(O.hostile(state, unit.power, u.power) for u in O.land_units(state, to))
    if enemy_here and not (second and c.breakthrough):
        raise Rejected(f"{RULE}: ignore enemy ZOCs but not enemy land units; {to[0]},{to[1]} holds enemy land units")
    overrun = None
    if not second:
        if unit_id in c.advanced:
            raise Rejected(f"{RULE}: {name} has already advanced")
        if not O.adjacent(unit.hex, c.hex):
            raise Rejected(f"{RULE}: {name} is not next to the attacked hex")
    else:
        problem = _second_hex_problem(state, c, unit, to)
        if problem:
            raise Rejected(problem)
        if enemy_here:
            # "You can conduct an overrun (see RAC 11.11.6) in the second hex"
            if hook is None:
                raise Rejected(f"{RULE}: an overrun in the second hex is judged when the advance is made")
            try:
                _path, _cost, odds, overrun_units = overrun_check(state, unit, path=[to], hook=hook)
            except Rejected as refused:
                raise Rejected(f"{RULE}: the second hex holds enemy land units and can't be overrun: {refused}")
            overrun = (odds, overrun_units)
        elif MoveRules(state, unit).step(c.hex, to, O.map_hexside(c.hex, to))[0] is None:
            raise Rejected(f"{RULE}: {name} can't move into {to[0]},{to[1]}")
    if overrun is None and not stack_ok(state, to, unit):
        raise Rejected(f"{RULE}: Over-Stacked Hex: {to[0]},{to[1]} can't hold {name}")
    cost = hex_cost(state, to)
    # "An advancing unit becomes disorganized if the terrain cost of the hex exceeds the
    # unit's movement allowance" / "if the cost of the second hex is 2 or more"
    disorg = (cost or 0) >= 2 if second else (cost or 0) > int(unit.factors.get("move", 0))
    return Advance(unit, to, second, cost, disorg, overrun)


def _candidates(state, c: Combat, unit) -> list[tuple[int, int]]:
    if unit.id not in c.advanced:
        return [c.hex]
    if c.breakthrough and unit.id not in c.second and O.norm(unit.hex) == c.hex:
        return sorted(core.world_map().grid.neighbours(c.hex))
    return []


def advance_options(state, c: Combat, unit, hook=None) -> list[Option]:
    out = []
    for h in _candidates(state, c, unit):
        try:
            plan = plan_advance(state, c, unit.id, h, hook)
        except Rejected:
            continue
        what = "second hex" if plan.second else "the attacked hex"
        out.append(Option(list(h), f"{hex_label(h)}: {what}" + (", disorganized" if plan.disorganized else "")))
    return out


def advance_choices(state, actor: str, step_id: str, host=None) -> list[Field] | None:
    """The surviving attackers that may advance, each with its hexes (second-hex overruns
    when the plugin host is given to judge them)."""
    c = current_combat(state)
    if c is None or c.stage != "applied" or not c.advance:
        return None
    options = []
    for u in living_attackers(state, c):
        hexes = advance_options(state, c, u, hook_of(host))
        if hexes:
            options.append(Option(u.id, unit_label(u), then=[Field("to_hex", "hex", hexes, label="advance into")]))
    return [Field("unit", "unit", options, label="attacking unit to advance")]


def advance_preview(state, cmd: AdvanceUnit, host=None) -> dict:
    plan = plan_advance(state, combat_now(state, "Advance After Combat"), cmd.unit, cmd.to_hex, hook_of(host))
    told = {"to_hex": list(plan.to), "terrain": O.hex_terrain(state, plan.to), "cost": plan.cost,
            "second": plan.second, "disorganized": plan.disorganized}
    if plan.overrun:
        told["overrun"] = {"odds": plan.overrun[0], "units": plan.overrun[1]}
    return told


@rules.command(AdvanceUnit, choices=advance_choices, preview=advance_preview)
def advance_unit(ctx, cmd: AdvanceUnit) -> None:
    """Land Combat, advancing after combat step."""
    c = combat_now(ctx.state, "Advance After Combat")
    plan = plan_advance(ctx.state, c, cmd.unit, cmd.to_hex, ctx.host.pm.hook)
    unit, to = plan.unit, plan.to
    if plan.overrun is not None:
        odds, overrun_units = plan.overrun
        ctx.emit(LandUnitsOverrun(hex=to, units=overrun_units, by=unit.id, power=unit.power, odds=odds))
        for uid in overrun_units:
            destroy(ctx, uid)  # the hex is then empty of land units: no over-stacking
    ctx.emit(UnitMoved(unit=unit.id, to_hex=to))
    ctx.emit(UnitAdvanced(combat=c.id, unit=unit.id, to_hex=to, second=plan.second, disorganized=plan.disorganized))
    if plan.disorganized and units(ctx.state)[unit.id].face_up:
        ctx.emit(UnitFlipped(unit=unit.id, face_up=False))
    if core.hex_controller(ctx.state, to) != unit.power:
        ctx.emit(core.HexControlChanged(hex=to, power=unit.power))
    # "If you occupy the second hex, the declared combat in the second hex is ignored"
    for other in waiting_combats(ctx.state):
        if other.hex == to:
            ctx.emit(AttackCancelled(combat=other.id, reason="the hex was occupied by an advance after combat"))
