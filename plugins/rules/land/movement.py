"""Land movement questions: terrain and weather effects, zones of control, stacking, reachable
hexes and path costs.

Pure functions of the state (no events), the one home of these rules: the land commands and
other plugins (supply, combat, scenarios) ask them.  Rules come from the seeds' "Land
Movement", "Over-Stacked Hex" and "Weather Report" sections; the terrain effects chart the
seeds leave out is ``data/terrain_effects.json``.  Rail paths are in ``rail_movement``.
"""

from __future__ import annotations

import copy
import heapq
import json
from functools import cache
from pathlib import Path

from kernel.errors import Rejected
from plugins.rules import core

DATA = Path(__file__).resolve().parent / "data"
BAD_WEATHER = ("rain", "storm", "blizzard")  # Weather Report: "Double the terrain cost ... in rain, storm or blizzard"
FROZEN = ("snow", "blizzard")

# Unit types the stacking rule names (Over-Stacked Hex: "if the 3rd unit is a division,
# artillery, or supply unit").  Scenario counter data uses these type ids.
ARTILLERY_TYPES = frozenset({"art", "artillery", "aa", "aart"})
SUPPLY_TYPES = frozenset({"sup", "supply"})
NO_CONTROL_TYPES = SUPPLY_TYPES | {"partisan", "notional"}  # Captured Facilities: "except for partisans or supply units"
OWN_HEX_ZOC_TYPES = frozenset({"partisan", "notional"})


