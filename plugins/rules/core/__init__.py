"""Shared World in Flames state and the questions every rule asks of it.

The state model lives here so that rule plugins can depend on it without depending on
each other: the procedures that change it (initiative, weather, action choice, combat…)
are in their own plugins and emit the events defined here.

Conventions used by every WiF plugin:
- sides are "axis" and "allies"; powers are lower-case major-power ids ("germany", "ussr");
- the active side of the kernel (``state.kernel.active_side``) is the phasing side;
- hexes are ``(col, row)`` on the world map; in state dicts they are keyed "col,row";
- countries are the map's 2-letter codes (maps/world/countries.csv).
"""

from __future__ import annotations

from functools import cache
from typing import Iterable

from pydantic import BaseModel, Field

from kernel.events import EventData
from kernel.registry import Registry
from .names import power_name

rules = Registry()

ACTIONS = ("pass", "naval", "air", "land", "combined")  # Action Choice (see RAC 10)
WEATHER = ("fine", "rain", "snow", "storm", "blizzard")  # Weather Report


@cache
def world_map():
    """The world map, loaded once per process (it is read-only)."""
    from kernel.worldmap import WorldMap

    return WorldMap()


# Unit types.  The counters' type ids of an HQ (seeds, "Headquarters": HQ-I, HQ-A and the
# partisan HQ); the one home of "is this unit an HQ" for movement, combat and supply.
HQ_TYPES = frozenset({"hq", "hq-i", "hq-a", "hq-p", "hqa", "hqi"})


def is_hq(unit) -> bool:
    """A land HQ counter (any type id starting "hq" counts, as modded counters spell them)."""
    return unit.branch == "land" and (unit.type in HQ_TYPES or unit.type.startswith("hq"))


def hex_key(hex_) -> str:
    return f"{hex_[0]},{hex_[1]}"


def key_hex(key: str) -> tuple[int, int]:
    col, row = key.split(",")
    return int(col), int(row)


# ---------------------------------------------------------------- state
class PowerImpulse(BaseModel):
    """What a major power chose this impulse and how much of it it has used."""

    action: str | None = None
    used: dict[str, int] = Field(default_factory=dict)  # activity kind -> count used
    # Pick HQ, Combined action: with an offensive chit a combined action allows "the maximum
    # number of activities that would be allowed if you had chosen a naval, an air and a land
    # action" (ActionWidened)
    widened: bool = False


@rules.state("core.world")
class World(BaseModel):
    # country code -> major power controlling it (absent: neutral)
    countries: dict[str, str] = Field(default_factory=dict)
    # hexes whose control differs from their country's controller: "col,row" -> power
    hex_control: dict[str, str] = Field(default_factory=dict)
    at_war: list[tuple[str, str]] = Field(default_factory=list)  # sorted pairs of powers
    weather: dict[str, str] = Field(default_factory=dict)  # weather zone id -> weather
    initiative: str | None = None  # the side holding the initiative this turn
    impulses: dict[str, PowerImpulse] = Field(default_factory=dict)  # power -> this impulse
    last_turn: int = 0  # the scenario's final turn (0: open-ended)
    # Fortification Hexside: forts "are destroyed permanently as soon as an enemy land unit
    # enters their hex" — the fortified hexes ("col,row") whose forts are gone
    forts_destroyed: list[str] = Field(default_factory=list)
    # Supply Sources and Paths: "A city can only be a supply source for a unit if it has not
    # been controlled by the other side at any time in the turn" — "col,row" -> [turn, power,
    # …]: the powers that took control of the hex during that turn (older turns are stale)
    taken_this_turn: dict[str, list] = Field(default_factory=dict)
    # Supply Sources and Paths ("unconquered home country"): conquered country -> conqueror
    conquered: dict[str, str] = Field(default_factory=dict)


def world(state) -> World:
    return state["core.world"]


# ---------------------------------------------------------------- queries
def side_of(state, power: str) -> str | None:
    return state.kernel.side_of(power)


def powers_of_side(state, side: str) -> list[str]:
    return list(state.kernel.sides.get(side, []))


