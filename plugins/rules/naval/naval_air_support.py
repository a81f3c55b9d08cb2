"""Naval Air Support: land-based air units fly into the sea area of a naval combat.

Seeds, "Naval Air Support by Initiating Side" (L12154-12161): "In this subphase the major powers
on the initiating side can fly land based air units into the sea area in support of the current
naval combat.  As 'interceptors' these units have only half their normal range.  Once all major
powers on the initiating side have clicked on the End of Phase button ... MWIF advances the
sequence of play to the subphase Naval Air Support by the Non-Initiating Side"; "Naval Air
Support by Non-Initiating Side" (L12167-12170): "the same ... for the major powers on the
non-initiating side".  Which section it reaches: "Sea Box Section" (naval_air.highest_section,
the range left after the hexes to the area's first all-sea hex).  "Surprise Points": "all
carrier planes and aircraft units are still treated as having flown a mission. So ... must
return to base where they become disorganized".

So a supporting aircraft is an aircraft at sea in the combat's area (``AirUnitsFlewToSea``):
it searches with its side, is included, and flies in a naval air combat like any aircraft at
sea (naval_air_combat.combat_planes).  Authored: half range rounded down; who may fly is who
may fly to sea in the Naval Air phase (an organized land-based aircraft with an air-to-sea
factor, or a fighter; naval_air.can_fly_to_sea), once a combat; no action or air mission limit
is counted; when the combat is over, the supporting aircraft still at sea fly back to the hex
they came from, disorganized (naval_air.fly_home: destroyed if that hex is no longer their
side's).
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command, EventData
from plugins.rules.units import UnitFlipped, UnitMoved, units

from .events import AirUnitsFlewToSea
from .naval_air import can_fly_to_sea, fly_home, hexes_to_sea, highest_section
from .naval_combat import ROUND, other
from .naval_units import label
from .sea_box_section import area_name, sections_of
from .state import naval, rules, this_impulse

RULE = "Naval Air Support"
SUPPORT_STEPS = {f"{ROUND}.naval-air-support-is": "is", f"{ROUND}.naval-air-support-nis": "nis"}


@rules.event
class NavalAirSupportFlew(EventData):
    """``unit`` flew naval air support into the sea area of the current naval combat."""

    unit: str


@rules.reducer("NavalAirSupportFlew")
def _flew(state, event):
    c = naval(state).combat
    if event.data["unit"] not in c.air_support:
        c.air_support.append(event.data["unit"])


@rules.describe("NavalAirSupportFlew")
def _describe(event, state):
    return f"{label(state, event.data['unit'])} flies naval air support"


class FlyNavalAirSupport(Command):
    unit: str
    section: int


def support_side(state, step_id: str) -> str | None:
    """The side that flies support at ``step_id`` (a Naval Air Support step), if a combat is on."""
    c = naval(state).combat
    who = SUPPORT_STEPS.get(step_id)
    if c is None or c.over or who is None:
        return None
    return c.initiator if who == "is" else other(state, c.initiator)


def support_range(unit) -> int:
    """"As 'interceptors' these units have only half their normal range" (rounded down)."""
    return int(unit.factors.get("range", 0)) // 2


def top_section(state, unit) -> int | None:
    """The highest section of the combat's area ``unit`` reaches with half its range."""
    return highest_section(support_range(unit) - hexes_to_sea(unit.hex, naval(state).combat.area))


def flyers(state, power: str) -> list:
    """``power``'s aircraft that can fly support to the current combat now."""
    c = naval(state).combat
    return [u for u in sorted(units(state).units.values(), key=lambda u: u.id)
            if u.power == power and can_fly_to_sea(u) and u.id not in c.air_support and top_section(state, u) is not None]


def why_not_support(state, power: str, unit_id: str, section: int) -> str | None:
    step = state.kernel.sequence.current or ""
    side = support_side(state, step)
    if side is None:
        return f"{RULE}: aircraft fly naval air support only in a naval combat's Naval Air Support steps"
    if state.kernel.side_of(power) != side:
        return f"{RULE}: this step is the other side's"
    u = units(state).units.get(unit_id)
    if u is None or u.power != power or not can_fly_to_sea(u):
        return f"{RULE}: {unit_id!r} is not an organized land-based aircraft of {power} on the map that can fly to sea"
    if unit_id in naval(state).combat.air_support:
        return f"{RULE}: {label(state, unit_id)} flies support to this combat already"
    area = naval(state).combat.area
    if section not in sections_of(area):
        return f"{RULE}: {area_name(area)} has no section {section}"
    top = top_section(state, u)
    if top is None:
        return f"{RULE}: {area_name(area)} is beyond half of {label(state, unit_id)}'s range ({support_range(u)})"
    if section > top:
        return (f"Sea Box Section: with half its range {label(state, unit_id)} reaches section {top} of "
                f"{area_name(area)} at most, not {section}")
    return None


def support_choices(state, actor, step_id):
    if support_side(state, step_id) != state.kernel.side_of(actor):
        return None
    mine = flyers(state, actor)
    if not mine:
        return None
    area = naval(state).combat.area
    return [Field("unit", "unit", [
        Option(u.id, label(state, u.id), [Field("section", "option", [
            Option(s, f"section {s}") for s in sections_of(area) if s <= top_section(state, u)])])
        for u in mine], label="aircraft")]


def support_preview(state, cmd: FlyNavalAirSupport) -> dict:
    problem = why_not_support(state, cmd.actor, cmd.unit, cmd.section)
    if problem:
        raise Rejected(problem)
    u = units(state).units[cmd.unit]
    area = naval(state).combat.area
    return {"unit": cmd.unit, "area": area_name(area), "section": cmd.section, "half_range": support_range(u),
            "range_to_sea": hexes_to_sea(u.hex, area), "returns": "to its base, disorganized, when the combat is over"}


@rules.command(FlyNavalAirSupport, choices=support_choices, preview=support_preview)
def fly_naval_air_support(ctx, cmd: FlyNavalAirSupport) -> None:
    problem = why_not_support(ctx.state, cmd.actor, cmd.unit, cmd.section)
    if problem:
        raise Rejected(problem)
    base = list(units(ctx.state).units[cmd.unit].hex)
    area = naval(ctx.state).combat.area
    ctx.emit(UnitMoved(unit=cmd.unit, to_hex=None, to_where="map"))  # at sea: in a sea box, on no hex
    turn, impulse = this_impulse(ctx.state)
    ctx.emit(AirUnitsFlewToSea(power=cmd.actor, units=[cmd.unit], bases={cmd.unit: base}, area=area,
                               section=cmd.section, turn=turn, impulse=impulse))
    ctx.emit(NavalAirSupportFlew(unit=cmd.unit))


def skip(state, step_id: str) -> str | None:
    side = support_side(state, step_id)
    if side is None:
        return None
    if not deciders(state, step_id):
        return f"{RULE}: no land-based aircraft of {side} can reach {area_name(naval(state).combat.area)} with half its range"
    return None


def deciders(state, step_id: str) -> list[str]:
    side = support_side(state, step_id)
    return [p for p in state.kernel.sides.get(side, []) if flyers(state, p)] if side else []


def return_support(ctx) -> None:
    """The combat is over: its supporting aircraft still at sea fly home, disorganized."""
    state = ctx.state
    c = naval(state).combat
    for uid in list(c.air_support):
        if uid not in naval(ctx.state).at_sea:
            continue  # destroyed, or gone home already (aborted)
        fly_home(ctx, uid)
        u = units(ctx.state).units[uid]
        if u.where == "map" and u.face_up:
            ctx.emit(UnitFlipped(unit=uid, face_up=False))