@cache
def terrain_chart() -> dict:
    return json.loads((DATA / "terrain_effects.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- the map, cached per hex
_TERRAIN: dict = {}
_ADJ: dict = {}


def _terrain(hex_) -> str:
    t = _TERRAIN.get(hex_)
    if t is None:
        t = _TERRAIN[hex_] = core.world_map().terrain(hex_)
    return t


def _adjacent(hex_) -> tuple:
    """((neighbour, hexside feature kind or None), ...) for a normalized hex."""
    adj = _ADJ.get(hex_)
    if adj is None:
        m = core.world_map()
        grid = m.grid
        out = []
        for d in range(6):
            n = grid.neighbour(hex_, d)
            if n is None:
                continue
            side = grid.hexside(hex_, d)
            feature = m.hexside_feature(side) if side is not None else None
            out.append((n, feature.kind if feature else None))
        adj = _ADJ[hex_] = tuple(out)
    return adj


def norm(hex_) -> tuple[int, int]:
    return core.world_map().grid.normalize(tuple(hex_))


# ---------------------------------------------------------------- weather and terrain
def effective_weather(weather: str, terrain: str) -> str:
    """Weather Report, effects on terrain: desert hexes feel milder weather."""
    if terrain in ("desert", "desert mountain"):
        return {"blizzard": "snow", "storm": "rain", "rain": "fine", "snow": "fine"}.get(weather, weather)
    return weather


def effective_terrain(terrain: str, weather: str) -> str:
    """Weather Report: frozen lakes are clear, swamps are forest, in snow or blizzard."""
    if weather in FROZEN:
        if terrain == "lake":
            return "clear"
        if terrain == "swamp":
            return "forest"
    return terrain


def hex_cost(state, hex_, weather: str | None = None) -> int | None:
    """Movement points to enter a hex (None: land units cannot enter it)."""
    terrain = _terrain(hex_)
    if weather is None:
        weather = core.weather_in(state, hex_)
    weather = effective_weather(weather, terrain)
    base = terrain_chart()["hex_costs"].get(effective_terrain(terrain, weather))
    if base is None:
        return None
    return base * 2 if weather in BAD_WEATHER else base


def hexside_cost(kind: str | None, weather_a: str, weather_b: str) -> int | None:
    """Extra movement points to cross a hexside (None: cannot be crossed)."""
    if kind is None:
        return 0
    if kind == "lake" and weather_a in FROZEN and weather_b in FROZEN:
        kind = "river"  # Weather Report: "Treat a frozen lake hexside as a river hexside"
    return terrain_chart()["hexside_costs"].get(kind)


# ---------------------------------------------------------------- units and sides
def land_units_at(state, hex_) -> list:
    return [u for u in state["units"].in_hex(hex_) if u.branch == "land"]


def is_division(unit) -> bool:
    return unit.size == "division"


def _hostile(state, power: str):
    """A predicate: is this power at war with ``power``?"""
    w = core.world(state)
    at_war = {p for pair in w.at_war for p in pair if power in pair} - {power}
    return at_war.__contains__


def zoc_hexes(state, side: str) -> set[tuple[int, int]]:
    """Hexes into which the land units of ``side`` extend a zone of control.

    See data/terrain_effects.json "zoc": corps and armies into their hex and the adjacent
    land hexes that are not neutral; divisions, notional units and partisans into their own
    hex only."""
    powers = set(core.powers_of_side(state, side))
    return _zoc_of(state, lambda p: p in powers)


def _zoc_of(state, owner_pred, skip_hex=None) -> set:
    skip = core.hex_key(skip_hex) if skip_hex is not None else None
    out: set = set()
    for key, hexes in _zoc_by_stack(state, owner_pred).items():
        if key != skip:
            out |= hexes
    return out


def _zoc_by_stack(state, owner_pred) -> dict[str, set]:
    """{hex key of a stack exerting a zone of control: the hexes it extends it into}, so a
    zone of control without one stack (an overrun's target) is a union, not a new search."""
    out: dict = {}
    u = state["units"]
    world = core.world(state)
    for key, ids in u.at_hex.items():
        units = [u.units[i] for i in ids]
        exerting = [x for x in units if x.branch == "land" and owner_pred(x.power)]
        if not exerting:
            continue
        hex_ = core.key_hex(key)
        zone = out[key] = {hex_}
        if all(is_division(x) or x.type in OWN_HEX_ZOC_TYPES for x in exerting):
            continue
        for n, _kind in _adjacent(hex_):
            t = _terrain(n)
            if t == "sea" or t == "lake":
                continue
            controller = world.hex_control.get(core.hex_key(n)) or world.countries.get(core.world_map().country_code(n))
            if controller is None:
                continue  # neutral country
            zone.add(n)
    return out


def enemy_zoc(state, power: str) -> set:
    return _zoc_of(state, _hostile(state, power))


# ---------------------------------------------------------------- the movement context
class MoveRules:
    """Everything one unit's move asks, gathered once so a search stays fast."""

    def __init__(self, state, unit):
        self.state = state
        self.unit = unit
        self.power = unit.power
        self.side = core.side_of(state, unit.power)
        self.friends = set(core.powers_of_side(state, self.side)) if self.side else {unit.power}
        hostile = _hostile(state, unit.power)
        self.hostile = hostile
        w = core.world(state)
        self.hex_control = w.hex_control
        self.countries = w.countries
        self.weather_by_zone = w.weather
        self.map = core.world_map()
        self.zoc_by_stack = _zoc_by_stack(state, hostile)
        self.zoc = set().union(*self.zoc_by_stack.values())
        # Partisans: "They may move anywhere within their home country, but they can never leave
        # their home country" (the country is the unit's flag "home:XX", set when it arrives)
        self.home = next((f[5:] for f in unit.flags if f.startswith("home:")), None) \
            if unit.type in OWN_HEX_ZOC_TYPES else None
        u = state["units"]
        self.enemy_land: set = set()
        self.enemy_other: set = set()
        for key, ids in u.at_hex.items():
            for i in ids:
                x = u.units[i]
                if hostile(x.power):
                    (self.enemy_land if x.branch == "land" else self.enemy_other).add(core.key_hex(key))
        self._weather: dict = {}

    def without_zoc_of(self, hex_) -> "MoveRules":
        """These rules with the enemy zone of control of the stack in ``hex_`` left out (an
        overrun's target does not stop the unit on its way in)."""
        skip = core.hex_key(hex_)
        other = copy.copy(self)
        other.zoc = set().union(*(z for key, z in self.zoc_by_stack.items() if key != skip))
        return other

    def weather(self, hex_) -> str:
        w = self._weather.get(hex_)
        if w is None:
            w = self._weather[hex_] = self.weather_by_zone.get(str(self.map.weather_zone(hex_)), "fine")
        return w

    def controller(self, hex_):
        c = self.hex_control.get(f"{hex_[0]},{hex_[1]}")
        return c if c is not None else self.countries.get(self.map.country_code(hex_))

    def step(self, a, b, side_kind) -> tuple[int | None, str]:
        """Cost of moving from ``a`` into its neighbour ``b``, or (None, reason naming the rule)."""
        wb = self.weather(b)
        cost = hex_cost(self.state, b, wb)
        if cost is None:
            t = _terrain(b)
            what = "an unfrozen lake" if t == "lake" else "the sea"
            return None, f"Land Movement: land units cannot enter {what} (hex {b[0]},{b[1]})"
        extra = hexside_cost(side_kind, self.weather(a), wb)
        if extra is None:
            return None, (f"Weather Report: the lake hexside between {a[0]},{a[1]} and {b[0]},{b[1]} "
                          "is not frozen and cannot be crossed")
        if b in self.enemy_land:
            return None, (f"Land Movement: hex {b[0]},{b[1]} holds enemy land units "
                          "(a unit enters such a hex only at the end of its move, by overrunning them)")
        if self.home is not None and self.map.country_code(b) != self.home:
            return None, f"Partisans: a partisan never leaves its home country ({self.home}); hex {b[0]},{b[1]} is outside it"
        owner = self.controller(b)
        if owner is None or (owner not in self.friends and not self.hostile(owner)):
            return None, f"Land Movement: hex {b[0]},{b[1]} is neutral territory ({owner or 'no major power'})"
        return cost + extra, ""


def _unit(state, unit_id: str):
    unit = state["units"].units.get(unit_id)
    if unit is None:
        raise Rejected(f"Land Movement: there is no unit {unit_id!r}")
    if unit.branch != "land":
        raise Rejected(f"Land Movement: {unit.name or unit.id} is not a land unit")
    if not unit.on_map:
        raise Rejected(f"Land Movement: {unit.name or unit.id} is not on the map ({unit.where})")
    return unit


def movement_allowance(unit) -> int:
    return int(unit.factors.get("move", 0))


def reachable(state, unit_id: str, rules: MoveRules | None = None) -> dict:
    """Every hex the unit can reach this phase: ``{hex: (cost, previous hex)}``.

    The unit's own hex is included with cost 0 and previous None.  Hexes in an enemy ZOC
    are reached but not left (Land Movement stops there).  Ending the move in a reached
    hex may still be refused by stacking (``stacking_problems``)."""
    unit = _unit(state, unit_id)
    rules = rules or MoveRules(state, unit)
    ma = movement_allowance(unit)
    start = norm(unit.hex)
    best = {start: (0, None)}
    heap = [(0, start)]
    zoc = rules.zoc
    step = rules.step
    while heap:
        c, h = heapq.heappop(heap)
        if c > best[h][0]:
            continue
        if h != start and h in zoc:
            continue  # entered an enemy ZOC: the move stops here
        if c >= ma:
            continue
        for n, kind in _adjacent(h):
            old = best.get(n)
            if old is not None and old[0] <= c + 1:
                continue
            cost, _ = step(h, n, kind)
            if cost is None:
                continue
            nc = c + cost
            if nc <= ma and (old is None or nc < old[0]):
                best[n] = (nc, h)
                heapq.heappush(heap, (nc, n))
    return best


def path_cost(state, unit_id: str, path, rules: MoveRules | None = None) -> int:
    """Movement points the unit spends along ``path`` (hexes entered, in order; the
    unit's own hex may lead).  Raises Rejected naming the rule when the path is illegal."""
    unit = _unit(state, unit_id)
    rules = rules or MoveRules(state, unit)
    hexes = [norm(h) for h in path]
    if hexes and hexes[0] == norm(unit.hex):
        hexes = hexes[1:]
    if not hexes:
        raise Rejected("Land Movement: the path enters no hex")
    total, _ = walk_path(rules, unit, hexes)
    ma = movement_allowance(unit)
    if total > ma:
        raise Rejected(f"Land Movement: the path costs {total} movement points, "
                       f"{unit.name or unit.id} has {ma}")
    return total


def walk_path(rules: MoveRules, unit, hexes) -> tuple[int, tuple[int, int]]:
    """Walk ``hexes`` (entered in order, from the unit's hex) under ``rules``: the movement
    points spent and the hex reached.  Raises Rejected naming the rule at the first
    illegal step (not adjacent, sea, neutral, enemy, or leaving an enemy ZOC)."""
    here = norm(unit.hex)
    total = 0
    for i, h in enumerate(hexes):
        if i and here in rules.zoc:
            raise Rejected(f"Land Movement: {unit.name or unit.id} must stop on entering the enemy zone of control "
                           f"at {here[0]},{here[1]}")
        kind = next((k for n, k in _adjacent(here) if n == h), False)
        if kind is False:
            raise Rejected(f"Land Movement: hex {h[0]},{h[1]} is not adjacent to {here[0]},{here[1]}")
        cost, reason = rules.step(here, h, kind)
        if cost is None:
            raise Rejected(reason)
        total += cost
        here = h
    return total, here


def cheapest_path(state, unit_id: str, to, found: dict | None = None) -> list[tuple[int, int]]:
    """The cheapest legal path to ``to`` (hexes entered, without the start); ``found`` is the
    unit's ``reachable`` answer when the caller has it already."""
    unit = _unit(state, unit_id)
    to = norm(to)
    found = found if found is not None else reachable(state, unit_id)
    if to not in found:
        raise Rejected(f"Land Movement: {unit.name or unit.id} cannot reach {to[0]},{to[1]} this phase "
                       f"(movement allowance {movement_allowance(unit)}, terrain, weather, zones of control)")
    path = []
    h = to
    while h is not None and found[h][1] is not None:
        path.append(h)
        h = found[h][1]
    return list(reversed(path))


# ---------------------------------------------------------------- stacking
def land_stack_ok(units) -> bool:
    """Over-Stacked Hex: "Up to 2 land units can stack in a hex.  You can stack 3 land units
    in a hex if the 3rd unit is a division, artillery, or supply unit." """
    n = len(units)
    if n <= 2:
        return True
    if n == 3:
        return any(is_division(u) or u.type in ARTILLERY_TYPES or u.type in SUPPLY_TYPES for u in units)
    return False


LAND_LIMIT_TEXT = ("Over-Stacked Hex: at most 2 land units in a hex "
                   "(3 if the third is a division, artillery or supply unit)")


# Over-Stacked Hex, aircraft unit limits: "Minor port hex: 2 / Major port or city hex: 3 /
# Mountain, desert mountain, or swamp hex: 0 / Any other hex: 1 / Hex with HQ: +1"
AIR_LIMITS = {"minor port": 2, "major port or city": 3, "rough": 0, "other": 1}
AIR_LIMIT_ROUGH = ("mountain", "desert mountain", "swamp")


def is_engineer(unit) -> bool:
    """An ENG: a land unit of type "eng" (or flagged "engineer") in the counter data."""
    return unit.branch == "land" and (unit.type.lower() in ("eng", "engineer") or "engineer" in unit.flags)


def air_limit(state, hex_) -> int:
    """Over-Stacked Hex, aircraft unit limits (not flying a mission).  "If several limits apply
    (e.g. a city in a mountain hex), the highest of them applies"; an HQ adds 1, and "Each ENG
    (even if it is disorganized) increases the aircraft stacking limit of a hex by 1".  The
    terrain is the weather's (a swamp in snow is forest).  Flying boats (their own limit of 1)
    are an optional rule this edition does not offer."""
    m = core.world_map()
    terrain = effective_terrain(_terrain(norm(hex_)),
                                effective_weather(core.weather_in(state, hex_), _terrain(norm(hex_))))
    limits = [AIR_LIMITS["rough"] if terrain in AIR_LIMIT_ROUGH else AIR_LIMITS["other"]]
    city = m.city_at(hex_)
    if city is not None:
        # the map's ports are all in city records, so a minor port there counts as a city
        limits.append(AIR_LIMITS["major port or city"])
        if city.port == "minor":
            limits.append(AIR_LIMITS["minor port"])
    limit = max(limits)
    here = state["units"].in_hex(hex_)
    if any(core.is_hq(u) for u in here):
        limit += 1
    return limit + sum(1 for u in here if is_engineer(u))


def stacking_breaches(state, hex_, adding=(), leaving=()) -> dict[str, str]:
    """Which stacking limits ``hex_`` breaks, counting the units in ``adding`` as if they were
    there and those in ``leaving`` as gone: {"land" | "air" | "sides": reason}.

    Over-Stacked Hex: "Stacking limits for land, aircraft, and naval units are independent";
    "Units that can't co-operate (see RAC 18.1) can't stack together in the same hex"."""
    gone = set(leaving)
    units = [u for u in state["units"].in_hex(tuple(hex_)) if u.id not in gone] + list(adding)
    out = {}
    land = [u for u in units if u.branch == "land"]
    if not land_stack_ok(land):
        out["land"] = f"{LAND_LIMIT_TEXT}: hex {hex_[0]},{hex_[1]} would hold {len(land)}"
    if len({core.side_of(state, u.power) for u in units}) > 1:
        out["sides"] = f"Over-Stacked Hex: units that can't co-operate can't stack together (hex {hex_[0]},{hex_[1]})"
    air = [u for u in units if u.branch == "air"]
    if air:
        limit = air_limit(state, hex_)
        if len(air) > limit:
            out["air"] = f"Over-Stacked Hex: at most {limit} aircraft in hex {hex_[0]},{hex_[1]}, it holds {len(air)}"
    return out


def stacking_problems(state, hex_, adding=(), leaving=()) -> list[str]:
    """What breaks the stacking limits in ``hex_`` (empty: nothing); see ``stacking_breaches``."""
    return list(stacking_breaches(state, hex_, adding, leaving).values())


def overstacked_branches(state, hex_) -> set[str]:
    """Which kinds of unit ("land", "air") break their stacking limit in ``hex_``."""
    return set(stacking_breaches(state, hex_)) & {"land", "air"}


def overstacked_hexes(state) -> dict[tuple[int, int], list[str]]:
    out = {}
    for key in state["units"].at_hex:
        hex_ = core.key_hex(key)
        problems = stacking_problems(state, hex_)
        if problems:
            out[hex_] = problems
    return out
