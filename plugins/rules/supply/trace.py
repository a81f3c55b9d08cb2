"""The supply engine: which hexes a unit of a power can trace supply from.

Seeds, "Supply Sources and Paths" (L8351-8544):
- primary sources: friendly cities in the unit's unconquered home country and in the
  unconquered home countries of the major powers it co-operates with;
- secondary sources: HQs the unit co-operates with, capitals of minor countries controlled
  by the unit's major power, capitals of countries conquered by the unit's major power or
  one it co-operates with; each must trace a *railway* supply path to a primary;
- "A city can only be a supply source for a unit if it has not been controlled by the other
  side at any time in the turn" (core's ``controllers_this_turn``);
- tertiary sources: secondary candidates that trace a *basic* path to an active secondary
  or tertiary (chains of any length);
- a unit traces a *basic* path to any source.  Paths are up to 4 hexes (each desert or
  desert-mountain hex entered counts 1 extra); a railway path enters hexes along a railway
  (or across a straits between two railway hexes) for free.  The limit is judged by the
  weather in the hex of the unit or secondary/tertiary source (Weather Report: fine 4,
  snow 3, rain/storm/blizzard 2; desert hexes suffer milder weather).
- a path may never enter an enemy ZOC unless a friendly land unit is there, a hex
  controlled by another major power that does not agree (the USSR and the other Allies
  until the USSR is at war with Germany), a neutral hex, or cross an unfrozen lake hexside.

Every search runs backwards from the sources, so one search answers for every hex.  Its answer
is kept and reused by later positions, and other powers, where nothing it read has changed
(reuse.py).  The chain of sources is sources.py's.  Overseas supply paths ("Overseas supply paths": via sea
areas to a friendly port) are the naval plugin's: it adds its rule to ``OVERSEAS_LINKS``
(plugins/rules/naval/overseas_supply.py); without it no path goes overseas.
"""

from __future__ import annotations

import threading
from typing import Callable, NamedTuple

from plugins.rules import core
from plugins.rules.core import is_hq
from plugins.rules.land.movement import FROZEN, effective_weather, zoc_hexes

from .reuse import forget, reused, reused_search, shared_enterable
from .map_facts import (  # noqa: F401 - the names other modules read as trace.*
    ALWAYS_SUPPLIED_TYPES,
    DESERTS,
    HOME_COUNTRIES,
    MAX_RANGE,
    MIN_RANGE,
    MOTORIZED_COST,
    NATIONALITY_COUNTRIES,
    RANGE,
    REORG_COST,
    UNLIMITED,
    _adjacent,
    _capital_of,
    _cities_of,
    _hex_facts,
    _node,
    country_of_nationality,
    home_countries,
)


class OverseasRule(NamedTuple):
    """An extension point for paths that go overseas (the naval plugin's overseas supply paths).

    ``links(tracer, dist, railway) -> (ports, coast)``: given the path costs ``dist`` from each
    hex to the sources over land, the ports a path may enter from overseas ({port hex: cost},
    paths go on inland from them) and the coastal hexes whose units trace overseas ({hex: cost}).
    ``inputs(tracer) -> hashable``: everything ``links`` reads besides ``dist``, which weather
    zones are frozen (snow or blizzard) and whether a path may enter a hex it gives a cost to (e.g. the sea areas enemy ships block):
    searches are reused while it stays equal (reuse.py), so it must change whenever the answer
    of ``links`` may."""
    links: Callable
    inputs: Callable


OVERSEAS_LINKS: list[OverseasRule] = []


