"""The land plugin's state section, its events, their reducers and how they read.

``rules`` is the plugin's registry (kernel.registry): the command modules add their commands
to it and ``__init__`` exports its hookimpls."""

from __future__ import annotations

from pydantic import BaseModel, Field

from kernel.events import EventData
from kernel.registry import Registry
from plugins.rules import core

from .labels import place_name, power_name, unit_name

Hex = tuple[int, int]
rules = Registry()


@rules.state("land")
class LandState(BaseModel):
    # unit id -> "turn.impulse" of its last land move / rail move (one of each per impulse)
    land_moved: dict[str, str] = Field(default_factory=dict)
    rail_moved: dict[str, str] = Field(default_factory=dict)
    # "col,row" -> air/naval unit ids overrun there, until they leave the hex
    overrun: dict[str, list[str]] = Field(default_factory=dict)
    # "col,row" -> facilities captured there (Captured Facilities)
    captured: dict[str, list[str]] = Field(default_factory=dict)


def land(state) -> LandState:
    return state["land"]


def this_impulse(state) -> str:
    return f"{state.kernel.turn}.{state.kernel.impulse}"


@rules.event
class LandUnitMoved(EventData):
    unit: str
    power: str
    from_hex: Hex
    path: list[Hex]  # hexes entered, in order
    cost: int  # movement points spent


@rules.event
class UnitRailMoved(EventData):
    unit: str
    power: str
    from_hex: Hex
    path: list[Hex]
    rail_moves: int


@rules.event
class LandUnitsOverrun(EventData):
    """Enemy land units destroyed by an overrun during land movement."""

    hex: Hex
    units: list[str]
    by: str  # the overrunning unit
    power: str
    odds: float


@rules.event
class UnitsOverrun(EventData):
    hex: Hex
    units: list[str]
    by: str  # the power whose land unit entered the hex


@rules.event
class FacilitiesCaptured(EventData):
    hex: Hex
    power: str
    facilities: list[str]


@rules.event
class OverstackLossChosen(EventData):
    unit: str
    hex: Hex


@rules.reducer("LandUnitMoved")
def _land_moved(state, event):
    land(state).land_moved[event.data["unit"]] = this_impulse(state)


@rules.reducer("UnitRailMoved")
def _rail_moved(state, event):
    land(state).rail_moved[event.data["unit"]] = this_impulse(state)


@rules.reducer("UnitsOverrun")
def _overrun(state, event):
    d = event.data
    land(state).overrun[core.hex_key(d["hex"])] = list(d["units"])


@rules.reducer("FacilitiesCaptured")
def _captured(state, event):
    d = event.data
    land(state).captured[core.hex_key(d["hex"])] = list(d["facilities"])


@rules.reducer("OverstackLossChosen")
def _noop(state, event):
    pass


# ---------------------------------------------------------------- what a player reads
@rules.describe("LandUnitMoved")
def _say_moved(event, state) -> str:
    d = event.data
    return (f"{power_name(d['power'])}: {unit_name(state, d['unit'])} moves "
            f"{place_name(d['from_hex'])} → {place_name(d['path'][-1])}")


@rules.describe("UnitRailMoved")
def _say_rail_moved(event, state) -> str:
    d = event.data
    n = d["rail_moves"]
    return (f"{power_name(d['power'])}: {unit_name(state, d['unit'])} moves by rail "
            f"{place_name(d['from_hex'])} → {place_name(d['path'][-1])} ({n} rail move{'s' if n > 1 else ''})")


@rules.describe("LandUnitsOverrun")
def _say_land_overrun(event, state) -> str:
    d = event.data
    unit = state["units"].units.get(d["by"])
    who = (unit.name or unit.id) if unit else d["by"]
    return (f"{power_name(d['power'])}: {who} overruns {len(d['units'])} land unit(s) at "
            f"{place_name(d['hex'])} ({d['odds']:g}:1)")


@rules.describe("UnitsOverrun")
def _say_overrun(event, state) -> str:
    d = event.data
    names = ", ".join(unit_name(state, u) for u in d["units"])
    return f"{power_name(d['by'])} overruns {names} at {place_name(d['hex'])}"


@rules.describe("FacilitiesCaptured")
def _say_captured(event, state) -> str:
    d = event.data
    return f"{power_name(d['power'])} captures " + "; ".join(d["facilities"])


@rules.describe("OverstackLossChosen")
def _say_overstack_loss(event, state) -> str:
    d = event.data
    return f"{unit_name(state, d['unit'])} is destroyed: {place_name(d['hex'])} was overstacked"
