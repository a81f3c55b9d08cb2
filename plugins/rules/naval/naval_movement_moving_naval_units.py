"""Moving Naval Units: where a naval unit is, the way it takes through adjacent sea areas, what
one unit's range and movement allowance let it do, and recording a move once it is checked.

Ships in Flames 3.2.2 "Moving Naval Units" (where the base text relies on it): "Each naval unit
has a range and a movement allowance"; 1 point of each "for each sea area and port it moves
into", 1 more of movement allowance "if it starts the impulse in a port with naval units of
another major power"; "When you move a unit out of a port, you must spend its first point to
move it into a surrounding sea area ... a naval unit can only move into a port from a
surrounding sea area"; the section a unit is put in has a search number at most its unused
movement allowance (Example 3); "Turn naval units face-down if they end a naval movement in a
port".  A unit moving from sea has its movement allowance reduced by its section's search
number (4 Returning To Base).  Seeds: "Naval Movement" (L13538-13572): "naval units at sea can
never start the phase in one sea area and end the phase in a different sea area"; "Sea Box
Section": convoys only in the 0 section.  "Embark/Debark Units": cargo moves with its
transport and debarks at the end of the move in a port.

Origins and destinations are written ``"col,row"`` for a port and ``"AREA:section"`` (origin)
or ``"AREA"`` (destination) for a sea area.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from plugins.rules.core import hex_key, key_hex, world_map
from plugins.rules.units import UnitFlipped, UnitMoved, units

from .events import NavalGroupMoved, UnitsUnloaded
from .naval_units import aboard, is_carrier_air, is_convoy, is_sub, label
from .sea_box_section import area_distances, area_name, areas_of_port, port_at, search_number, sections_of
from .state import naval, this_impulse
from .straits_and_canals import passage_problem

RULE = "Naval Movement"


@dataclass(frozen=True)
class Route:
    path: tuple[str, ...]  # sea areas entered
    range_cost: int  # areas and ports entered
    ma_cost: int  # movement allowance spent before placement (for a sea destination)


# ---------------------------------------------------------------- where a unit is
def origin_of(state, unit) -> str | None:
    """``"AREA:section"`` at sea, ``"col,row"`` in a port, None elsewhere."""
    box = naval(state).at_sea.get(unit.id)
    if box is not None:
        return f"{box.area}:{box.section}"
    if unit.on_map and port_at(unit.hex) is not None:
        return hex_key(unit.hex)
    return None


def port_of_key(key: str):
    """The port at the hex written ``key`` ("col,row"), or None: no port there, or not a hex of
    the map (bad input: off the map's rows, or not two numbers)."""
    try:
        return port_at(key_hex(key))
    except ValueError:  # kernel.hexgrid.HexGridError is a ValueError
        return None


def origin_problem(origin: str) -> str | None:
    """Why ``origin`` is neither a port hex "col,row" nor a sea box "AREA:section", or None."""
    area, colon, section = origin.partition(":")
    if colon:
        known = area in world_map().sea_areas and section.isdigit()
    else:
        known = port_of_key(origin) is not None
    if known:
        return None
    return f'{RULE}: origin {origin!r} is neither a port hex "col,row" nor a sea box "AREA:section"'


def origin_label(origin: str) -> str:
    area, colon, section = origin.partition(":")
    if colon:
        return f"{area_name(area)} section {section}"
    port = port_of_key(origin)
    return port.name if port else origin


def destination_label(to: str) -> str:
    if "," in to:
        port = port_of_key(to)
        return port.name if port else to
    return area_name(to)


# ---------------------------------------------------------------- routes
@cache
def route(origin: str, to: str) -> Route | None:
    """The shortest way from ``origin`` to ``to`` through adjacent sea areas, or None (the map
    is read-only, so each way is worked out once)."""
    if ":" in origin:
        area, _ = origin.split(":")
        if "," not in to:
            return Route((), 0, 0) if to == area else None  # never another sea area
        best = None
        for last in areas_of_port(key_hex(to)):
            d = area_distances(area).get(last)
            if d is not None and (best is None or d < best[0]):
                best = (d, last)
        if best is None:
            return None
        path = tuple(_path(area, best[1])[1:])
        return Route(path, len(path) + 1, len(path) + 1)
    starts = areas_of_port(key_hex(origin))
    if "," in to:
        targets = areas_of_port(key_hex(to))
        if to == origin or not targets:
            return None
    else:
        targets = (to,)
    best = None
    for a in starts:
        for b in targets:
            d = area_distances(a).get(b)
            if d is not None and (best is None or d < best[0]):
                best = (d, a, b)
    if best is None:
        return None
    path = tuple(_path(best[1], best[2]))
    cost = len(path) + (1 if "," in to else 0)
    return Route(path, cost, cost)


def _path(a: str, b: str) -> list[str]:
    """Areas from ``a`` to ``b`` inclusive along a shortest chain."""
    path = [b]
    while path[-1] != a:
        here = path[-1]
        d = area_distances(a)[here]
        path.append(next(n for n in sorted(world_map().sea_areas[here].adjacent)
                         if area_distances(a).get(n) == d - 1))
    return path[::-1]


def naval_powers_in_port(state, origin: str) -> frozenset:
    """The powers with naval units in the port ``origin`` (none for a sea box)."""
    if ":" in origin:
        return frozenset()
    return frozenset(o.power for o in units(state).in_hex(key_hex(origin)) if o.branch == "naval")


def _foreign_port_penalty(state, unit, origin: str, port_powers: frozenset | None = None) -> int:
    # Ships in Flames 3.2.2: +1 "if it starts the impulse in a port holding naval units of
    # another major power"
    if ":" in origin:
        return 0
    powers = naval_powers_in_port(state, origin) if port_powers is None else port_powers
    return 1 if powers - {unit.power} else 0


def unit_problem(state, unit, origin: str, to: str, section: int | None, port_powers: frozenset | None = None,
                 returning: bool = False) -> str | None:
    """Why ``unit`` may not make this move alone (range, movement allowance, section, a closed
    strait or canal), or None; ``port_powers``: the powers with naval units in the origin
    port, when the caller knows them; ``returning``: a return to base (or an abort to port)."""
    r = route(origin, to)
    if r is None:
        if ":" in origin and "," not in to:
            return f"{RULE}: naval units at sea never move to a different sea area ({label(state, unit.id)} is in {origin_label(origin)})"
        return f"{RULE}: no chain of sea areas leads from {origin_label(origin)} to {destination_label(to)}"
    rng = unit.factors.get("range", 0)
    speed = unit.factors.get("speed", 0) - _foreign_port_penalty(state, unit, origin, port_powers)
    if ":" in origin:
        speed -= search_number(int(origin.split(":")[1]))  # reduced for the section it occupies
    if r.range_cost > rng:
        return f"{RULE}: {label(state, unit.id)} has range {rng:g}; {destination_label(to)} is {r.range_cost} sea areas and ports away"
    closed = passage_problem(state, unit, origin, to, r.path, returning)
    if closed:
        return closed
    if "," in to:
        if r.ma_cost > speed:
            return (f"{RULE}: {label(state, unit.id)} has {max(speed, 0):g} movement points for this move; reaching "
                    f"{destination_label(to)} costs {r.ma_cost}")
        return None
    if section is None or section not in sections_of(to):
        return f"{RULE}: a move into {area_name(to)} must name a sea-box section ({sections_of(to).start}-{sections_of(to).stop - 1})"
    if ":" in origin:
        here = int(origin.split(":")[1])
        if section >= here:
            return f"{RULE}: at sea a unit moves only to a lower-numbered section of its sea area ({label(state, unit.id)} is in section {here})"
        return None
    if is_convoy(unit) and section != 0:
        return f"Sea Box Section: convoys \"can only be placed in the zero section box\" ({label(state, unit.id)})"
    left = speed - r.ma_cost
    if left < 0:
        return f"{RULE}: {label(state, unit.id)} has {max(speed, 0):g} movement points; {area_name(to)} is {r.ma_cost} sea areas away"
    if search_number(section) > left:
        return (f"{RULE}: {label(state, unit.id)} has {left:g} movement points left in {area_name(to)}, so it may be placed in a "
                f"section whose search number is at most {left:g}, not section {section}")
    return None


def highest_section(state, unit, origin: str, to: str, port_powers: frozenset | None = None) -> int | None:
    """The highest sea-box section of the sea area ``to`` that ``unit`` reaches moving alone from
    ``origin`` (``unit_problem``'s rule: range, movement allowance less the section's search
    number, straits and canals, convoys only in the 0 section), or None: no section at all.
    The sections a unit reaches run from 0 up to this one (search numbers grow with them)."""
    return next((s for s in reversed(sections_of(to))
                 if unit_problem(state, unit, origin, to, s, port_powers) is None), None)


def closed_area_problem(state, host, origin: str, to: str, refusals: dict | None = None) -> str | None:
    """A sea area on the way that the game closes (the ``sea_area_refusal`` hook: a
    scenario's partial map), or None; ``refusals``: each area's answer in this state, kept
    by a caller that asks about many moves."""
    if host is None:
        return None
    r = route(origin, to)
    for area in (r.path if r else []):
        if refusals is None:
            reason = host.pm.hook.sea_area_refusal(state=state, area=area)
        elif area in refusals:
            reason = refusals[area]
        else:
            reason = refusals[area] = host.pm.hook.sea_area_refusal(state=state, area=area)
        if reason:
            return reason
    return None


def perform_move(ctx, power: str, origin: str, to: str, section: int | None, unit_ids: list[str],
                 path: list[str] | None = None) -> None:
    """Record a checked move (``path``: the sea areas entered, default the shortest way): the
    units' hexes, their sea box or port, face down in port, cargo debarked in port (organized
    unless the transport started at sea)."""
    state = ctx.state
    path = list(route(origin, to).path if path is None else path)
    all_units = units(state).units
    turn, impulse = this_impulse(state)
    in_port = "," in to
    hex_ = key_hex(to) if in_port else None  # at sea a unit is in a sea box, on no hex
    for uid in unit_ids:
        if all_units[uid].hex != hex_:
            ctx.emit(UnitMoved(unit=uid, to_hex=hex_, to_where="map"))
    non_sub = any(not is_sub(all_units[u]) for u in unit_ids)
    ctx.emit(NavalGroupMoved(power=power, units=list(unit_ids), origin=origin, path=list(path),
                             area=None if in_port else to, section=None if in_port else section,
                             port_hex=hex_ if in_port else None, turn=turn, impulse=impulse,
                             counts_as_entry=non_sub and bool(path)))
    if not in_port:
        return
    for uid in unit_ids:
        # Ships in Flames 3.2.2: "A unit that ends a naval movement in a port turns face-down"
        if all_units[uid].face_up:
            ctx.emit(UnitFlipped(unit=uid, face_up=False))
        cargo = [c for c in aboard(state, uid) if not is_carrier_air(all_units[c])]
        if cargo:
            # Embark/Debark Units: "Debarking in port: automatic at the end of the TRS's naval
            # move; the cargo is disorganized if ... the TRS started the step at sea"
            for c in cargo:
                ctx.emit(UnitMoved(unit=c, to_hex=hex_, to_where="map"))
                if ":" in origin and all_units[c].face_up:
                    ctx.emit(UnitFlipped(unit=c, face_up=False))
            ctx.emit(UnitsUnloaded(ship=uid, units=cargo))
