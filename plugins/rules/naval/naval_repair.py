"""Naval Repair (the Guadalcanal scenario's phase in place of Production).

Seeds: "Naval Repair" (L11180-11189): "each of the 3 major powers in the game [may] repair
one naval unit per turn ... Each of the major powers is asked to select a naval unit to
repair (from its repair pool)"; the form (L8847-8878): "Only one of these units can be
repaired (for free) per turn ... The selected unit will arrive as a reinforcement in 2 turns."

The repair pool: units sent there by naval combat (a damaged unit that aborts, "Naval Combat
Results Table") have ``where`` "repair-pool".  Where a repaired unit arrives is authored: at
the end of the Naval Repair phase of the turn before it is due, in a major port its power
controls (the first by name), face up and undamaged; with none, it waits.
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules.core import hex_controller, world_map
from plugins.rules.units import UnitFlipped, UnitMoved, units

from .events import NavalRepairScheduled, NavalUnitRepaired
from .naval_units import label
from .overseas_supply import closed_sea_areas
from .sea_box_section import areas_of_port
from .state import NAVAL_REPAIR, naval, rules

RULE = "Naval Repair"
TURNS_TO_REPAIR = 2


class RepairNavalUnit(Command):
    unit: str


def repair_pool(state, power: str) -> list:
    return [u for u in units(state).units.values()
            if u.branch == "naval" and u.power == power and u.where == "repair-pool" and u.id not in naval(state).repairs]


def repaired_this_turn(state, power: str) -> bool:
    due = state.kernel.turn + TURNS_TO_REPAIR
    return any(t == due and units(state).units[u].power == power for u, t in naval(state).repairs.items())


def why_not_repair(state, power: str, unit_id: str) -> str | None:
    if repaired_this_turn(state, power):
        return f"{RULE}: only one naval unit can be repaired per turn; {power} has chosen one"
    if unit_id not in {u.id for u in repair_pool(state, power)}:
        return f"{RULE}: {label(state, unit_id)} is not in {power}'s repair pool"
    return None


def repair_choices(state, actor, step_id):
    if repaired_this_turn(state, actor):
        return None
    pool = repair_pool(state, actor)
    return [Field("unit", "unit", [Option(u.id, label(state, u.id)) for u in pool])] if pool else None


def repair_preview(state, cmd: RepairNavalUnit):
    problem = why_not_repair(state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    return {"unit": cmd.unit, "arrives_turn": state.kernel.turn + TURNS_TO_REPAIR, "cost": 0}


@rules.command(RepairNavalUnit, choices=repair_choices, preview=repair_preview)
def repair_naval_unit(ctx, cmd: RepairNavalUnit) -> None:
    problem = why_not_repair(ctx.state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    ctx.emit(NavalRepairScheduled(unit=cmd.unit, turn=ctx.state.kernel.turn + TURNS_TO_REPAIR))
    ctx.finish_decision(cmd.actor)


def arrival_port(state, power: str):
    """A major port ``power`` itself controls (the first by name) on a sea area the game has not
    closed (a scenario's partial map: Guadalcanal's USA would otherwise get Boston), or None."""
    closed = closed_sea_areas(state)
    majors = sorted((c for c in world_map().ports if c.port == "major"), key=lambda c: c.name)
    return next((c.hex for c in majors if hex_controller(state, c.hex) == power
                 and any(a not in closed for a in areas_of_port(c.hex))), None)


def return_repaired(ctx, step_id: str) -> None:
    """End of Naval Repair: units due next turn arrive (in time to act in it)."""
    if step_id != NAVAL_REPAIR:
        return
    state = ctx.state
    for unit_id, turn in sorted(naval(state).repairs.items()):
        if turn > state.kernel.turn + 1:
            continue
        u = units(state).units[unit_id]
        port = arrival_port(state, u.power)
        if port is None:
            continue
        ctx.emit(UnitMoved(unit=unit_id, to_hex=port, to_where="map"))
        if not u.face_up:
            ctx.emit(UnitFlipped(unit=unit_id, face_up=True))
        ctx.emit(NavalUnitRepaired(unit=unit_id))


def repair_skip(state, step_id: str) -> str | None:
    if step_id != NAVAL_REPAIR or state.kernel.scenario != "guadalcanal":
        return None  # outside Guadalcanal the turn plugin says why the phase does not occur
    if not any(repair_pool(state, p) for p in state.kernel.powers()) and not naval(state).repairs:
        return f"{RULE}: no major power has a naval unit in its repair pool"
    return None