def enemies(state, power_a: str, power_b: str) -> bool:
    """At war with each other (Declaring War; in scenarios, the starting state)."""
    pair = tuple(sorted((power_a, power_b)))
    return pair in {tuple(p) for p in world(state).at_war}


def country_controller(state, country: str | None) -> str | None:
    return world(state).countries.get(country) if country else None


def hex_controller(state, hex_) -> str | None:
    """The power controlling a land hex: its own control marker, else its country's."""
    w = world(state)
    key = hex_key(hex_)
    if key in w.hex_control:
        return w.hex_control[key]
    return w.countries.get(world_map().country_code(tuple(hex_)))


def controllers_this_turn(state, hex_) -> list[str]:
    """The powers that took control of the hex during the current turn (HexControlChanged),
    for Supply Sources and Paths' "controlled by the other side at any time in the turn"."""
    entry = world(state).taken_this_turn.get(hex_key(hex_))
    if not entry or entry[0] != state.kernel.turn:
        return []
    return list(entry[1:])


def conquered_by(state, country: str | None) -> str | None:
    """The major power that conquered the country, or None while it is unconquered."""
    return world(state).conquered.get(country) if country else None


def weather_in(state, hex_) -> str:
    zone = world_map().weather_zone(tuple(hex_))
    return world(state).weather.get(str(zone), "fine")


def across_fort(state, a, b) -> bool:
    """Moving or attacking from ``a`` into ``b`` across an intact fortification hexside that
    protects ``b`` (Fortification Hexside; there is no effect out of a fortification hex)."""
    m = world_map()
    a, b = m.grid.normalize(tuple(a)), m.grid.normalize(tuple(b))
    side = m.grid.hexside_between(a, b)
    fort = m.fort(side) if side is not None else None
    if fort is None or (fort.col, fort.row) != b:
        return False
    return hex_key(b) not in world(state).forts_destroyed


def action_of(state, power: str) -> str | None:
    entry = world(state).impulses.get(power)
    return entry.action if entry else None


def used(state, power: str, kind: str) -> int:
    entry = world(state).impulses.get(power)
    return entry.used.get(kind, 0) if entry else 0


# ---------------------------------------------------------------- events
@rules.event
class CountryControlSet(EventData):
    country: str
    power: str | None


@rules.event
class HexControlChanged(EventData):
    hex: tuple[int, int]
    power: str | None  # None: back to its country's controller


@rules.event
class CountryConquered(EventData):
    """A country was conquered (``conqueror`` a major power) or liberated (``conqueror`` None).
    The conquest procedure (RAC 13.7) is outside the seeds; scenarios and later rules emit it."""

    country: str
    conqueror: str | None


@rules.event
class WarDeclared(EventData):
    powers: tuple[str, str]


@rules.event
class WeatherSet(EventData):
    weather: dict[str, str]  # zone id -> weather
    roll: int | None = None


@rules.event
class InitiativeSet(EventData):
    side: str


@rules.event
class ActionChosen(EventData):
    power: str
    action: str


@rules.event
class ActionWidened(EventData):
    """This impulse the power's combined action allows the activities of a naval, an air and a
    land action (the hook point of the optional rule Offensive chits)."""

    power: str


@rules.event
class ActivityUsed(EventData):
    power: str
    kind: str  # e.g. "land-move", "rail-move", "attack", "air-mission", "air-rebase"
    count: int = 1


@rules.event
class ImpulseReset(EventData):
    """A new impulse: every power's action and activities are cleared."""


@rules.event
class LastTurnSet(EventData):
    turn: int


@rules.reducer("CountryControlSet")
def _country(state, event):
    d = event.data
    if d["power"] is None:
        world(state).countries.pop(d["country"], None)
    else:
        world(state).countries[d["country"]] = d["power"]


