"""What the window asks the supply rules (the front end's hooks ``supply_status`` and
``supply_path``, specified in app/uihooks.py; optional here, so a game without a window does
not need them): the supply layer and Unit Review show what ``in_supply`` decides, the sources
and the path a unit traces (seeds, "Supply Sources and Paths": "It shows the paths from each
secondary supply source to the primary source from which the secondary draws supply.  The
units that are supplied by each supply source are shown along with the paths they trace to
their supply source").

The paths are read off the same searches ``in_supply`` uses (trace.py): no second rule."""

from __future__ import annotations

from kernel.hexgrid import WORLD
from kernel.hookspecs import hookimpl
from plugins.rules import core

from . import trace

__all__ = ["supply_path", "supply_status", "warm_tables"]

MAX_CHAIN = 8  # tertiary sources chain to secondaries; no real chain is longer


def _city_label(hex_) -> str:
    city = core.world_map().city_at(tuple(hex_))
    return city.name if city else f"hex {hex_[0]},{hex_[1]}"


def _sources(state, power: str, result) -> list[dict]:
    labels = trace.Tracer(state, power).secondary_candidates() if result.active else {}
    out = [{"hex": list(h), "kind": "primary", "label": _city_label(h)} for h in sorted(result.primaries)]
    out += [{"hex": list(h), "kind": kind, "label": labels.get(h, _city_label(h))}
            for h, kind in sorted(result.active.items())]
    return out


@hookimpl(optionalhook=True)
def supply_status(state, power):
    if power not in state.kernel.powers():
        return None
    from . import in_supply

    result = trace.result_for(state, power)
    out = sorted(u.id for u in state["units"].units.values()
                 if u.power == power and u.on_map and not in_supply(state, u.id))
    return {"out_of_supply": out, "sources": _sources(state, power, result)}


def _follow(parents: dict, start, goal) -> list:
    """The path the search found from ``start`` to a ``goal`` hex (its parents, followed)."""
    path = [start]
    while path[-1] not in goal and path[-1] in parents and len(path) < 1000:
        path.append(parents[path[-1]])
    return path


def _leg(tracer, seeds, railway: bool, start, sea_seeds=None) -> tuple[list, tuple | None]:
    """One leg of the path, searched as ``Tracer.trace`` searches it (same seeds and limit):
    (its hexes, the sea leg (coastal hex or port, landing port) or None).  Over land when it
    can; else, when ``sea_seeds`` are given (the seeds a path may reach overseas), overseas."""
    parents: dict = {}
    land = tracer.search(seeds, railway=railway, parents=parents)
    if not sea_seeds or land.get(start, trace.UNLIMITED) <= tracer.range_at(start):
        return _follow(parents, start, seeds), None
    path, sea = _overseas_leg(tracer, sea_seeds, railway, start)
    # (over land beyond the weather's range when no sea leg is found: what the search saw)
    return (path, sea) if sea else (_follow(parents, start, seeds), None)


def _overseas_leg(tracer, seeds, railway: bool, start) -> tuple[list, tuple | None]:
    """"Overseas supply paths": from ``start`` over land to a port (or from its own coastal
    hex), by sea to a friendly port, then over land to ``seeds``.  The ports and coastal hexes
    are the overseas rule's answers (``trace.OVERSEAS_LINKS``), asked as ``Tracer._overseas``
    asks them; the landing port is the one whose answer alone gives the entry its cost."""
    parents: dict = {}
    land = tracer.search(seeds, railway=railway, parents=parents)
    for rule in trace.OVERSEAS_LINKS:
        ports, coast = rule.links(tracer, land, railway)
        inland: dict = {}  # from each hex over land to a port entered from overseas
        seeded = {**ports, **{h: 0 for h in seeds}}
        dist = tracer.search(seeded, railway, parents=inland)
        if start in coast and coast[start] <= dist.get(start, trace.UNLIMITED):
            to_sea, cost = [start], coast[start]
        elif start in dist:
            to_sea = _follow(inland, start, seeded)
            cost = ports.get(to_sea[-1])
            if cost is None:
                continue
        else:
            continue
        entry = to_sea[-1]
        landings = sorted((WORLD.distance(entry, h), h) for h in ports if land.get(h) == cost - 1)
        for _, port in landings:
            alone = rule.links(tracer, {port: land[port]}, railway)
            if alone[0].get(entry) == cost or alone[1].get(entry) == cost:
                return to_sea + _follow(parents, port, seeds), (entry, port)
    return [start], None


