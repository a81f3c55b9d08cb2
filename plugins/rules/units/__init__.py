"""Unit counters: the state every land, air and naval rule works on.

A unit is one counter.  Where the seeds speak of a unit being "flipped" or "face-down"
(disorganized land units, air units that have flown) the counter's ``face_up`` is False.
Rules plugins change units only through the events registered here, so the renderer, the
replay viewer and every rule see one model.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kernel.events import EventData
from kernel.registry import Registry

rules = Registry()

Branch = Literal["land", "air", "naval"]


class Unit(BaseModel):
    id: str
    power: str  # the major power that controls it (e.g. "germany")
    nationality: str = ""  # whose counter it is, if not the controller's (e.g. "romania")
    branch: Branch
    type: str  # unit type id from the scenario's counter data (e.g. "inf", "arm", "ftr")
    name: str = ""
    # Factor keys the rules read.  Land: "combat", "move".  Air: "air" (air-to-air),
    # "tactical", "strategic", "naval", "range".  Naval: "attack", "aa", "defense", "speed",
    # "range".  A scenario's counter data may add more; rules ignore keys they do not know.
    # Whole numbers, or halves and other fractions where the seeds give them ("any division
    # = 0.5", halved factors) and where a lab game's rig sets them.
    factors: dict[str, int | float] = Field(default_factory=dict)
    size: str = ""  # land: "army" (corps/army counter), "division"; air/naval: class
    year: int = 0  # the year printed on the counter
    flags: list[str] = Field(default_factory=list)  # e.g. "elite", "mountain", "ski", "engineer"
    hex: tuple[int, int] | None = None
    where: str = "map"  # "map", "force-pool", "reserve", "eliminated", …
    face_up: bool = True

    @property
    def on_map(self) -> bool:
        return self.where == "map" and self.hex is not None


@rules.state("units")
class Units(BaseModel):
    units: dict[str, Unit] = Field(default_factory=dict)
    # hex -> unit ids, kept by the reducers so "who is in this hex" is a dict look-up
    at_hex: dict[str, list[str]] = Field(default_factory=dict)

    def in_hex(self, hex_: tuple[int, int]) -> list[Unit]:
        return [self.units[u] for u in self.at_hex.get(hex_key(hex_), [])]


def hex_key(hex_: tuple[int, int]) -> str:
    return f"{hex_[0]},{hex_[1]}"


def units(state) -> Units:
    return state["units"]


# ---------------------------------------------------------------- events
@rules.event
class UnitCreated(EventData):
    unit: Unit


@rules.event
class UnitMoved(EventData):
    unit: str
    to_hex: tuple[int, int] | None
    to_where: str = "map"


@rules.event
class UnitFlipped(EventData):
    unit: str
    face_up: bool


@rules.event
class UnitFactorsChanged(EventData):
    unit: str
    factors: dict[str, int | float]


def _place(u: Units, unit_id: str) -> None:
    unit = u.units[unit_id]
    if unit.on_map:
        u.at_hex.setdefault(hex_key(unit.hex), []).append(unit_id)


def _lift(u: Units, unit_id: str) -> None:
    unit = u.units[unit_id]
    if unit.on_map:
        key = hex_key(unit.hex)
        stack = u.at_hex[key]
        stack.remove(unit_id)
        if not stack:
            del u.at_hex[key]


@rules.reducer("UnitCreated")
def _created(state, event):
    u = units(state)
    unit = Unit.model_validate(event.data["unit"])
    u.units[unit.id] = unit
    _place(u, unit.id)


@rules.reducer("UnitMoved")
def _moved(state, event):
    u = units(state)
    d = event.data
    _lift(u, d["unit"])
    unit = u.units[d["unit"]]
    unit.hex = tuple(d["to_hex"]) if d["to_hex"] is not None else None
    unit.where = d["to_where"]
    _place(u, d["unit"])


@rules.reducer("UnitFlipped")
def _flipped(state, event):
    units(state).units[event.data["unit"]].face_up = event.data["face_up"]


@rules.reducer("UnitFactorsChanged")
def _factors(state, event):
    units(state).units[event.data["unit"]].factors.update(event.data["factors"])


def _unit_name(state, unit_id: str) -> str:
    unit = units(state).units.get(unit_id)
    return (unit.name or unit.type) if unit else unit_id


def _hex_of(state, unit_id: str) -> list:
    unit = units(state).units.get(unit_id)
    return [unit.hex] if unit is not None and unit.hex is not None else []


@rules.hexes("UnitMoved")
def _moved_hexes(event, state):
    """Where the unit was and where it went."""
    to = event.data["to_hex"]
    return _hex_of(state, event.data["unit"]) + ([tuple(to)] if to is not None else [])


@rules.hexes("UnitCreated")
def _created_hexes(event, state):
    return [tuple(event.data["unit"]["hex"])] if event.data["unit"].get("hex") else None


@rules.hexes("UnitFlipped", "UnitFactorsChanged")
def _unit_hexes(event, state):
    return _hex_of(state, event.data["unit"])


@rules.describe("UnitMoved")
def _say_moved(event, state):
    d = event.data
    if d["to_hex"] is None and d["to_where"] == "map":  # on the map but on no hex: into a sea box
        return f"{event.actor}: {_unit_name(state, d['unit'])} goes to sea"
    dest = tuple(d["to_hex"]) if d["to_hex"] is not None else d["to_where"]
    return f"{event.actor}: {_unit_name(state, d['unit'])} moves to {dest}"


@rules.describe("UnitFlipped")
def _say_flipped(event, state):
    d = event.data
    unit = units(state).units.get(d["unit"])
    how = "reorganized (face up)" if d["face_up"] else "disorganized (face down)"
    return f"{unit.power if unit else event.actor}: {_unit_name(state, d['unit'])} {how}"


@rules.describe("UnitCreated")
def _say_created(event, state):
    unit = event.data["unit"]
    return f"{unit['power']}: {unit.get('name') or unit['type']} enters play"


rules.export(globals())
