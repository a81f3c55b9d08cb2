"""Naval Air: air units fly into sea areas, where they search, intercept and join naval combat.

Seeds: "Naval Air" (L10311-10329): "all major powers on the phasing side that did not choose a
Pass action can move air units into sea areas ... the presence of units in sea areas enable
the owning major power to intercept enemy naval movement through the sea area.  Also ...
players can elect to attempt to initiate combat in sea areas where the phasing side moved air
units"; they "(1) can not be intercepted while flying out to sea, (2) ... stay at sea, and
(3) they remain organized while at sea".  "Sea Box Section" (L6350-6402): "their range is
reduced by the number of hexes they moved to reach the first all sea hex in the sea area.  The
unused portion of their range dictates which section boxes they can choose: 0 range remaining
=> 0 section. 1 => 0 or 1. 3 => 0, 1, or 2. 6 => 0, 1, 2, or 3. 10 => any section."
"Naval Combat Included Units and Naval Combat Type": "+1 to a section's search number ... if
the section holds a NAV" (a naval air unit: an aircraft with an air-to-sea factor here).
Authored: the 2, 4-5 and 7-9 ranges left take the next lower threshold (digest 13); an air unit
flies to sea once per impulse; at the end of the turn an air unit at sea that does not stay
returns to the hex it flew from (destroyed if that hex is no longer its side's); "Naval Air"
is not an air mission, so it counts against no activity limit.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import cache, lru_cache

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.turn.activities import action_problem
from plugins.rules.units import UnitMoved, units

from .events import AirUnitsFlewToSea, NavalUnitLost
from .naval_units import is_carrier_air, label
from .sea_box_section import area_name, sections_of
from .state import IMPULSE, naval, rules, this_impulse

NAVAL_AIR = f"{IMPULSE}.naval.naval-air"
RULE = "Naval Air"
THRESHOLDS = ((10, 4), (6, 3), (3, 2), (1, 1), (0, 0))  # range left -> highest section


def highest_section(range_left: int) -> int | None:
    for need, section in THRESHOLDS:
        if range_left >= need:
            return section
    return None


@cache
def _all_sea(area: str) -> tuple:
    m = core.world_map()
    return tuple(h for h in m.hexes_of_sea_area(area) if m.is_all_sea(h)) or tuple(m.hexes_of_sea_area(area))


def hexes_to_sea(hex_, area: str) -> int:
    """Hexes from ``hex_`` to the first all-sea hex of ``area``."""
    return _hexes_to_sea(tuple(hex_), area)


@lru_cache(maxsize=200_000)
def _hexes_to_sea(hex_: tuple[int, int], area: str) -> int:
    # The map is read-only: each (hex, area) is measured once.  The same minimum as
    # grid.distance over every all-sea hex, with the rows searched nearest first: a hex
    # ``dr`` rows away is at least ``dr`` hexes away, so farther rows are skipped once a
    # hex that near is found.
    # Within a row ``dr`` away the distance to column ``x`` (a hex's axial q, shifted across
    # the wrap) falls to ``abs(dr)`` for x in [q - max(0, dr), q - min(0, dr)] and rises on
    # either side, so only the nearest column at or left of that stretch and the nearest at or
    # right of it can be closest.
    grid = core.world_map().grid
    q, r = grid.to_axial(grid.normalize(hex_))
    shifts = (-grid.cols, 0, grid.cols) if grid.wrap else (0,)
    best = None
    for row, qs in sorted(_all_sea_rows(area).items(), key=lambda item: (abs(item[0] - r), item[0])):
        dr = row - r
        if best is not None and abs(dr) >= best:
            break
        for shift in shifts:
            low, high = q - max(0, dr) - shift, q - min(0, dr) - shift
            i, j = bisect_right(qs, high) - 1, bisect_left(qs, low)
            for k in (i, j):
                if 0 <= k < len(qs):
                    dq = q - qs[k] - shift
                    d = (abs(dq) + abs(dr) + abs(dq - dr)) // 2
                    if best is None or d < best:
                        best = d
    if best is None:
        raise ValueError(f"{RULE}: sea area {area!r} has no hexes on the map")
    return best


@cache
def _all_sea_rows(area: str) -> dict[int, tuple[int, ...]]:
    """The all-sea hexes of ``area`` (``_all_sea``) in axial coordinates: row -> sorted columns."""
    grid = core.world_map().grid
    rows: dict[int, list[int]] = {}
    for h in _all_sea(area):
        qb, rb = grid.to_axial(grid.normalize(h))
        rows.setdefault(rb, []).append(qb)
    return {row: tuple(sorted(qs)) for row, qs in rows.items()}


@cache
def _row_span(area: str) -> tuple[int, int]:
    """The first and last map rows of ``area``'s all-sea hexes (``_all_sea``)."""
    rows = _all_sea_rows(area)
    return min(rows), max(rows)


def can_fly_to_sea(unit) -> bool:
    return (unit.branch == "air" and not is_carrier_air(unit) and unit.on_map and unit.face_up
            and (unit.factors.get("naval", 0) > 0 or unit.type == "ftr"))