# ---------------------------------------------------------------- one tracer per power
class Tracer:
    """Supply questions for the units of one major power in one state."""

    def __init__(self, state, power: str):
        self.state = state
        self.power = power
        k = state.kernel
        self.side = k.side_of(power)
        self.friends = set(k.sides.get(self.side, [])) if self.side else {power}
        w = core.world(state)
        self.zone_weather = w.weather
        self.countries = w.countries
        self.hex_control = {core.key_hex(key): p for key, p in w.hex_control.items()}
        self.conquered = dict(w.conquered)
        # cities the other side controlled at some time this turn supply nobody of this side
        self.lost_this_turn = {core.key_hex(key) for key, entry in w.taken_this_turn.items()
                               if entry[0] == k.turn and any(k.side_of(p) != self.side for p in entry[1:])}
        self.enemy_powers = {p for p in k.powers() if p != power and core.enemies(state, power, p)}
        # The USSR and the other Allied majors may not trace into each other's hexes unless
        # the USSR is at war with Germany ("Limits on supply paths").
        self.ussr_apart = not core.enemies(state, "ussr", "germany")
        self.zoc: set = set()
        self.friendly_land: set = set()
        self.hqs: list = []
        # one ZOC rule for the whole game: the land plugin's, side by side
        for other, powers in k.sides.items():
            if other != self.side and self.enemy_powers & set(powers):
                self.zoc |= zoc_hexes(state, other)
        for unit in state["units"].units.values():
            if unit.branch != "land" or not unit.on_map:
                continue
            hex_ = tuple(unit.hex)
            if unit.power in self.friends:
                self.friendly_land.add(hex_)
                if is_hq(unit):
                    self.hqs.append(unit)
        # a path may not enter these hexes: enemy ZOC with no friendly land unit ("Limits on supply paths")
        self.blocked = self.zoc - self.friendly_land
        self._enterable: dict | None = None  # reuse.shared_enterable's, made on the first question
        self.memo: dict = {}  # what an overseas rule works out once per tracer (its inputs)
        self._situation = None
        self._search_situation = None

    def situation(self) -> tuple:
        """Everything a supply result reads besides its sources, the map and each hex's control
        and blocking (``hex_control``, ``blocked``): reuse.py keeps results under it.  A result
        reads each hex's weather (its range, Weather Report), a search only whether it is frozen."""
        if self._situation is None:
            self._situation = (self.search_situation(), frozenset(self.zone_weather.items()))
        return self._situation

    def search_situation(self) -> tuple:
        """Everything a search reads besides its seeds, the map and each hex's control and
        blocking: reuse.py keeps searches under it.  Of the weather a search reads only which
        zones are frozen (snow or blizzard: lakes and lake hexsides, Weather Report); an
        overseas rule's ``inputs`` name what else it reads (e.g. the iced-in ports' weather), so
        a new turn's weather keeps the searches unless it freezes or thaws a zone."""
        if self._search_situation is None:
            # friendly_controlled asks the power itself only while the USSR stays apart
            apart_as = self.power if self.ussr_apart and "ussr" in self.friends else None
            frozen = frozenset(zone for zone, weather in self.zone_weather.items() if weather in FROZEN)
            self._search_situation = (
                frozenset(self.friends), apart_as, frozenset(self.enemy_powers), frozen,
                frozenset(self.countries.items()), tuple(rule.inputs(self) for rule in OVERSEAS_LINKS))
        return self._search_situation

    # ------------------------------------------------------------ hex questions
    def raw_weather(self, hex_) -> str:
        return self.zone_weather.get(str(_hex_facts(hex_)[1]), "fine")

    def weather(self, hex_) -> str:
        """Weather Report: desert hexes suffer milder weather than their zone (land's rule)."""
        return effective_weather(self.raw_weather(hex_), _hex_facts(hex_)[0])

    def range_at(self, hex_) -> int:
        return RANGE.get(self.weather(hex_), MAX_RANGE)

    def controller(self, hex_):
        if hex_ in self.hex_control:
            return self.hex_control[hex_]
        return self.countries.get(_hex_facts(hex_)[2])

    def friendly_controlled(self, hex_) -> bool:
        owner = self.controller(hex_)
        if owner is None or owner not in self.friends:
            return False
        if owner != self.power and self.ussr_apart and "ussr" in (owner, self.power):
            return False
        return True

    def enterable(self, hex_) -> bool:
        """May a supply path enter this hex? ("Limits on supply paths")."""
        if self._enterable is None:
            self._enterable = shared_enterable(self)
        found = self._enterable.get(hex_)
        if found is None:
            terrain = _hex_facts(hex_)[0]
            if terrain == "sea":
                found = False
            elif terrain == "lake":
                # Weather Report: lakes freeze in snow or blizzard and are treated as clear.
                found = self.raw_weather(hex_) in FROZEN and (
                    self.controller(hex_) is None or self.friendly_controlled(hex_))
            else:
                found = self.friendly_controlled(hex_)
            if found and hex_ in self.blocked:
                found = False
            self._enterable[hex_] = found
        return found

    def crossable(self, a, b, lake_side: bool) -> bool:
        # "across a lake hexside (except when frozen)": frozen if both hexes are in snow or blizzard.
        return not lake_side or (self.raw_weather(a) in FROZEN and self.raw_weather(b) in FROZEN)

    # ------------------------------------------------------------ searches
    def search(self, seeds, railway: bool, limit: int = MAX_RANGE, parents: dict | None = None,
               known: dict | None = None, again=()) -> dict:
        """Backwards from ``seeds`` (hexes at cost 0): the path cost from every hex to them.

        The cost of a path is the hexes it enters (the start hex is not entered): 1 each,
        2 for desert and desert mountain; 0 along a railway on a railway path.  ``parents``
        (when given) gets each hex's next hex on its path towards the seeds (ui.py's paths).
        ``known``: a finished search's costs to other seeds; the search goes on from the seeds
        that come cheaper than it, and only where they make a path cheaper (the same costs as a
        search from both sets of seeds, without walking the known part again); ``again``: hexes
        of ``known`` to expand once more at their cost (a path may now enter them)."""
        seeds = dict(seeds) if isinstance(seeds, dict) else {h: 0 for h in seeds}  # a dict: seeds with costs
        if known is None:
            dist, start = seeds, seeds
        else:
            dist, start = dict(known), {}
            for h, cost in seeds.items():
                if cost < dist.get(h, UNLIMITED):
                    dist[h] = start[h] = cost
            for h in again:
                if h in dist and h not in start:
                    start[h] = dist[h]
        buckets: dict[int, list] = {}
        for h, cost in start.items():
            buckets.setdefault(cost, []).append(h)
        # locals: this loop runs for every hex of a power's rail net (~2,500 for the USSR) on
        # each new position, e.g. a unit's destinations after every move (issue 11's click)
        if self._enterable is None:
            self._enterable = shared_enterable(self)
        known_enterable, enterable, crossable, node, get = self._enterable, self.enterable, self.crossable, _node, dist.get
        d = min(buckets, default=0)
        while d <= limit:
            bucket = buckets.pop(d, None)
            if bucket is None:
                if not buckets:
                    break
                d = min(buckets)
                continue
            i = 0
            while i < len(bucket):
                n = bucket[i]
                i += 1
                if dist[n] != d:
                    continue
                ok = known_enterable.get(n)
                if not (ok or (ok is None and enterable(n))):
                    continue
                step, edges, free_edges = node(n)
                further = d + step
                if further > limit:  # only a railway's free hexes are left within the limit
                    if not railway:
                        continue
                    edges = free_edges
                for h, lake_side, free in edges:
                    if lake_side and not crossable(h, n, True):
                        continue
                    nd = d if railway and free else further
                    old = get(h)
                    if old is None or nd < old:
                        dist[h] = nd
                        if parents is not None:
                            parents[h] = n
                        if nd == d:
                            bucket.append(h)
                        else:
                            buckets.setdefault(nd, []).append(h)
            d += 1
        return dist

    def reach(self, seeds, railway: bool) -> dict:
        """``search`` and, where a rule adds them (``OVERSEAS_LINKS``), paths that go overseas
        once: from a port or coastal hex by sea to a friendly port, then on over land."""
        return self.reach_both(seeds, railway)[1]

    def reach_both(self, seeds, railway: bool) -> tuple[dict, dict]:
        """(costs over land only, costs with paths overseas) from each hex to ``seeds``: a
        chain of sources goes overseas once at most ("Overseas supply paths"), so sources.py
        needs both.  Kept and reused, or brought up to date from a kept one (reuse.py,
        repair.py; the caller must not change the answers)."""
        return reused_search(self, frozenset(seeds), railway, self._reach)

    def _reach(self, seeds, railway: bool, land: dict | None = None, parents: dict | None = None) -> tuple:
        """(land, overseas, parents): ``reach_both``'s answers and the land search's next hex
        from each hex towards the seeds (what repair.py needs).  ``land`` and ``parents`` when
        repair.py has brought a kept search up to date."""
        if land is None:
            parents = {}
            land = self.search(seeds, railway, parents=parents)
        return land, self._overseas(seeds, railway, land), parents

    def _overseas(self, seeds, railway: bool, land: dict) -> dict:
        if not OVERSEAS_LINKS:
            return land
        seeded = {h: 0 for h in seeds}
        coast: dict = {}
        for rule in OVERSEAS_LINKS:
            ports, shore = rule.links(self, land, railway)
            for h, cost in ports.items():
                if cost < seeded.get(h, UNLIMITED):
                    seeded[h] = cost
            if not coast:
                coast = shore  # one rule (the usual case): no merging
                continue
            for h, cost in shore.items():
                coast[h] = min(cost, coast.get(h, UNLIMITED))
        if len(seeded) == len(seeds) and not coast:
            return land
        dist = self.search(seeded, railway, known=land)  # goes on from the ports overseas
        for h, cost in coast.items():
            if cost < dist.get(h, UNLIMITED):
                dist[h] = cost
        return dist

    # ------------------------------------------------------------ sources
    def city_source(self, hex_) -> bool:
        """A friendly city not controlled by the other side at any time this turn."""
        return self.friendly_controlled(hex_) and hex_ not in self.lost_this_turn

    def primary_sources(self, extra_country: str | None = None) -> set:
        """Friendly cities of the unconquered home countries of the co-operating major
        powers (and of the unit's own minor country)."""
        countries = set()
        for p in self.friends:
            countries.update(home_countries(p))
        if extra_country:
            countries.add(extra_country)
        out = set()
        for country in countries:
            if country in self.conquered:
                continue  # "any friendly city in the unit's unconquered home country"
            for hex_ in _cities_of(country):
                if self.city_source(hex_):
                    out.add(hex_)
        # Supply Sources: "an HQ is a primary supply source for the rest of the turn if you
        # expend an organized supply unit with which it is stacked" (optional rule Supply units)
        granted = self.state["supply"].primary_hqs
        for unit in self.hqs:
            if granted.get(unit.id) == self.state.kernel.turn:
                out.add(tuple(unit.hex))
        return out

    def secondary_candidates(self) -> dict:
        """Hex -> label: co-operating HQs, capitals of minors controlled by the power, capitals
        of countries conquered by the power or one it co-operates with."""
        out = {}
        for unit in self.hqs:
            out[tuple(unit.hex)] = f"HQ {unit.name or unit.id}"
        majors_homes = {c for cs in HOME_COUNTRIES.values() for c in cs}
        for country, owner in self.countries.items():
            if owner != self.power or country in majors_homes:
                continue
            capital = _capital_of(country)
            if capital and self.city_source(capital):
                out.setdefault(capital, f"capital of {country}")
        for country, conqueror in self.conquered.items():
            capital = _capital_of(country)
            if conqueror in self.friends and capital and self.city_source(capital):
                out.setdefault(capital, f"capital of conquered {country}")
        return out

    def trace(self, extra_country: str | None = None):
        """The power's (or its ``extra_country`` units') sources and supplied hexes: sources.py."""
        from .sources import trace_sources

        return trace_sources(self, extra_country)


