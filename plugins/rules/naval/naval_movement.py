"""Naval Movement: moving a group of naval units from a port into a sea area, from a sea area
to a port, or from a section to a lower-numbered section of the same sea area.

Seeds: "Naval Movement" (L13538-13572, the version that governs): "all major powers on the
phasing side, that did not choose a Pass, Air, or Land action, can move naval units ...
(1) from a port into a sea area, (2) from a sea area to a port or (3) from a section box in a
sea area to a lower numbered section box in the same sea area ... naval units at sea can
never start the phase in one sea area and end the phase in a different sea area."
"Sea Box Section": one section for the whole moving stack; convoys only in the 0 section.
"Activity Limits": "each group of naval units that moves = 1 naval move".
Ships in Flames 3.2.1-3.2.2 (where the base text relies on it): range and movement allowance
(``speed``) each cost 1 per sea area and per port entered, +1 movement allowance when the
unit starts in a port holding naval units of another major power; placement in a section
whose search number is at most the unused movement allowance; a unit moving from sea has its
movement allowance reduced by its section's search number (4 Returning To Base); only
face-up units move, once per impulse; a unit that ends a naval move in a port turns face down.
"Embark/Debark Units": cargo moves with its transport and debarks at the end of the move in
a port.  Naval stacking (digest 1.2): 4 naval units per minor port (2 convoy points = 1).

Origins and destinations are written ``"col,row"`` for a port and ``"AREA:section"`` (origin)
or ``"AREA"`` (destination) for a sea area.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from kernel.choices import Field, Option, one_of
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules.core import hex_key, key_hex, world_map
from plugins.rules.turn.activities import action_problem, activity_problem, use_activity
from plugins.rules.units import UnitFlipped, UnitMoved, units

from .events import NavalGroupMoved, UnitsUnloaded
from .iced_in_ports import iced_in_move_problem
from .straits_and_canals import passage_problem
from .naval_units import aboard, friendly_port, is_carrier_air, is_convoy, is_sub, label, stacking_units
from .sea_box_section import (
    area_distances,
    area_name,
    areas_of_port,
    port_at,
    ports_of_area,
    search_number,
    sections_of,
)
from .state import NAVAL_MOVEMENT, data, naval, rules, this_impulse

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


def origin_label(origin: str) -> str:
    if ":" in origin:
        area, section = origin.split(":")
        return f"{area_name(area)} section {section}"
    port = port_at(key_hex(origin))
    return port.name if port else origin


def destination_label(to: str) -> str:
    if "," in to:
        port = port_at(key_hex(to))
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
    who = label(state, unit.id)
    if r is None:
        if ":" in origin and "," not in to:
            return f"{RULE}: naval units at sea never move to a different sea area ({who} is in {origin_label(origin)})"
        return f"{RULE}: no chain of sea areas leads from {origin_label(origin)} to {destination_label(to)}"
    rng = unit.factors.get("range", 0)
    speed = unit.factors.get("speed", 0) - _foreign_port_penalty(state, unit, origin, port_powers)
    if ":" in origin:
        speed -= search_number(int(origin.split(":")[1]))  # reduced for the section it occupies
    if r.range_cost > rng:
        return f"{RULE}: {who} has range {rng:g}; {destination_label(to)} is {r.range_cost} sea areas and ports away"
    closed = passage_problem(state, unit, origin, to, r.path, returning)
    if closed:
        return closed
    if "," in to:
        if r.ma_cost > speed:
            return (f"{RULE}: {who} has {max(speed, 0):g} movement points for this move; reaching "
                    f"{destination_label(to)} costs {r.ma_cost}")
        return None
    if section is None or section not in sections_of(to):
        return f"{RULE}: a move into {area_name(to)} must name a sea-box section ({sections_of(to).start}-{sections_of(to).stop - 1})"
    if ":" in origin:
        here = int(origin.split(":")[1])
        if section >= here:
            return f"{RULE}: at sea a unit moves only to a lower-numbered section of its sea area ({who} is in section {here})"
        return None
    if is_convoy(unit) and section != 0:
        return f"Sea Box Section: convoys \"can only be placed in the zero section box\" ({who})"
    left = speed - r.ma_cost
    if left < 0:
        return f"{RULE}: {who} has {max(speed, 0):g} movement points; {area_name(to)} is {r.ma_cost} sea areas away"
    if search_number(section) > left:
        return (f"{RULE}: {who} has {left:g} movement points left in {area_name(to)}, so it may be placed in a "
                f"section whose search number is at most {left:g}, not section {section}")
    return None


def closed_area_problem(state, host, origin: str, to: str) -> str | None:
    """A sea area on the way that the game closes (the ``sea_area_refusal`` hook: a
    scenario's partial map), or None."""
    if host is None:
        return None
    r = route(origin, to)
    for area in (r.path if r else []):
        reason = host.pm.hook.sea_area_refusal(state=state, area=area)
        if reason:
            return reason
    return None


def why_not_move(state, power: str, origin: str, to: str, section: int | None, unit_ids: list[str],
                 host=None) -> str | None:
    """Why ``power`` may not move ``unit_ids`` as one group from ``origin`` to ``to``, or None."""
    problem = action_problem(state, power, NAVAL_MOVEMENT) or activity_problem(state, power, "naval-move")
    if problem:
        return problem
    if not unit_ids:
        return f"{RULE}: no unit named"
    if len(set(unit_ids)) != len(unit_ids):
        return f"{RULE}: a unit is named twice"
    if "," in to:
        try:
            port_hex = key_hex(to)
        except ValueError:
            return f"{RULE}: {to!r} is neither a sea area nor a port hex"
        if port_at(port_hex) is None:
            return f"{RULE}: {port_hex} is not a port"
        if not friendly_port(state, power, port_hex):
            return f"{RULE}: {destination_label(to)} is not a port of {power}'s side"
    elif to not in world_map().sea_areas:
        return f"{RULE}: {to!r} is neither a sea area nor a port hex"
    problem = iced_in_move_problem(state, origin, to)
    if problem:
        return problem
    all_units = units(state).units
    now = this_impulse(state)
    for uid in unit_ids:
        u = all_units.get(uid)
        if u is None or u.branch != "naval" or u.where != "map":
            return f"{RULE}: {uid!r} is not a naval unit in play"
        if u.power != power:
            return f"{RULE}: {label(state, uid)} is not {power}'s"
        if origin_of(state, u) != origin:
            return f"{RULE}: a group starts together; {label(state, uid)} is not in {origin_label(origin)}"
        if not u.face_up:
            return f"{RULE}: only face-up (organized) units move; {label(state, uid)} is face down"
        if naval(state).moved.get(uid) == now:
            return f"{RULE}: each naval unit makes only 1 naval move per impulse; {label(state, uid)} has moved"
        problem = unit_problem(state, u, origin, to, section)
        if problem:
            return problem
    if "," in to:
        problem = port_room_problem(state, key_hex(to), [all_units[u] for u in unit_ids])
        if problem:
            return problem
    return closed_area_problem(state, host, origin, to)


def port_room_problem(state, port_hex, arriving) -> str | None:
    port = port_at(port_hex)
    if port is None or port.port != "minor":
        return None
    limit = data()["minor_port_naval_units"]
    coming = {u.id for u in arriving}
    present = sum(stacking_units(u) for u in units(state).in_hex(port_hex) if u.branch == "naval"
                  and u.id not in naval(state).at_sea and u.id not in coming)
    total = present + sum(stacking_units(u) for u in arriving)
    if total > limit:
        return f"Naval stacking: a minor port holds {limit} naval units (2 convoy points = 1); {port.name} would hold {total:g}"
    return None


# ---------------------------------------------------------------- the command
class MoveNavalGroup(Command):
    origin: str  # "col,row" (a port) or "AREA:section"
    to: str  # "col,row" (a port) or "AREA"
    section: int | None = None  # the sea-box section, for a sea area
    units: list[str]


def _movable(state, power: str) -> dict[str, list]:
    """Origins -> the power's naval units there that may move this impulse."""
    now = this_impulse(state)
    out: dict[str, list] = {}
    for u in units(state).units.values():
        if u.branch != "naval" or u.power != power or u.where != "map" or not u.face_up:
            continue
        if naval(state).moved.get(u.id) == now:
            continue
        origin = origin_of(state, u)
        if origin is not None and not iced_in_move_problem(state, origin, origin):
            out.setdefault(origin, []).append(u)
    return out


def _destinations(state, power: str, origin: str, group: list, host=None) -> list[str]:
    if ":" in origin:
        area, _ = origin.split(":")
        targets = [area] + [hex_key(p.hex) for p in _ports_near(area)]
    else:
        reach = max(u.factors.get("range", 0) for u in group)
        near = {a for s in areas_of_port(key_hex(origin)) for a, d in area_distances(s).items() if d < reach}
        targets = sorted(near) + sorted({hex_key(p.hex) for a in near for p in _ports_of(a)} - {origin})
    out = []
    powers = naval_powers_in_port(state, origin)
    for to in targets:
        if "," in to and (not friendly_port(state, power, key_hex(to)) or iced_in_move_problem(state, to, to)):
            continue
        if closed_area_problem(state, host, origin, to):
            continue
        sections = list(sections_of(to)) if "," not in to else [None]
        if any(unit_problem(state, u, origin, to, s, powers) is None for u in group for s in sections):
            out.append(to)
    return out


def _ports_of(area: str):
    return ports_of_area(area)


def _ports_near(area: str):
    return [p for a in area_distances(area) for p in _ports_of(a)]


def _section_fields(state, power, origin, to, group):
    sections = list(sections_of(to)) if "," not in to else [None]
    powers = naval_powers_in_port(state, origin)
    out = []
    for s in sections:
        fit = [u for u in group if unit_problem(state, u, origin, to, s, powers) is None]
        if "," in to:
            fit = _fitting_port(state, key_hex(to), fit)
        if not fit:
            continue
        most = _most_at_once(state, to, fit)
        units_field = Field("units", "units", [Option(u.id, label(state, u.id)) for u in fit], min=1, max=most)
        out.append(Option(s, "port" if s is None else f"section {s}", [units_field]))
    return [Field("section", "option", out)] if out else []


def _fitting_port(state, port_hex, fit):
    return fit if port_room_problem(state, port_hex, fit[:1]) is None else []


def _most_at_once(state, to: str, fit) -> int | None:
    """The most units of ``fit`` any choice of which fits a minor port (None: no limit)."""
    if "," not in to:
        return None
    port = port_at(key_hex(to))
    if port is None or port.port != "minor":
        return None
    limit = data()["minor_port_naval_units"]
    present = sum(stacking_units(u) for u in units(state).in_hex(key_hex(to)) if u.branch == "naval"
                  and u.id not in naval(state).at_sea)
    sizes = sorted((stacking_units(u) for u in fit), reverse=True)
    total, n = present, 0
    for s in sizes:
        if total + s > limit:
            break
        total += s
        n += 1
    return max(n, 1)


def move_choices(state, actor, step_id, host=None):
    if why_not_move_now(state, actor):
        return None
    movable = _movable(state, actor)
    if not movable:
        return None
    origins = []
    for origin, group in sorted(movable.items()):
        def dests(origin=origin, group=group):
            return [Option(to, destination_label(to),
                           (lambda to=to: _section_fields(state, actor, origin, to, group)))
                    for to in _destinations(state, actor, origin, group, host)]
        origins.append(Option(origin, origin_label(origin), [Field("to", "option", dests)]))
    return [Field("origin", "option", origins)]


def why_not_move_now(state, power: str) -> str | None:
    return action_problem(state, power, NAVAL_MOVEMENT) or activity_problem(state, power, "naval-move")


def move_preview(state, cmd: MoveNavalGroup, host=None):
    problem = why_not_move(state, cmd.actor, cmd.origin, cmd.to, cmd.section, cmd.units, host)
    if problem:
        raise Rejected(problem)
    r = route(cmd.origin, cmd.to)
    return {"path": [area_name(a) for a in r.path], "range_used": r.range_cost, "movement_used": r.ma_cost,
            "to": destination_label(cmd.to), "section": cmd.section, "naval_moves": 1,
            "ends_in_port": "," in cmd.to}


@rules.command(MoveNavalGroup, choices=move_choices, preview=move_preview)
def move_naval_group(ctx, cmd: MoveNavalGroup) -> None:
    problem = why_not_move(ctx.state, cmd.actor, cmd.origin, cmd.to, cmd.section, cmd.units, ctx.host)
    if problem:
        raise Rejected(problem)
    use_activity(ctx, cmd.actor, "naval-move")
    # the move may be intercepted in each sea area it enters (naval_interception builds on
    # this module, so it is imported here)
    from .naval_interception import advance

    path = list(route(cmd.origin, cmd.to).path)
    advance(ctx, cmd.actor, cmd.units, cmd.origin, cmd.to, cmd.section, path, 0)


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
