"""What a player reads: names of powers, places and units in event texts and choice labels."""

from __future__ import annotations

from plugins.rules import core

from plugins.rules.core.names import POWER_NAMES, power_name  # noqa: F401 (one home; re-exported)


def place_name(hex_) -> str:
    city = core.world_map().city_at(tuple(hex_))
    return city.name if city else f"{hex_[0]},{hex_[1]}"


def hex_label(hex_) -> str:
    """The hex, its city if any, and its terrain: "Minsk (207,51, clear)"."""
    hex_ = tuple(hex_)
    m = core.world_map()
    city = m.city_at(hex_)
    where = f"{city.name} ({hex_[0]},{hex_[1]}, " if city else f"{hex_[0]},{hex_[1]} ("
    return f"{where}{m.terrain(hex_)})"


def unit_name(state, unit_id: str) -> str:
    unit = state["units"].units.get(unit_id)
    return (unit.name or unit.type) if unit else unit_id


def unit_label(unit) -> str:
    """A unit as a player reads it: "4th Panzer Army (arm, 204,52)"."""
    where = place_name(unit.hex) if unit.hex is not None else unit.where
    return f"{unit.name or unit.id} ({unit.type}, {where})"
