"""What an air unit is and where it can fly: fighters, range, friendly bases, tactical factors
after weather and terrain, the storm/blizzard ban, and the checks every air command shares.

Seeds: "Air-to-air Combat (see RAC 14.3)" (FTR and carrier air units make the fighter group),
"Disable Phases and Combat Air Patrol" / "Air Rebase" (ranges, see data/air.json), "Air
Attacks" and "Weather Report" (tactical factors, no mission into storm or blizzard),
"Activity Limits (see RAC 10.2)" (counted by the turn plugin).
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

from kernel.errors import Rejected
from plugins.rules.core import hex_controller, weather_in, world_map
from plugins.rules.land.movement import effective_terrain, effective_weather
from plugins.rules.turn.activities import activity_problem, charged
from plugins.rules.units import UnitMoved

from .events import AirUnitDestroyed
from .state import air

DATA = Path(__file__).parent / "data"


@cache
def rules_data() -> dict:
    return json.loads((DATA / "air.json").read_text())


def units_of(state):
    return state["units"].units


def side(state, power: str) -> str | None:
    return state.kernel.side_of(power)


def other_side(state, side_: str) -> str:
    return next(s for s in state.kernel.sides if s != side_)


def name(state, unit_id: str) -> str:
    """How a player reads a unit: "germany Ju 87 (ge-ju87)"."""
    u = units_of(state).get(unit_id)
    if u is None:
        return unit_id
    return f"{u.power} {u.name or u.type} ({unit_id})"


def hex_label(hex_) -> str:
    """A hex as a player reads it: its coordinates and terrain."""
    hex_ = tuple(hex_)
    return f"{hex_} {world_map().terrain(hex_)}"


def distance(a, b) -> int:
    return world_map().grid.distance(tuple(a), tuple(b))


def reach(unit, purpose: str) -> int:
    """How far ``unit`` may fly for ``purpose`` (mission, escort, cap, intercept, rebase, return)."""
    return int(unit.factors.get("range", 0) * rules_data()["range_multiplier"][purpose])


def is_fighter(unit) -> bool:
    d = rules_data()
    return unit.type in d["fighter_types"] or unit.type in d["carrier_types"]


def is_carrier(unit) -> bool:
    return unit.type in rules_data()["carrier_types"]


def tactical_factor(state, unit, hex_, loss: int = 0) -> int:
    """``unit``'s tactical factor attacking ``hex_``, ``loss`` factors taken off by anti-aircraft fire."""
    return bombing_factor(state, unit, hex_, "tactical", loss)


def bombing_factor(state, unit, hex_, factor: str = "tactical", loss: int = 0) -> int:
    """``unit``'s ``factor`` (tactical or strategic) attacking ``hex_``: less the ``loss`` that
    anti-aircraft fire took off, then halved in rain or snow (Weather Report: "If the aircraft
    is suffering anti-aircraft fire, apply this halving after the AA results are applied",
    after the desert shift) and by the hex's terrain (authored RAC 14.5 values), see data/air.json."""
    d = rules_data()
    terrain = world_map().terrain(tuple(hex_))
    weather = effective_weather(weather_in(state, hex_), terrain)
    multiplier = (d["tactical_weather_multiplier"].get(weather, 1.0)
                  * d["tactical_terrain_multiplier"].get(effective_terrain(terrain, weather), 1.0))
    return math.floor(max(0, unit.factors.get(factor, 0) - loss) * multiplier)


def check_mission_weather(state, hex_, rule: str) -> None:
    # Weather Report: "The only mission you may fly to a weather zone in storm or blizzard
    # is a rebase mission."
    weather = weather_in(state, hex_)
    if weather in rules_data()["no_missions_in_weather"]:
        raise Rejected(f"{rule}: hex {tuple(hex_)} is in a weather zone in {weather}; the only mission "
                       "you may fly there is a rebase")


def friendly_base(state, power: str, hex_) -> bool:
    """A land hex controlled by a power of ``power``'s side."""
    hex_ = tuple(hex_)
    if not world_map().is_land(hex_):
        return False
    owner = hex_controller(state, hex_)
    return owner is not None and side(state, owner) == side(state, power)


def bases_in_reach(state, unit, purpose: str = "return") -> list[tuple[int, int]]:
    """The friendly bases ``unit`` can fly to for ``purpose`` from where it is, nearest first."""
    return [h for h in world_map().grid.within(unit.hex, reach(unit, purpose)) if friendly_base(state, unit.power, h)]


def has_base_in_reach(state, unit, purpose: str = "return", besides=None) -> bool:
    """Whether ``bases_in_reach`` holds a hex other than ``besides`` (looks ring by ring from
    the unit outwards and stops at the first found)."""
    grid = world_map().grid
    return any(h != besides and friendly_base(state, unit.power, h)
               for radius in range(reach(unit, purpose) + 1) for h in grid.ring(unit.hex, radius))


def check_in_range(state, unit, hex_, purpose: str, rule: str) -> None:
    dist, limit = distance(unit.hex, hex_), reach(unit, purpose)
    if dist > limit:
        raise Rejected(f"{rule}: {name(state, unit.id)} can fly {limit} hexes for {purpose}, "
                       f"hex {tuple(hex_)} is {dist} hexes away")


def check_can_fly(state, actor: str, unit_id: str):
    """The air unit ``actor`` may send on a mission now (its own, on the map, organized and
    not already flying); Rejected naming the rule otherwise."""
    unit = units_of(state).get(unit_id)
    if unit is None:
        raise Rejected(f"Air missions: there is no unit {unit_id!r}")
    if unit.power != actor:
        raise Rejected(f"Air missions: {name(state, unit_id)} belongs to {unit.power}, not {actor}")
    if unit.branch != "air":
        raise Rejected(f"Air missions: {name(state, unit_id)} is not an air unit")
    if not unit.on_map:
        raise Rejected(f"Air missions: {name(state, unit_id)} is not on the map")
    if not unit.face_up:
        raise Rejected(f"Air missions: {name(state, unit_id)} is face down (disorganized) and cannot fly")
    if unit_id in air(state).mission.flights:
        raise Rejected(f"Air missions: {name(state, unit_id)} is already flying in this mission")
    return unit


def check_activity(state, power: str, kind: str, mission: str | None = None) -> int:
    """Raise Rejected if the turn plugin's ``use_activity`` would refuse one more ``kind``
    activity for ``power`` (Action Choice, Activity Limits); else the activities it charges."""
    problem = activity_problem(state, power, kind, mission=mission)
    if problem:
        raise Rejected(problem)
    return 1 if charged(kind, mission) else 0


def destroy(ctx, unit_id: str, reason: str) -> None:
    """Return to Base: a unit that cannot return is destroyed (to the force pool)."""
    unit = units_of(ctx.state)[unit_id]
    hex_ = tuple(unit.hex) if unit.hex is not None else None
    ctx.emit(AirUnitDestroyed(unit=unit_id, reason=reason))
    ctx.host.pm.hook.aircraft_destroyed(ctx=ctx, unit=unit_id, reason=reason, hex_=hex_)
    ctx.emit(UnitMoved(unit=unit_id, to_hex=None, to_where="force-pool"))
