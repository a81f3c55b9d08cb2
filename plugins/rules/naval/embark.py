"""What may go aboard what: transport capacity and carrier air units on carriers.

Seeds: "Embark/Debark Units" (L1775-1849): "an organized TRS may carry, when it moves, one
of: 1 land unit; 1 aircraft; 1 V-weapon; 2 divisions and/or artillery; 1 frogman; 1 supply
unit"; "Only organized units may embark".  "Carrier Classes" (L1089-1129): "Up to 2 carrier
air units per carrier, with the sum of their sizes <= the carrier's class"; a carrier air unit
fits a CV if its class <= the CV's class.  Ships in Flames 2: "A CV can carry only planes of
its own major power".
"""

from __future__ import annotations

from plugins.rules.units import units

from .naval_units import aboard, is_carrier_air, kind, label

SMALL_CARGO_SIZES = ("division",)
SMALL_CARGO_TYPES = ("art", "artillery")


def _small(unit) -> bool:
    return unit.size in SMALL_CARGO_SIZES or unit.type in SMALL_CARGO_TYPES


def carrier_air_problem(state, ship_id: str, plane_ids: list[str]) -> str | None:
    """Why these carrier air units may not be aboard the carrier ``ship_id`` (with those
    already aboard), or None."""
    all_units = units(state).units
    ship = all_units[ship_id]
    planes = [all_units[p] for p in dict.fromkeys(aboard(state, ship_id) + list(plane_ids))]
    for p in planes:
        if not is_carrier_air(p):
            return f"Carrier Classes: {label(state, p.id)} is not a carrier air unit, so it cannot be aboard a carrier"
        if p.power != ship.power:
            return f"Carrier Classes: {label(state, p.id)} is not {ship.power}'s; a CV carries only its own major power's planes"
    if len(planes) > 2:
        return f"Carrier Classes: at most 2 carrier air units per carrier ({label(state, ship_id)} would carry {len(planes)})"
    total = sum(p.factors.get("class", 1) for p in planes)
    if total > ship.factors.get("class", 0):
        return (f"Carrier Classes: the carrier air units' classes add up to {total:g}, more than "
                f"{label(state, ship_id)}'s class {ship.factors.get('class', 0):g}")
    return None


def cargo_problem(state, ship_id: str, cargo_ids: list[str]) -> str | None:
    """Why ``cargo_ids`` may not be aboard the ship ``ship_id`` (with what is aboard), or None."""
    all_units = units(state).units
    ship = all_units.get(ship_id)
    if ship is None or ship.branch != "naval":
        return f"Embark/Debark Units: {ship_id!r} is not a naval unit"
    for c in cargo_ids:
        if c not in all_units:
            return f"Embark/Debark Units: no unit {c!r}"
    if kind(ship) == "carrier":
        return carrier_air_problem(state, ship_id, cargo_ids)
    if kind(ship) != "transport":
        return f"Embark/Debark Units: {label(state, ship_id)} is not a transport (TRS or AMPH) and carries nothing"
    load = [all_units[c] for c in dict.fromkeys(aboard(state, ship_id) + list(cargo_ids))]
    for c in load:
        if c.branch == "naval" or is_carrier_air(c):
            return f"Embark/Debark Units: a transport carries land or air units, not {label(state, c.id)}"
        if c.power != ship.power and state.kernel.side_of(c.power) != state.kernel.side_of(ship.power):
            return f"Embark/Debark Units: {label(state, c.id)} is not of {ship.power}'s side"
    if len(load) == 1 or (len(load) == 2 and all(c.branch == "land" and _small(c) for c in load)):
        return None
    return (f"Embark/Debark Units: a TRS carries 1 land unit, 1 aircraft or 2 divisions and/or "
            f"artillery; {label(state, ship_id)} would carry {len(load)} units")
