"""Overseas supply paths: a supply path that goes by sea, through consecutive sea areas, to a
friendly port.  The supply plugin traces every path; this module tells its tracer where a path
may go overseas (``supply.trace.OVERSEAS_LINKS``).

Seeds: "Supply Sources and Paths", Overseas supply paths (L8442-8476): "Any part of a basic or
railway supply path can be traced overseas.  You may only trace supply overseas once for each
unit ... To trace a basic supply path overseas, the unit must be in a coastal hex or trace the
path via a port.  To trace a railway path overseas, the secondary source must be in a coastal
hex or trace the path via a port."  "The sea portion of a supply path does not count against
the maximum number of hexes permitted in the path.  The port hex into which you trace the
overseas supply path does count against your 4 hex limit.  However, it only counts as 1 hex".
"From the coastal hex or port, you trace the supply path via any number of consecutive sea
areas to a friendly controlled port which is a supply source itself or from which you can
continue the supply path overland to a supply source.  You cannot trace a supply path into a
sea area that contains: an enemy CV, SCS, or aircraft unit with an air-to-sea factor; unless it
also contains a surface naval unit, or aircraft unit with an air-to-sea factor which is
controlled by a major power or minor country at war with that enemy unit ... only a convoy,
TRS, or AMPH is needed."  "You can't trace a supply path between sea areas if one of your SCS
couldn't move between them" (straits_and_canals).  "You can't trace an overseas supply path
either out of, or into, an iced-in port ... if the weather in that hex is snow or blizzard"
(iced_in_ports).

"Once for each unit ... regardless of how many secondary/tertiary supply sources are used" is
the supply plugin's chain of sources (plugins/rules/supply/sources.py).  The sea areas a
scenario closes (Guadalcanal's partial map) stop a supply path as they stop a ship: the
scenario registers its ``sea_area_refusal`` with ``close_sea_areas_with`` too, since a supply
path is traced where no plugin host answers hooks (``in_supply(state, unit)``).

Authored: Limited Overseas Supply (an optional rule: a friendly convoy, TRS or AMPH in each
area) is not in this edition.
"""

from __future__ import annotations

from functools import cache

from plugins.rules import core
from plugins.rules.supply import trace
from plugins.rules.units import units

from .iced_in_ports import ICING_WEATHER, iced_in_problem
from .naval_units import is_scs, is_sub, kind
from .sea_box_section import areas_of_port, ports_of_area
from .state import naval
from .straits_and_canals import closed_between, passages


@cache
def _coast(area: str) -> tuple:
    return tuple(core.world_map().coast_of(area))


@cache
def _ports(area: str) -> tuple:
    return tuple(tuple(p.hex) for p in ports_of_area(area))


@cache
def _all_ports() -> tuple:
    return tuple(h for h in {tuple(p.hex) for area in core.world_map().sea_areas for p in ports_of_area(area)})


def _strikes(u) -> bool:
    """A unit that blocks the other side's supply: a CV, an SCS, an aircraft with an air-to-sea factor."""
    if u.branch == "air":
        return u.factors.get("naval", 0) > 0
    return kind(u) == "carrier" or is_scs(u)


def _covers(u) -> bool:
    """A unit that keeps supply open against it: a surface naval unit (a convoy, TRS or AMPH is
    enough) or an aircraft with an air-to-sea factor."""
    if u.branch == "air":
        return u.factors.get("naval", 0) > 0
    return u.branch == "naval" and not is_sub(u)


def blocked_areas(state, power: str) -> set[str]:
    """The sea areas ``power``'s supply paths may not enter now."""
    all_units = units(state).units
    blockers: dict[str, list] = {}
    friends: dict[str, list] = {}
    side = state.kernel.side_of(power)
    for uid, box in naval(state).at_sea.items():
        u = all_units.get(uid)
        if u is None or u.where != "map":
            continue
        if state.kernel.side_of(u.power) == side:
            if _covers(u):
                friends.setdefault(box.area, []).append(u)
        elif core.enemies(state, power, u.power) and _strikes(u):
            blockers.setdefault(box.area, []).append(u)
    return {area for area, enemy in blockers.items()
            if not any(core.enemies(state, f.power, e.power) for f in friends.get(area, ()) for e in enemy)}


# rules (state, area) -> why no naval unit may enter the area, or None (a scenario's partial map)
CLOSED_SEA_AREAS: dict[str, object] = {}


def close_sea_areas_with(rule) -> None:
    """Register a scenario's ``sea_area_refusal`` (the naval hook) for supply paths as well; by
    its name, so a reloaded plugin replaces its rule."""
    CLOSED_SEA_AREAS[f"{rule.__module__}.{rule.__qualname__}"] = rule


