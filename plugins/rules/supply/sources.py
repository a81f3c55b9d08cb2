"""The chain of supply sources: seeds, "Supply Sources and Paths" (L8351-8544).

- primary sources (``Tracer.primary_sources``) supply directly;
- a secondary source (``Tracer.secondary_candidates``: co-operating HQs, capitals of minors and
  of conquered countries) is active if it traces a *railway* supply path to a primary;
- a tertiary source is a candidate that traces a *basic* path to an active secondary or
  tertiary (chains of any length);
- a unit is in supply if it traces a *basic* path, within the range the weather in its hex
  allows, to any primary or active source;
- a chain from the unit to a primary source goes overseas once at most ("Overseas supply paths").

The result depends on the sources, the tracer's ``situation`` and the hexes its searches gave a
cost to, so it is kept and reused (reuse.py) like the searches it is made of.
"""

from __future__ import annotations

from . import trace
from .reuse import reused
from .trace import MIN_RANGE, UNLIMITED, Tracer, _hex_facts


class SupplyResult:
    __slots__ = ("primaries", "active", "dist", "supplied", "sources", "by_sea")

    def __init__(self, primaries, active, dist, supplied, sources, by_sea=frozenset()):
        self.primaries = primaries  # primary source hexes
        self.active = active  # secondary/tertiary source hex -> "secondary" | "tertiary"
        self.dist = dist  # hex -> basic path cost to the nearest source (<= 4)
        self.supplied = supplied  # hexes where a unit is in supply
        self.sources = sources
        self.by_sea = by_sea  # active sources whose own chain has gone overseas


def trace_sources(tracer: Tracer, extra_country: str | None = None) -> SupplyResult:
    """The active sources of ``tracer``'s power (with ``extra_country``'s cities as primaries for
    units of that home country) and the hexes where its units are in supply."""
    primaries = frozenset(tracer.primary_sources(extra_country))
    candidates = frozenset(tracer.secondary_candidates())
    # units of a minor country whose cities are already the power's sources (e.g. the
    # Commonwealth's Australians) are supplied exactly like the power's own: the same key
    return reused(tracer, ("sources", primaries, candidates), lambda: _trace(tracer, set(primaries), candidates))


def _trace(tracer: Tracer, primaries: set, candidates) -> tuple[SupplyResult, set]:
    """The result and the hexes its searches gave a cost to (what it read).

    "You may only trace supply overseas once for each unit attempting to trace supply,
    regardless of how many secondary/tertiary supply sources are used between the tracing unit
    and the primary supply source" ("Overseas supply paths"): a source whose own chain went
    overseas (``by_sea``) may only be reached over land, by the next source or by the unit."""
    searched: list[dict] = []

    def reach_both(seeds, railway: bool) -> tuple[dict, dict]:
        both = tracer.reach_both(seeds, railway)
        searched.append(both[1])
        return both

    active: dict = {}
    by_sea: set = set()
    pending = {h for h in candidates if h not in primaries}
    if pending:
        over_land, overseas = reach_both(primaries, railway=True)
        for h in sorted(pending):
            if over_land.get(h, UNLIMITED) <= tracer.range_at(h):
                active[h] = "secondary"
            elif overseas.get(h, UNLIMITED) <= tracer.range_at(h):
                active[h] = "secondary"
                by_sea.add(h)
        pending -= set(active)
        while (pending or by_sea) and active and _tertiary_round(tracer, reach_both, active, by_sea, pending):
            pass
    sources = primaries | set(active)
    if by_sea:
        # a unit traces overseas to a source whose chain stayed on land, over land to any
        over_land = reach_both(sources, railway=False)[0]
        dist = dict(reach_both(sources - by_sea, railway=False)[1])
        for h, cost in over_land.items():
            if cost < dist.get(h, UNLIMITED):
                dist[h] = cost
    else:
        dist = reach_both(sources, railway=False)[1]
    # (no weather lookup for a cost within every weather's range: overseas paths make dist large)
    supplied = {h for h, d in dist.items()
                if (d <= MIN_RANGE or d <= tracer.range_at(h)) and _hex_facts(h)[0] != "sea"}
    read = set(dist) if len(searched) == 1 else set().union(*searched)
    return SupplyResult(primaries, active, dist, supplied, sources, frozenset(by_sea)), read


def _tertiary_round(tracer: Tracer, reach_both, active: dict, by_sea: set, pending: set) -> bool:
    """One round of tertiary sources ("a basic path to an active secondary or tertiary"): the
    candidates (and sources reached by sea) within range of the active sources; True if any
    changed.  Paths overseas only from sources whose chain stayed on land."""
    on_land = {h for h in active if h not in by_sea}
    over_land, overseas = reach_both(on_land, railway=False) if on_land else ({}, {})
    from_sea = reach_both(by_sea, railway=False)[0] if by_sea else {}
    changed = False
    for h in sorted(pending | by_sea):
        limit = tracer.range_at(h)
        if over_land.get(h, UNLIMITED) <= limit:
            if h in by_sea:
                by_sea.discard(h)  # its chain can now stay on land
            else:
                active[h] = "tertiary"
                pending.discard(h)
            changed = True
        elif h in pending and (overseas.get(h, UNLIMITED) <= limit or from_sea.get(h, UNLIMITED) <= limit):
            active[h] = "tertiary"
            by_sea.add(h)
            pending.discard(h)
            changed = True
    return changed


__all__ = ["SupplyResult", "trace_sources", "trace"]
