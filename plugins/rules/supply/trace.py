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

Every search runs backwards from the sources, so one search answers for every hex; the
result of a (power, extra home country) pair is cached per state object and event seq.
Overseas supply paths ("Overseas supply paths": via sea areas to a friendly port) are the naval
plugin's: it adds its rule to ``OVERSEAS_LINKS`` (plugins/rules/naval/overseas_supply.py);
without it no path goes overseas.
"""

from __future__ import annotations

import heapq
import json
import threading
from functools import cache
from pathlib import Path

from kernel.hexgrid import WORLD
from plugins.rules import core
from plugins.rules.core import is_hq
from plugins.rules.land.movement import BAD_WEATHER, FROZEN, effective_terrain, effective_weather, zoc_hexes

DATA = json.loads((Path(__file__).parent / "data" / "supply.json").read_text(encoding="utf-8"))
RANGE: dict[str, int] = DATA["range"]
MAX_RANGE = max(RANGE.values())
MIN_RANGE = min(RANGE.values())
HOME_COUNTRIES: dict[str, list[str]] = DATA["home_countries"]
NATIONALITY_COUNTRIES: dict[str, str] = DATA["nationality_countries"]
# Reorganize Units, By HQ: the range is in *motorized* movement points, a cost table of its
# own (land movement has no motorized costs yet); weather and frozen terrain are land's.
MOTORIZED_COST: dict[str, int] = DATA["motorized_cost"]
REORG_COST: int = DATA["reorg_cost"]
DESERTS = ("desert", "desert mountain")
UNLIMITED = 10_000
ALWAYS_SUPPLIED_TYPES = {"partisan"}  # Partisans: "they are always in supply" (L4101, L4224)
# Extension point: ``links(tracer, dist, railway) -> (ports, coast)``: given the path costs
# ``dist`` from each hex to the sources over land, the ports a path may enter from overseas
# ({port hex: cost}, paths go on inland from them) and the coastal hexes whose units trace
# overseas ({hex: cost}); the naval plugin's overseas supply paths.
OVERSEAS_LINKS: list = []


# ---------------------------------------------------------------- static map facts (cached)
@cache
def _rail_edges() -> frozenset:
    edges = set()
    for line in core.world_map().rails:
        for a, b in zip(line.hexes, line.hexes[1:]):
            edges.add((a, b))
            edges.add((b, a))
    return frozenset(edges)


@cache
def _hex_facts(hex_) -> tuple[str, int, str | None, bool]:
    """(terrain, weather zone, country code, railway hex)."""
    m = core.world_map()
    return m.terrain(hex_), m.weather_zone(hex_), m.country_code(hex_), bool(m.rails_at(hex_))


@cache
def _adjacent(hex_) -> tuple[tuple[tuple[int, int], bool, bool, bool], ...]:
    """(neighbour, lake hexside, straits hexside, railway edge) for each neighbour."""
    m = core.world_map()
    rails = _rail_edges()
    out = []
    for direction in range(6):
        n = WORLD.neighbour(hex_, direction)
        if n is None:
            continue
        side = WORLD.hexside(hex_, direction)
        feature = m.hexside_feature(side) if side is not None else None
        kind = feature.kind if feature else ""
        out.append((n, kind == "lake", kind == "strait", (hex_, n) in rails))
    return tuple(out)


@cache
def _cities_of(country: str) -> tuple[tuple[int, int], ...]:
    return tuple(c.hex for c in core.world_map().cities.values() if c.country == country)


@cache
def _capital_of(country: str) -> tuple[int, int] | None:
    m = core.world_map()
    info = m.countries.get(country)
    city = m.city(info.capital) if info and info.capital else None
    return city.hex if city else None


def home_countries(power: str) -> list[str]:
    return list(HOME_COUNTRIES.get(power, []))


def country_of_nationality(nationality: str) -> str | None:
    """The home country (map code) of a unit of ``nationality``: Supply Sources and Paths,
    "any friendly city in the unit's unconquered home country" is a primary source."""
    if not nationality:
        return None
    found = core.world_map().country(NATIONALITY_COUNTRIES.get(nationality, nationality))
    return found.code if found else None


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
        self._enterable: dict = {}
        self._traced: dict = {}  # primary source hexes -> SupplyResult (trace depends on nothing else)

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
            if found and hex_ in self.zoc and hex_ not in self.friendly_land:
                found = False
            self._enterable[hex_] = found
        return found

    def crossable(self, a, b, lake_side: bool) -> bool:
        # "across a lake hexside (except when frozen)": frozen if both hexes are in snow or blizzard.
        return not lake_side or (self.raw_weather(a) in FROZEN and self.raw_weather(b) in FROZEN)

    # ------------------------------------------------------------ searches
    def search(self, seeds, railway: bool, limit: int = MAX_RANGE, parents: dict | None = None,
               known: dict | None = None) -> dict:
        """Backwards from ``seeds`` (hexes at cost 0): the path cost from every hex to them.

        The cost of a path is the hexes it enters (the start hex is not entered): 1 each,
        2 for desert and desert mountain; 0 along a railway on a railway path.  ``parents``
        (when given) gets each hex's next hex on its path towards the seeds (ui.py's paths).
        ``known``: a finished search's costs to other seeds; the search goes on from the seeds
        that come cheaper than it, and only where they make a path cheaper (the same costs as a
        search from both sets of seeds, without walking the known part again)."""
        seeds = dict(seeds) if isinstance(seeds, dict) else {h: 0 for h in seeds}  # a dict: seeds with costs
        if known is None:
            dist, start = seeds, seeds
        else:
            dist, start = dict(known), {}
            for h, cost in seeds.items():
                if cost < dist.get(h, UNLIMITED):
                    dist[h] = start[h] = cost
        buckets: dict[int, list] = {}
        for h, cost in start.items():
            buckets.setdefault(cost, []).append(h)
        # locals: this loop runs for every hex of a power's rail net (~2,500 for the USSR) on
        # each new position, e.g. a unit's destinations after every move (issue 11's click)
        enterable, crossable, facts, adjacent, get = self.enterable, self.crossable, _hex_facts, _adjacent, dist.get
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
                if dist[n] != d or not enterable(n):
                    continue
                n_facts = facts(n)
                step = 2 if n_facts[0] in DESERTS else 1
                n_rail = n_facts[3]
                for h, lake_side, straits, rail_edge in adjacent(n):
                    if lake_side and not crossable(h, n, True):
                        continue
                    if railway and (rail_edge or (straits and n_rail and facts(h)[3])):
                        nd = d
                    else:
                        nd = d + step
                        if nd > limit:
                            continue
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
        dist = self.search(seeds, railway)
        if not OVERSEAS_LINKS:
            return dist
        seeded = {h: 0 for h in seeds}
        coast: dict = {}
        for links in OVERSEAS_LINKS:
            ports, shore = links(self, dist, railway)
            for h, cost in ports.items():
                if cost < seeded.get(h, UNLIMITED):
                    seeded[h] = cost
            for h, cost in shore.items():
                coast[h] = min(cost, coast.get(h, UNLIMITED))
        if len(seeded) == len(seeds) and not coast:
            return dist
        dist = self.search(seeded, railway, known=dist)  # goes on from the ports overseas
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

    def trace(self, extra_country: str | None = None) -> "SupplyResult":
        primaries = self.primary_sources(extra_country)
        # units of a minor country whose cities are already the power's sources (e.g. the
        # Commonwealth's Australians) are supplied exactly like the power's own
        already = self._traced.get(frozenset(primaries))
        if already is not None:
            return already
        candidates = self.secondary_candidates()
        active: dict = {}
        pending = {h: label for h, label in candidates.items() if h not in primaries}
        if pending:
            rail = self.reach(primaries, railway=True)
            for h in list(pending):
                if rail.get(h, UNLIMITED) <= self.range_at(h):
                    active[h] = "secondary"
                    del pending[h]
            while pending and active:  # tertiary sources: chains of basic paths
                basic = self.reach(set(active), railway=False)
                new = [h for h in pending if basic.get(h, UNLIMITED) <= self.range_at(h)]
                if not new:
                    break
                for h in new:
                    active[h] = "tertiary"
                    del pending[h]
        sources = primaries | set(active)
        dist = self.reach(sources, railway=False)
        # (no weather lookup for a cost within every weather's range: overseas paths make dist large)
        supplied = {h for h, d in dist.items() if (d <= MIN_RANGE or d <= self.range_at(h)) and _hex_facts(h)[0] != "sea"}
        result = self._traced[frozenset(primaries)] = SupplyResult(primaries, active, dist, supplied, sources)
        return result


class SupplyResult:
    __slots__ = ("primaries", "active", "dist", "supplied", "sources")

    def __init__(self, primaries, active, dist, supplied, sources):
        self.primaries = primaries  # primary source hexes
        self.active = active  # secondary/tertiary source hex -> "secondary" | "tertiary"
        self.dist = dist  # hex -> basic path cost to the nearest source (<= 4)
        self.supplied = supplied  # hexes where a unit is in supply
        self.sources = sources


# ---------------------------------------------------------------- cache per state and seq
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


def result_for(state, power: str, extra_country: str | None = None) -> SupplyResult:
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
    ``power``, within the longest range: searched once per position (e.g. every unit asking
    whether it traces to the same HQ)."""
    results = _position(state)["results"]
    key = ("reach", power, tuple(hex_))
    found = results.get(key)
    if found is None:
        found = results[key] = tracer_for(state, power).search({tuple(hex_)}, railway=False)
    return found