@hookimpl(optionalhook=True)
def supply_path(state, unit_id):
    """app/uihooks.py's answer, plus ``"sea"``: the path's sea legs ("Overseas supply paths"), each
    [index of the coastal hex or port it leaves from, index of the port it lands in] in ``path``
    (the hexes between them are the straight line across; the window draws one dashed line)."""
    from . import AT_SEA, in_supply, supplied_this_impulse

    unit = state["units"].units.get(unit_id)
    if unit is None or not unit.on_map:
        return None
    hex_ = tuple(unit.hex)
    supplied = in_supply(state, unit_id)
    answer = {"unit": unit_id, "in_supply": supplied, "path": [list(hex_)], "source": None, "why": None,
              "sea": []}
    if unit.where in AT_SEA or core.world_map().is_sea(hex_) or unit.type in trace.ALWAYS_SUPPLIED_TYPES:
        return answer  # always in supply, no path to trace
    if supplied_this_impulse(state, unit_id):
        answer["why"] = "in supply this impulse by a rule (e.g. Emergency HQ supply)"
        return answer
    extra = trace.country_of_nationality(unit.nationality) if unit.nationality not in ("", unit.power) else None
    result = trace.result_for(state, unit.power, extra)
    tracer = trace.Tracer(state, unit.power)
    if not supplied:
        cost = result.dist.get(hex_)
        answer["why"] = ("no supply path to any supply source" if cost is None else
                         f"the nearest supply source is {cost} hexes of path away; the range here is "
                         f"{tracer.range_at(hex_)}")
        return answer
    # "You may only trace supply overseas once for each unit": a source whose own chain went
    # overseas (by_sea) is reached over land only, and after a sea leg the chain stays on land
    path, sea = _leg(tracer, result.sources, False, hex_, result.sources - result.by_sea)
    seas = [sea] if sea else []
    end = path[-1]
    kind = "primary" if end in result.primaries else result.active.get(end, "primary")
    labels = tracer.secondary_candidates() if kind != "primary" else {}
    answer["source"] = {"hex": list(end), "kind": kind, "label": labels.get(end, _city_label(end))}
    # a secondary source draws on a primary by a railway path, a tertiary on a secondary
    # or another tertiary by a basic path ("Supply Sources and Paths")
    for _ in range(MAX_CHAIN):
        if kind == "primary":
            break
        if kind == "secondary":
            seeds = set(result.primaries)
        else:
            seeds = {h for h in result.active if h != end} | result.primaries
        leg, sea = _leg(tracer, seeds, kind == "secondary", end, None if seas else seeds - result.by_sea)
        if leg[-1] == end:
            break
        path += leg[1:]
        seas += [sea] if sea else []
        end = leg[-1]
        kind = "primary" if end in result.primaries else result.active.get(end, "primary")
    answer["path"], answer["sea"] = _with_sea_legs(path, seas)
    return answer


def _with_sea_legs(path: list, seas: list) -> tuple[list, list]:
    """The path with each sea leg drawn as the straight line of hexes between the coastal hex
    or port it leaves from and the port it reaches (so the path goes on hex by adjacent hex),
    and the sea legs as [index where it leaves, index where it lands] in that path."""
    out: list = []
    legs: list = []
    for a, b in zip(path, path[1:] + [None]):
        out.append(list(a))
        if b is not None and (a, b) in seas:
            legs.append([len(out) - 1, len(out) - 1 + WORLD.distance(a, b)])
            out += [list(h) for h in WORLD.line(a, b)[1:-1]]
    return out, legs


@hookimpl(optionalhook=True)
def warm_tables():
    """A server's warm-up (app/net/warmup.py): the map's supply facts of every land hex."""
    from .map_facts import warm_map_facts

    return {"supply land hexes": warm_map_facts()}