class FlyToSeaArea(Command):
    unit: str
    area: str
    section: int


def why_not_fly(state, power: str, uid: str, area: str, section: int) -> str | None:
    problem = action_problem(state, power, NAVAL_AIR)
    if problem:
        return problem
    if area not in core.world_map().sea_areas:
        return f"{RULE}: {area!r} is not a sea area"
    if section not in sections_of(area):
        return f"{RULE}: {area_name(area)} has no section {section}"
    u = units(state).units.get(uid)
    if u is None or u.power != power or not can_fly_to_sea(u):
        return f"{RULE}: {uid!r} is not an organized aircraft of {power} on the map that can fly to sea"
    if naval(state).moved.get(uid) == this_impulse(state):
        return f"{RULE}: {label(state, uid)} has flown to sea this impulse"
    left = int(u.factors.get("range", 0)) - hexes_to_sea(u.hex, area)
    top = highest_section(left)
    if top is None:
        return f"{RULE}: {area_name(area)} is beyond {label(state, uid)}'s range"
    if section > top:
        return (f"Sea Box Section: {label(state, uid)} has {left} range left in {area_name(area)}, "
                f"which reaches section {top} at most, not {section}")
    return None


def _areas_for(u) -> list[Option]:
    out = []
    reach_ = int(u.factors.get("range", 0))
    row = core.world_map().grid.normalize(tuple(u.hex))[1]
    for area in sorted(core.world_map().sea_areas):
        low, high = _row_span(area)
        if max(low - row, row - high) > reach_:
            continue  # a hex ``dr`` rows away is at least ``dr`` hexes away: out of range
        top = highest_section(reach_ - hexes_to_sea(u.hex, area))
        if top is not None:
            out.append(Option(area, area_name(area), [Field("section", "option", [
                Option(s, f"section {s}") for s in sections_of(area) if s <= top])]))
    return out


def fly_choices(state, actor, step_id):
    if action_problem(state, actor, NAVAL_AIR):
        return None
    flyers = [u for u in units(state).units.values() if u.power == actor and can_fly_to_sea(u)
              and naval(state).moved.get(u.id) != this_impulse(state)]
    if not flyers:
        return None
    return [Field("unit", "unit", [Option(u.id, label(state, u.id), (lambda u=u: [Field("area", "option", _areas_for(u))]))
                                   for u in flyers])]


def fly_preview(state, cmd: FlyToSeaArea):
    problem = why_not_fly(state, cmd.actor, cmd.unit, cmd.area, cmd.section)
    if problem:
        raise Rejected(problem)
    return {"area": area_name(cmd.area), "section": cmd.section, "air_missions": 0,
            "range_to_sea": hexes_to_sea(units(state).units[cmd.unit].hex, cmd.area)}


@rules.command(FlyToSeaArea, choices=fly_choices, preview=fly_preview)
def fly_to_sea_area(ctx, cmd: FlyToSeaArea) -> None:
    problem = why_not_fly(ctx.state, cmd.actor, cmd.unit, cmd.area, cmd.section)
    if problem:
        raise Rejected(problem)
    base = list(units(ctx.state).units[cmd.unit].hex)
    ctx.emit(UnitMoved(unit=cmd.unit, to_hex=None, to_where="map"))  # at sea: in a sea box, on no hex
    turn, impulse = this_impulse(ctx.state)
    ctx.emit(AirUnitsFlewToSea(power=cmd.actor, units=[cmd.unit], bases={cmd.unit: base}, area=cmd.area,
                               section=cmd.section, turn=turn, impulse=impulse))


def naval_air_skip(state, step_id: str) -> str | None:
    if step_id != NAVAL_AIR:
        return None
    phasing = state.kernel.sides.get(state.kernel.active_side, [])
    if any(u.power in phasing and can_fly_to_sea(u) for u in units(state).units.values()):
        return None
    return f"{RULE}: no phasing power has an organized aircraft with an air-to-sea factor, or a fighter, on the map"


def fly_home(ctx, uid: str) -> None:
    """An air unit at sea returns to the hex it flew from; destroyed if that is no longer its
    side's (authored)."""
    state = ctx.state
    u = units(state).units[uid]
    base = naval(state).air_bases.get(uid)
    owner = core.hex_controller(state, base) if base else None
    ctx.emit(NavalUnitLost(unit=uid))
    if base is None or owner is None or core.side_of(state, owner) != core.side_of(state, u.power):
        ctx.emit(UnitMoved(unit=uid, to_hex=None, to_where="eliminated"))
    else:
        ctx.emit(UnitMoved(unit=uid, to_hex=tuple(base), to_where="map"))


def return_air_from_sea(ctx, powers) -> None:
    """End of turn: air units at sea that do not stay fly back to the hex they came from."""
    state = ctx.state
    for uid in sorted(naval(state).at_sea):
        u = units(state).units[uid]
        if u.branch == "air" and u.power in powers and naval(state).moved.get(uid) != [state.kernel.turn, -1]:
            fly_home(ctx, uid)
