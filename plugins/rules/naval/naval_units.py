"""What a naval unit is: its class, its factors as damage changes them, where it is.

Seeds: "Naval Combat Results Table" (L9650-9700): "A damaged unit only has half its printed
attack, AA and ASW factors.  Its defense factor is 1 higher.  Its range and speed are not
affected."  "A ship is a naval unit, or 2 convoy points."  Ships in Flames 1: "A SCS is any
named naval unit except a CV" (and the transports); "Carrier Classes": a carrier air unit
fits a CV whose class is at least its own, at most 2 per carrier with their classes summing
to at most the CV's class.  "Embark/Debark Units" (L1775-1849): what a TRS carries.

The class table (data/naval.json ``classes``) says what each counter type is; every counter
carries its own factors: ``attack``, ``defense``, ``aa``, ``speed`` (movement allowance),
``range``; a convoy its ``points``; a CV and a carrier air unit their ``class``.
"""

from __future__ import annotations

import math

from plugins.rules import core
from plugins.rules.units import units

from .sea_box_section import area_name, port_at
from .state import data, naval

NAVAL_TYPES = tuple(data()["classes"])
CARRIER_AIR_TYPES = ("cvp", "carrier-air")


def kind(unit) -> str:
    """``carrier``, ``surface``, ``submarine``, ``transport`` or ``convoy``; ``aircraft`` for an
    air unit at sea (Naval Air)."""
    if unit.branch != "naval":
        return "aircraft"
    return data()["classes"][unit.type]["kind"]


def is_scs(unit) -> bool:
    """A surface combat ship (Ships in Flames 1): every named warship but a CV."""
    return kind(unit) == "surface"


def is_sub(unit) -> bool:
    return kind(unit) == "submarine"


def is_convoy(unit) -> bool:
    return kind(unit) == "convoy"


def is_carrier_air(unit) -> bool:
    return unit.branch == "air" and unit.type in CARRIER_AIR_TYPES


def naval_problem(unit_dict: dict) -> str | None:
    """Why a counter (as a scenario or the lab writes it) is not a naval unit this plugin
    knows, or None."""
    t = unit_dict.get("type")
    if unit_dict.get("branch") != "naval":
        return None
    if t not in data()["classes"]:
        return (f"naval unit {unit_dict.get('id')!r}: type {t!r} is not a naval class "
                f"({', '.join(NAVAL_TYPES)})")
    factors = unit_dict.get("factors") or {}
    need = ("points",) if t == "convoy" else ("attack", "defense", "aa", "speed", "range")
    missing = [f for f in need if f not in factors]
    if missing:
        return f"naval unit {unit_dict.get('id')!r} ({t}) has no {', '.join(missing)} factor"
    return None


def damaged(state, unit_id: str) -> bool:
    return unit_id in naval(state).damaged


def factor(state, unit, name: str) -> float:
    """A factor as it counts now: halved (rounded up) attack, AA and ASW and +1 defence when
    damaged."""
    value = unit.factors.get(name, 0)
    if damaged(state, unit.id):
        if name in ("attack", "aa", "asw"):
            return math.ceil(value / 2)
        if name == "defense":
            return value + 1
    return value


def asw(state, unit) -> float:
    """ASW factor (Naval Combat Results Table, submarine combat): 2 per SCS, 1 per CV; an
    aircraft 1 per air-to-sea factor."""
    if unit.branch != "naval":
        return unit.factors.get("naval", 0)
    base = data()["classes"][unit.type]["asw"]
    return math.ceil(base / 2) if damaged(state, unit.id) else base


def convoy_points(unit) -> int:
    return int(unit.factors.get("points", 0)) if is_convoy(unit) else 0


def ships_of(unit) -> int:
    """How many 'ships' a unit is for the combat chart: 1, or 1 per 2 convoy points (a spare 1 counts)."""
    if is_convoy(unit):
        return math.ceil(convoy_points(unit) / data()["convoy_points_per_ship"])
    return 1 if unit.branch == "naval" else 0


def stacking_units(unit) -> float:
    """Naval units for minor-port stacking: 1, or 1 per 2 convoy points."""
    if is_convoy(unit):
        return convoy_points(unit) / data()["convoy_points_per_naval_unit"]
    return 1


def naval_units(state, power: str | None = None) -> list:
    """Naval units in play (in port or at sea), of ``power`` if given."""
    return [u for u in units(state).units.values()
            if u.branch == "naval" and u.where == "map" and (power is None or u.power == power)]


def at_sea(state, unit_id: str):
    """The unit's SeaBox (area, section), or None in port."""
    return naval(state).at_sea.get(unit_id)


def in_port(state, unit) -> bool:
    return unit.on_map and unit.id not in naval(state).at_sea and port_at(unit.hex) is not None


def aboard(state, ship_id: str) -> list[str]:
    return list(naval(state).aboard.get(ship_id, []))


def carrier_of(state, unit_id: str) -> str | None:
    for ship, cargo in naval(state).aboard.items():
        if unit_id in cargo:
            return ship
    return None


def where_label(state, unit) -> str:
    box = at_sea(state, unit.id)
    if box is not None:
        return f"{area_name(box.area)} section {box.section}"
    port = port_at(unit.hex) if unit.hex is not None else None
    if port is not None:
        return port.name
    return unit.where if unit.hex is None else f"{unit.hex}"


def label(state, unit_id: str) -> str:
    u = units(state).units.get(unit_id)
    if u is None:
        return unit_id
    return f"{u.power} {u.name or u.type} ({unit_id})"


def friendly_port(state, power: str, hex_) -> bool:
    """A port controlled by ``power`` or a major power of its side."""
    if port_at(hex_) is None:
        return False
    owner = core.hex_controller(state, hex_)
    return owner is not None and (owner == power or core.side_of(state, owner) == core.side_of(state, power))


def at_war(state, a: str, b: str) -> bool:
    return core.enemies(state, a, b)
