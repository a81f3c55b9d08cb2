"""Naval Movement: moving a group of naval units from a port into a sea area, from a sea area
to a port, or from a section to a lower-numbered section of the same sea area: the command,
its checks for the whole group and its choices.

Seeds: "Naval Movement" (L13538-13572, the version that governs): "all major powers on the
phasing side, that did not choose a Pass, Air, or Land action, can move naval units ...
(1) from a port into a sea area, (2) from a sea area to a port or (3) from a section box in a
sea area to a lower numbered section box in the same sea area".
"Sea Box Section": one section for the whole moving stack.
"Activity Limits": "each group of naval units that moves = 1 naval move".
Ships in Flames 3.2.1 "Naval Movement" (where the base text relies on it): a group starts in
one port or section; "Each naval unit and aircraft unit can only make 1 naval movement in an
impulse"; only face-up units move (3.2.2).  What one unit's range and movement allowance
allow, and recording the move: naval_movement_moving_naval_units.py (3.2.2).
Naval stacking (digest 1.2; seeds "Convoy/Tanker Points"): "Up to 4 naval units can stack
together in a minor port and every 2 convoy points ... counts as a naval unit".

Origins and destinations are written ``"col,row"`` for a port and ``"AREA:section"`` (origin)
or ``"AREA"`` (destination) for a sea area.
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules.core import hex_key, key_hex, world_map
from plugins.rules.turn.activities import action_problem, activity_problem, use_activity
from plugins.rules.units import units

from .iced_in_ports import iced_in_move_problem
from .naval_movement_moving_naval_units import (  # noqa: F401 - re-exported: return to base, the abort queue, tests
    closed_area_problem,
    destination_label,
    highest_section,
    naval_powers_in_port,
    origin_label,
    origin_of,
    origin_problem,
    perform_move,
    port_of_key,
    route,
    unit_problem,
)
from .naval_units import friendly_port, label, stacking_units
from .sea_box_section import area_distances, area_name, areas_of_port, port_at, ports_of_area, sections_of
from .state import NAVAL_MOVEMENT, data, naval, rules, this_impulse

RULE = "Naval Movement"


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
    problem = origin_problem(origin)
    if problem:
        return problem
    if "," in to:
        try:
            port_hex = key_hex(to)
        except ValueError:
            return f"{RULE}: {to!r} is neither a sea area nor a port hex"
        if port_of_key(to) is None:
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


def _destinations(state, power: str, origin: str, group: list, host=None, asked: dict | None = None) -> list[str]:
    """Where some unit of ``group`` may go from ``origin``; ``asked``: answers that hold for the
    whole state (friendly ports, closed sea areas), shared by the caller's origins."""
    asked = {} if asked is None else asked
    ports, refusals = asked.setdefault("ports", {}), asked.setdefault("refusals", {})
    reach = max(u.factors.get("range", 0) for u in group)
    if ":" in origin:
        area, _ = origin.split(":")
        targets = [area] + [hex_key(p.hex) for p in _ports_near(area)]
    else:
        near = {a for s in areas_of_port(key_hex(origin)) for a, d in area_distances(s).items() if d < reach}
        targets = sorted(near) + sorted({hex_key(p.hex) for a in near for p in _ports_of(a)} - {origin})
    out = []
    powers = naval_powers_in_port(state, origin)
    for to in targets:
        r = route(origin, to)
        if r is None or r.range_cost > reach:
            continue  # beyond every unit's range: unit_problem refuses it for each
        if "," in to:
            if to not in ports:
                ports[to] = friendly_port(state, power, key_hex(to)) and not iced_in_move_problem(state, to, to)
            if not ports[to]:
                continue
        if closed_area_problem(state, host, origin, to, refusals):
            continue
        if "," in to:  # a port offered only where some unit of the group may go and has room
            port_hex = key_hex(to)
            if any(unit_problem(state, u, origin, to, None, powers) is None
                   and port_room_problem(state, port_hex, [u]) is None for u in group):
                out.append(to)
        elif any(highest_section(state, u, origin, to, powers) is not None for u in group):
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
    """The units of ``fit`` each of which has room in the port (Naval stacking)."""
    return [u for u in fit if port_room_problem(state, port_hex, [u]) is None]


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
    asked: dict = {}  # friendly ports and closed sea areas, the same for every origin
    for origin, group in sorted(movable.items()):
        def dests(origin=origin, group=group):
            return [Option(to, destination_label(to),
                           (lambda to=to: _section_fields(state, actor, origin, to, group)))
                    for to in _destinations(state, actor, origin, group, host, asked)]
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
