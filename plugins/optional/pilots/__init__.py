"""Optional rule Pilots (seeds, "Air Reserves" L531-566; "Assigning Pilots to Air Units in the Air
Reserve" L11524-11532; "Moving Air Units from Map to the Air Reserve" L11552-11561).

Reinforcement subphase Assigning Pilots (each power with an aircraft waiting for a pilot):
``AssignPilot {unit}`` gives an arriving aircraft in the setup tray, or one in the air reserve
pool (which then returns to the setup tray), one of the power's available pilots; when the
subphase ends, arriving aircraft still without a pilot go to the air reserve ("Any air units
without pilots go into the air reserve pool").  Subphase Moving Air Units to the Air Reserve:
``MoveAirToReserve {unit}`` takes an organized aircraft on a city of its home country off the
map, and the power gains a pilot it may use from the next turn.  Pilots received: authored per
scenario (``data/pilots.json``).  Handlers, choices and previews ask ``assign_problem`` and
``reserve_problem``.

Pilot loss and return (air's hook ``aircraft_destroyed``; ``pilot_survives`` is the rule): a
destroyed aircraft's pilot is lost ("Anti-Air Fire": "If an air unit is destroyed by
anti-aircraft fire the pilot is considered to have died ... or be forced to bail out over enemy
territory and sit out the rest of the war in a Prisoner of War camp"; "Carpet Bombing":
"destroy 1 land or aircraft unit (including its pilot)"; "Carrier Air Units", Landing: with no
carrier to return to "it is destroyed (optional rule Pilots: any pilot is destroyed too)") unless
it was shot down in air-to-air combat over a hex its side controls: then the pilot bails out
among friends and joins the available pilots at once (Ships in Flames: "Add a pilot to the
available pilots track whenever ... a carrier plane is destroyed but its pilot survives").  The
seeds name an air-to-air "pilot death" result but give no table for it: see ``data/pilots.json``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from kernel.registry import Registry
from plugins.optional.framework import is_on
from plugins.rules.air.air_to_air import AIR_TO_AIR
from plugins.rules.core import hex_controller, world_map
from plugins.rules.supply.trace import home_countries
from plugins.rules.units import UnitMoved, units
from plugins.rules.core.names import power_name

rules = Registry()

RULE_ID = "pilots"
RULE = "Pilots"
ASSIGN = "wif.procedures.reinforcements.assigning-pilots"
TO_RESERVE = "wif.procedures.reinforcements.air-units-to-air-reserve"
TRAY = "setup-tray"  # the setup tray ("Setup Tray"), where reinforcements wait to be placed
RESERVE = "air-reserve"  # the air reserve pool ("Air Reserve Pool")
DATA = Path(__file__).resolve().parent / "data" / "pilots.json"


@cache
def _data() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


@rules.state("optional.pilots")
class PilotState(BaseModel):
    used: dict[str, int] = Field(default_factory=dict)  # power -> pilots assigned so far
    returned: list[list] = Field(default_factory=list)  # [power, first turn the pilot may be used]
    piloted: list[str] = Field(default_factory=list)  # aircraft given a pilot in a reinforcement phase
    lost: dict[str, int] = Field(default_factory=dict)  # power -> pilots lost with their aircraft


@rules.event
class PilotAssigned(EventData):
    power: str
    unit: str


@rules.event
class AirUnitToReserve(EventData):
    power: str
    unit: str
    pilot_gained: bool  # a piloted aircraft from the map frees its pilot (next turn)


@rules.event
class PilotFate(EventData):
    power: str
    unit: str
    survived: bool  # True: back among the available pilots this turn; False: lost
    why: str


def pilot_state(state) -> PilotState:
    return state["optional.pilots"]


@rules.reducer("PilotAssigned")
def _assigned(state, event) -> None:
    s = pilot_state(state)
    p = event.data["power"]
    s.used[p] = s.used.get(p, 0) + 1
    s.piloted.append(event.data["unit"])


@rules.reducer("AirUnitToReserve")
def _to_reserve(state, event) -> None:
    s = pilot_state(state)
    s.piloted = [u for u in s.piloted if u != event.data["unit"]]
    if event.data["pilot_gained"]:
        s.returned.append([event.data["power"], state.kernel.turn + 1])


@rules.reducer("PilotFate")
def _fate(state, event) -> None:
    s = pilot_state(state)
    d = event.data
    s.piloted = [u for u in s.piloted if u != d["unit"]]
    if d["survived"]:
        s.returned.append([d["power"], state.kernel.turn])
    else:
        s.lost[d["power"]] = s.lost.get(d["power"], 0) + 1


def available_pilots(state, power: str) -> int:
    """Pilots ``power`` may assign now: those received so far, plus those freed in earlier turns,
    less those assigned."""
    turn = state.kernel.turn
    received = sum(1 for t in _data()["scenarios"].get(state.kernel.scenario or "", {}).get(power, []) if t <= turn)
    freed = sum(1 for p, t in pilot_state(state).returned if p == power and t <= turn)
    return received + freed - pilot_state(state).used.get(power, 0)


def needs_pilot(state, unit) -> bool:
    return unit.branch == "air" and unit.where in (TRAY, RESERVE) and unit.id not in pilot_state(state).piloted


def waiting_aircraft(state, power: str) -> list[str]:
    return sorted(u.id for u in units(state).units.values() if u.power == power and needs_pilot(state, u))


def _name(unit) -> str:
    return unit.name or unit.id


def _deciding(state, step: str, power: str) -> str | None:
    if not is_on(state, RULE_ID):
        return f"{RULE}: this optional rule is not in play"
    seq = state.kernel.sequence
    if seq.current != step or power not in seq.pending:
        what = "assigns pilots" if step == ASSIGN else "moves aircraft to the air reserve"
        return f"{RULE}: {power} {what} in its own reinforcement subphase"
    return None


def assign_problem(state, power: str, unit_id: str) -> str | None:
    """Why ``power`` may not give ``unit_id`` a pilot now, or None."""
    problem = _deciding(state, ASSIGN, power)
    if problem:
        return problem
    unit = units(state).units.get(unit_id)
    if unit is None or unit.power != power or not needs_pilot(state, unit):
        return f"{RULE}: {unit_id!r} is no aircraft of {power} waiting for a pilot (arriving or in the air reserve)"
    if available_pilots(state, power) < 1:
        return f"{RULE}: {power} has no available pilot"
    return None


def assign_pilot(ctx, cmd) -> None:
    problem = assign_problem(ctx.state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    unit = units(ctx.state).units[cmd.unit]
    ctx.emit(PilotAssigned(power=cmd.actor, unit=cmd.unit))
    if unit.where == RESERVE:  # "transfer the air unit from the air reserve pool to the setup pool"
        ctx.emit(UnitMoved(unit=cmd.unit, to_hex=None, to_where=TRAY))


def assign_choices(state, actor: str, step_id: str):
    if _deciding(state, ASSIGN, actor) or available_pilots(state, actor) < 1:
        return None
    waiting = waiting_aircraft(state, actor)
    if not waiting:
        return None
    us = units(state).units
    return [one_of("unit", "unit", waiting, label=lambda u: f"{_name(us[u])} ({us[u].where})")]


def assign_preview(state, cmd) -> dict:
    problem = assign_problem(state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    return {"unit": cmd.unit, "pilots_left": available_pilots(state, cmd.actor) - 1}


def home_city(unit) -> bool:
    m = world_map()
    return unit.on_map and m.city_at(tuple(unit.hex)) is not None and \
        m.country_code(tuple(unit.hex)) in home_countries(unit.power)


def reserve_problem(state, power: str, unit_id: str) -> str | None:
    """Why ``power`` may not move ``unit_id`` from the map to the air reserve now, or None."""
    problem = _deciding(state, TO_RESERVE, power)
    if problem:
        return problem
    unit = units(state).units.get(unit_id)
    if unit is None or unit.power != power or unit.branch != "air" or not unit.on_map:
        return f"{RULE}: {unit_id!r} is no aircraft of {power} on the map"
    if not unit.face_up:
        return f"{RULE}: {_name(unit)} is disorganized; only organized aircraft go to the air reserve"
    if not home_city(unit):
        return f"{RULE}: {_name(unit)} is not on a city in its home country"
    return None


def move_air_to_reserve(ctx, cmd) -> None:
    problem = reserve_problem(ctx.state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    ctx.emit(AirUnitToReserve(power=cmd.actor, unit=cmd.unit, pilot_gained=True))
    ctx.emit(UnitMoved(unit=cmd.unit, to_hex=None, to_where=RESERVE))


def eligible_for_reserve(state, power: str) -> list[str]:
    return sorted(u.id for u in units(state).units.values()
                  if u.power == power and u.branch == "air" and u.on_map and u.face_up and home_city(u))


def reserve_choices(state, actor: str, step_id: str):
    if _deciding(state, TO_RESERVE, actor):
        return None
    found = eligible_for_reserve(state, actor)
    if not found:
        return None
    us = units(state).units
    return [one_of("unit", "unit", found, label=lambda u: _name(us[u]))]


def reserve_preview(state, cmd) -> dict:
    problem = reserve_problem(state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    return {"unit": cmd.unit, "pilot_usable_from_turn": state.kernel.turn + 1}


class AssignPilot(Command):
    unit: str


class MoveAirToReserve(Command):
    unit: str


rules.command(AssignPilot, choices=assign_choices, preview=assign_preview)(assign_pilot)
rules.command(MoveAirToReserve, choices=reserve_choices, preview=reserve_preview)(move_air_to_reserve)


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if kind != "rule:reinforcing-power" or step_id not in (ASSIGN, TO_RESERVE) or not is_on(state, RULE_ID):
        return None
    if step_id == ASSIGN:
        # a power with an arriving aircraft decides (it may have no pilot: those then go to the
        # reserve); one with only reserve aircraft decides if it has a pilot to give
        return [p for p in state.kernel.powers()
                if any(units(state).units[u].where == TRAY for u in waiting_aircraft(state, p))
                or (waiting_aircraft(state, p) and available_pilots(state, p) >= 1)]
    return [p for p in state.kernel.powers() if eligible_for_reserve(state, p)]


@hookimpl
def step_ended(ctx, step_id, spec):
    """ "Once you have assigned all your pilots, the remaining air units without pilots are
    automatically placed in the air reserve pool." """
    if step_id != ASSIGN or not is_on(ctx.state, RULE_ID):
        return
    for unit in sorted(units(ctx.state).units.values(), key=lambda u: u.id):
        if unit.where == TRAY and needs_pilot(ctx.state, unit):
            ctx.emit(AirUnitToReserve(power=unit.power, unit=unit.id, pilot_gained=False))
            ctx.emit(UnitMoved(unit=unit.id, to_hex=None, to_where=RESERVE))