def clear_cache() -> None:
    _caches.cache = None


# ---------------------------------------------------------------- HQ reorganization paths
def reorganization_costs(state, hq, limit: int) -> dict:
    """Reorganize Units, By HQ: motorized-MP cost from the HQ's hex to each hex within its
    reorganization range, traced like a basic supply path, never overseas.  A hex adjacent
    to the HQ is always within range if the path may enter it."""
    tracer = Tracer(state, hq.power)
    start = tuple(hq.hex)
    dist = {start: 0}
    frontier = [(0, start)]
    while frontier:
        d, h = heapq.heappop(frontier)
        if d != dist.get(h):
            continue
        for n, lake_side, _straits, _rail in _adjacent(h):
            if not tracer.enterable(n) or not tracer.crossable(h, n, lake_side):
                continue
            weather = tracer.weather(n)
            cost = MOTORIZED_COST.get(effective_terrain(_hex_facts(n)[0], weather), 1)
            if weather in BAD_WEATHER:
                cost *= 2
            nd = d + cost
            if d == 0:
                nd = min(nd, limit)  # "You may always trace 1 hex"
            if nd > limit:
                continue
            if nd < dist.get(n, UNLIMITED):
                dist[n] = nd
                heapq.heappush(frontier, (nd, n))
    return dist
