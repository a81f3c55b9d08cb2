"""Weather Report, effects on terrain: the lake that thaws.

"Lake hexes are frozen in snow or blizzard.  Treat a frozen lake hex as clear.  Land and
aircraft units on a lake hex when it unfreezes are destroyed immediately."  A unit can only
stand on a lake hex while it is frozen, so after each weather roll every land or air unit on a
lake hex whose weather is no longer snow or blizzard is destroyed.

The rest of the section lives where it acts: frozen lakes, lake hexsides and swamps in
``movement.py`` (hex and hexside costs), supply ranges in supply, air factors and the
storm/blizzard mission ban in air, the odds shifts in combat.  Flying boats on a lake hexside
that freezes are an optional rule this edition does not offer; the Arctic's Swedish
resources and iced-in ports concern production and naval units.
"""

from __future__ import annotations

from kernel.events import EventData
from plugins.rules import core
from plugins.rules.units import UnitMoved

from .events import rules
from .movement import FROZEN, _terrain, effective_weather

WEATHER_STEP = "wif.turn.impulse.new-impulse.weather"


@rules.event
class UnitsLostOnThawedLake(EventData):
    """Weather Report: the lake hex ``hex`` unfroze under these land and air units."""

    hex: tuple[int, int]
    units: list[str]
    weather: str


def thawed_lake_losses(state) -> dict[tuple[int, int], list[str]]:
    """Lake hex -> the land and air units on it, where the lake is not frozen now."""
    out: dict[tuple[int, int], list[str]] = {}
    for unit in state["units"].units.values():
        if not unit.on_map or unit.branch == "naval" or _terrain(unit.hex) != "lake":
            continue
        if effective_weather(core.weather_in(state, unit.hex), "lake") not in FROZEN:
            out.setdefault(tuple(unit.hex), []).append(unit.id)
    return out


def destroy_on_thawed_lakes(ctx) -> None:
    """Weather Report: "destroyed immediately" when the lake unfreezes."""
    for hex_, lost in sorted(thawed_lake_losses(ctx.state).items()):
        ctx.emit(UnitsLostOnThawedLake(hex=hex_, units=sorted(lost), weather=core.weather_in(ctx.state, hex_)))
        for uid in sorted(lost):
            ctx.emit(UnitMoved(unit=uid, to_hex=None, to_where="eliminated"))


@rules.describe("UnitsLostOnThawedLake")
def _say_thawed(event, state):
    d = event.data
    return (f"Weather Report: the lake at {d['hex'][0]},{d['hex'][1]} thaws ({d['weather']}): "
            f"{', '.join(d['units'])} destroyed")