# ---------------------------------------------------------------- pilot loss and return
def pilot_survives(state, unit, reason: str, hex_) -> tuple[bool, str]:
    """Does the pilot of ``unit``, destroyed for ``reason`` over ``hex_``, survive?  (and why)"""
    if reason != AIR_TO_AIR:
        # anti-aircraft fire, carpet bombing, no base to return to: the pilot goes with it
        return False, f"lost with its aircraft ({reason})"
    controller = hex_controller(state, hex_) if hex_ is not None else None
    if controller is not None and state.kernel.side_of(controller) == state.kernel.side_of(unit.power):
        return True, "bailed out over a hex its side controls"
    return False, "bailed out over enemy or neutral territory: a prisoner of war"


@hookimpl(optionalhook=True)
def aircraft_destroyed(ctx, unit, reason, hex_):
    if not is_on(ctx.state, RULE_ID):
        return
    aircraft = units(ctx.state).units[unit]
    survived, why = pilot_survives(ctx.state, aircraft, reason, hex_)
    ctx.emit(PilotFate(power=aircraft.power, unit=unit, survived=survived, why=why))


@rules.describe("PilotFate")
def _say_fate(event, state):
    d = event.data
    fate = "returns to the available pilots" if d["survived"] else "is lost"
    return f"{RULE}: the pilot of {d['unit']} ({power_name(d['power'])}) {fate}: {d['why']}"


@rules.describe("PilotAssigned")
def _say_assigned(event, state):
    return f"{RULE}: {event.data['power']} assigns a pilot to {event.data['unit']}"


@rules.describe("AirUnitToReserve")
def _say_reserve(event, state):
    d = event.data
    gain = "; a pilot is freed for next turn" if d["pilot_gained"] else " (no pilot)"
    return f"{RULE}: {d['unit']} goes to the air reserve{gain}"


rules.export(globals())