def closed_sea_areas(state) -> frozenset[str]:
    """The sea areas the game closes (a scenario's partial map): no supply path enters them."""
    rules = list(CLOSED_SEA_AREAS.values())
    if not rules:
        return frozenset()
    return frozenset(a for a in core.world_map().sea_areas if any(rule(state, a) for rule in rules))


def sea_reach(state, power: str, start_areas, blocked: set[str]) -> set[str]:
    """The sea areas a supply path reaches from ``start_areas`` through consecutive open areas."""
    areas = core.world_map().sea_areas
    seen = {a for a in start_areas if a not in blocked}
    frontier = list(seen)
    while frontier:
        a = frontier.pop()
        for b in areas[a].adjacent:
            if b in seen or b in blocked or b not in areas or closed_between(state, power, a, b):
                continue
            seen.add(b)
            frontier.append(b)
    return seen


def overseas_links(tracer, dist: dict, railway: bool) -> tuple[dict, dict]:
    """For the supply tracer: the ports a path enters from overseas and the coastal hexes whose
    units trace overseas, each with its cost (the friendly port reached by sea counts 1 hex, then
    its own path to a source)."""
    state = tracer.state
    if "naval" not in state.sections:
        return {}, {}
    power = tracer.power
    blocked = _sea_limits(tracer)[0]
    landing = []  # friendly ports with a path over land to a source: (cost from the sea, hex)
    for h in _all_ports():
        d = dist.get(h)
        if d is None or d + 1 > trace.MAX_RANGE:
            continue
        if (d == 0 or tracer.enterable(h)) and iced_in_problem(state, h) is None:
            landing.append((d + 1, h))
    closed = _sea_limits(tracer)[1]
    cost_of_area: dict[str, int] = {}
    for cost, h in sorted(landing):
        start = [a for a in areas_of_port(h) if a not in cost_of_area and not _across_closed_canal(closed, h, a)]
        if not start:
            continue
        for area in sea_reach(state, power, start, blocked):
            cost_of_area.setdefault(area, cost)
    ports: dict = {}
    coast: dict = {}
    for area, cost in cost_of_area.items():
        for h in _ports(area):
            if (cost < ports.get(h, trace.UNLIMITED) and iced_in_problem(state, h) is None
                    and not _across_closed_canal(closed, h, area)):
                ports[h] = cost
        for h in _coast(area):
            if cost < coast.get(h, trace.UNLIMITED):
                coast[h] = cost
    return ports, coast


@cache
def _canal_links() -> dict[tuple, dict[str, frozenset]]:
    """Port hex -> {sea area across its canal: the passage's ends} (Kiel - North Sea, Suez -
    Eastern Mediterranean: the map's ports open on those areas through the canal)."""
    out: dict[tuple, dict[str, frozenset]] = {}
    for ends in passages():
        for end in ends:
            if end.startswith("port:"):
                port = core.world_map().port(end.removeprefix("port:"))
                out.setdefault(tuple(port.hex), {})[next(e for e in ends if e != end)] = ends
    return out


def _across_closed_canal(closed, port_hex, area: str) -> bool:
    """Does a supply path between the port and ``area`` go through a canal closed to the power
    ("You can't trace a supply path between sea areas if one of your SCS couldn't move between
    them")?"""
    link = _canal_links().get(port_hex)
    return link is not None and link.get(area) in closed


def _sea_limits(tracer) -> tuple:
    """(sea areas blocked to the power or closed by the game, straits and canals closed to it),
    worked out once per tracer."""
    found = tracer.memo.get("overseas supply")
    if found is None:
        state, power = tracer.state, tracer.power
        closed = frozenset(ends for ends in passages() if closed_between(state, power, *ends))
        found = tracer.memo["overseas supply"] = (frozenset(blocked_areas(state, power) | closed_sea_areas(state)), closed)
    return found


def overseas_inputs(tracer):
    """What ``overseas_links`` reads besides the tracer's passability: the sea areas blocked to
    the power or closed by the game, the straits and canals closed to it, and the weather zones
    whose iced-in ports are closed (Iced-in Ports' weather)."""
    if "naval" not in tracer.state.sections:
        return None
    icing = frozenset(zone for zone, weather in tracer.zone_weather.items() if weather in ICING_WEATHER)
    return (*_sea_limits(tracer), icing)


trace.OVERSEAS_LINKS.append(trace.OverseasRule(links=overseas_links, inputs=overseas_inputs))