@rules.reducer("HexControlChanged")
def _hex(state, event):
    d = event.data
    key = hex_key(d["hex"])
    w = world(state)
    country_owner = w.countries.get(world_map().country_code(tuple(d["hex"])))
    before = w.hex_control.get(key, country_owner)
    # Control passes when an enemy land unit enters: the hex's forts are destroyed for good.
    if (d["power"] is not None and before is not None and d["power"] != before
            and key not in w.forts_destroyed and world_map().forts_of(tuple(d["hex"]))):
        w.forts_destroyed.append(key)
    if d["power"] is None or d["power"] == country_owner:
        w.hex_control.pop(key, None)
    else:
        w.hex_control[key] = d["power"]
    after = d["power"] if d["power"] is not None else country_owner
    if after is not None and after != before:
        turn = state.kernel.turn
        entry = w.taken_this_turn.get(key)
        if not entry or entry[0] != turn:
            entry = w.taken_this_turn[key] = [turn]
        if after not in entry[1:]:
            entry.append(after)
        # entries of earlier turns say nothing any more: drop them so the section stays small
        for stale in [k for k, e in w.taken_this_turn.items() if e[0] != turn]:
            del w.taken_this_turn[stale]


@rules.reducer("CountryConquered")
def _conquered(state, event):
    d = event.data
    if d["conqueror"] is None:
        world(state).conquered.pop(d["country"], None)
    else:
        world(state).conquered[d["country"]] = d["conqueror"]


@rules.reducer("WarDeclared")
def _war(state, event):
    pair = tuple(sorted(event.data["powers"]))
    w = world(state)
    if pair not in {tuple(p) for p in w.at_war}:
        w.at_war.append(pair)


@rules.reducer("WeatherSet")
def _weather(state, event):
    world(state).weather.update(event.data["weather"])


@rules.reducer("InitiativeSet")
def _initiative(state, event):
    world(state).initiative = event.data["side"]


@rules.reducer("ActionChosen")
def _action(state, event):
    d = event.data
    world(state).impulses.setdefault(d["power"], PowerImpulse()).action = d["action"]


@rules.reducer("ActionWidened")
def _widened(state, event):
    world(state).impulses.setdefault(event.data["power"], PowerImpulse()).widened = True


@rules.reducer("ActivityUsed")
def _activity(state, event):
    d = event.data
    entry = world(state).impulses.setdefault(d["power"], PowerImpulse())
    entry.used[d["kind"]] = entry.used.get(d["kind"], 0) + d["count"]


@rules.reducer("ImpulseReset")
def _impulse_reset(state, event):
    world(state).impulses.clear()


@rules.reducer("LastTurnSet")
def _last_turn(state, event):
    world(state).last_turn = event.data["turn"]


@rules.hexes("HexControlChanged")
def _control_hex(event, state):
    """A control change's hex (weather covers whole zones and is shown by the weather
    layer, not outlined)."""
    return [tuple(event.data["hex"])]


@rules.describe("ActionChosen")
def _say_action(event, state):
    d = event.data
    return f"{power_name(d['power'])} chooses a {d['action'].capitalize()} action"


@rules.describe("ActionWidened")
def _say_widened(event, state):
    return f"{event.data['power']}: a combined action this impulse allows the activities of a naval, an air and a land action"


@rules.describe("WeatherSet")
def _say_weather(event, state):
    d = event.data
    roll = f" (roll {d['roll']})" if d.get("roll") is not None else ""
    return "Weather" + roll + ": " + ", ".join(f"zone {z} {w}" for z, w in sorted(d["weather"].items()))


@rules.describe("InitiativeSet")
def _say_initiative(event, state):
    return f"The {event.data['side']} side has the initiative"


@rules.describe("HexControlChanged")
def _say_control(event, state):
    d = event.data
    return f"{d['power'] or 'its owner'} takes control of hex {tuple(d['hex'])}"


@rules.describe("CountryConquered")
def _say_conquered(event, state):
    d = event.data
    who = d["conqueror"]
    return f"{d['country']} is conquered by {who}" if who else f"{d['country']} is liberated"


@rules.describe("WarDeclared")
def _say_war(event, state):
    d = event.data
    return f"{d['powers'][0]} and {d['powers'][1]} are at war"


def emit_all(ctx, models: Iterable[EventData]) -> None:
    for model in models:
        ctx.emit(model)


rules.export(globals())