# ---------------------------------------------------------------- caches, one per thread
# One cache per thread: a server (app/net/server.py) decides each of its games on the game's
# own thread, so games never evict, or worse read, each other's traces.
_caches = threading.local()
def _position(state) -> dict:
    cache = getattr(_caches, "cache", None)
    if cache is None or cache["state"] is not state or cache["seq"] != state.kernel.seq:
        # A strong reference: the object cannot be freed and its id reused while cached;
        # a rejected command rebuilds state into a new object, so it never hits stale data.
        cache = _caches.cache = {"state": state, "seq": state.kernel.seq, "results": {}}
    return cache


def result_for(state, power: str, extra_country: str | None = None):
    """The ``SupplyResult`` (sources.py) of ``power``'s units, or of its units whose home
    country is ``extra_country``, in this position."""
    results = _position(state)["results"]
    key = (power, extra_country)
    found = results.get(key)
    if found is None:
        # one Tracer per power and position (its ZOC and units gathered once for every nationality)
        found = results[key] = tracer_for(state, power).trace(extra_country)
    return found


def tracer_for(state, power: str) -> Tracer:
    """One ``Tracer`` of ``power`` per position (state object and event seq): its enemy ZOC
    and friendly units are gathered once however many searches ask."""
    results = _position(state)["results"]
    found = results.get(("tracer", power))
    if found is None:
        found = results[("tracer", power)] = Tracer(state, power)
    return found


def basic_reach(state, power: str, hex_) -> dict:
    """Basic supply path costs (railways not free) from each hex to ``hex_`` for units of
    ``power``, within the longest range: searched once, reused while it holds (e.g. every unit asking
    whether it traces to the same HQ)."""
    tracer = tracer_for(state, power)
    start = tuple(hex_)

    def compute():
        dist = tracer.search({start}, railway=False)
        return dist, dist
    return reused(tracer, ("basic", start), compute)


def clear_cache() -> None:
    _caches.cache = None
    forget()
