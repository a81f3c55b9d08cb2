"""The chain of supply sources: seeds, "Supply Sources and Paths" (L8351-8544).

- primary sources (``Tracer.primary_sources``) supply directly;
- a secondary source (``Tracer.secondary_candidates``: co-operating HQs, capitals of minors and
  of conquered countries) is active if it traces a *railway* supply path to a primary;
- a tertiary source is a candidate that traces a *basic* path to an active secondary or
  tertiary (chains of any length);
- a unit is in supply if it traces a *basic* path, within the range the weather in its hex
  allows, to any primary or active source.

The result depends on the sources, the tracer's ``situation`` and the hexes its searches gave a
cost to, so it is kept and reused (reuse.py) like the searches it is made of.
"""

from __future__ import annotations

from . import trace
from .reuse import reused
from .trace import MIN_RANGE, UNLIMITED, Tracer, _hex_facts


class SupplyResult:
    __slots__ = ("primaries", "active", "dist", "supplied", "sources")

    def __init__(self, primaries, active, dist, supplied, sources):
        self.primaries = primaries  # primary source hexes
        self.active = active  # secondary/tertiary source hex -> "secondary" | "tertiary"
        self.dist = dist  # hex -> basic path cost to the nearest source (<= 4)
        self.supplied = supplied  # hexes where a unit is in supply
        self.sources = sources


def trace_sources(tracer: Tracer, extra_country: str | None = None) -> SupplyResult:
    """The active sources of ``tracer``'s power (with ``extra_country``'s cities as primaries for
    units of that home country) and the hexes where its units are in supply."""
    primaries = frozenset(tracer.primary_sources(extra_country))
    candidates = frozenset(tracer.secondary_candidates())
    # units of a minor country whose cities are already the power's sources (e.g. the
    # Commonwealth's Australians) are supplied exactly like the power's own: the same key
    return reused(tracer, ("sources", primaries, candidates), lambda: _trace(tracer, set(primaries), candidates))


def _trace(tracer: Tracer, primaries: set, candidates) -> tuple[SupplyResult, set]:
    """The result and the hexes its searches gave a cost to (what it read)."""
    searched: list[dict] = []

    def reach(seeds, railway: bool) -> dict:
        dist = tracer.reach(seeds, railway=railway)
        searched.append(dist)
        return dist

    active: dict = {}
    pending = {h for h in candidates if h not in primaries}
    if pending:
        rail = reach(primaries, railway=True)
        for h in sorted(pending):
            if rail.get(h, UNLIMITED) <= tracer.range_at(h):
                active[h] = "secondary"
                pending.discard(h)
        while pending and active:  # tertiary sources: chains of basic paths
            basic = reach(set(active), railway=False)
            new = [h for h in sorted(pending) if basic.get(h, UNLIMITED) <= tracer.range_at(h)]
            if not new:
                break
            for h in new:
                active[h] = "tertiary"
                pending.discard(h)
    sources = primaries | set(active)
    dist = reach(sources, railway=False)
    # (no weather lookup for a cost within every weather's range: overseas paths make dist large)
    supplied = {h for h, d in dist.items()
                if (d <= MIN_RANGE or d <= tracer.range_at(h)) and _hex_facts(h)[0] != "sea"}
    read = set(dist) if len(searched) == 1 else set().union(*searched)
    return SupplyResult(primaries, active, dist, supplied, sources), read


__all__ = ["SupplyResult", "trace_sources", "trace"]
