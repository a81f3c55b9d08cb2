"""Partisans: the rule's state, events and log (seeds, "Partisans"), and the partisan table
(``data/partisan_table.json``, authored: see its header)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel.events import Command, EventData
from kernel.registry import Registry
from plugins.rules import core
from plugins.rules.core.names import power_name

rules = Registry()

RULE_ID = "partisans"
RULE = "Partisans"
ROLLS = "wif.turn.end-of-turn.partisans.partisan-rolls"
PLACE = "wif.turn.end-of-turn.partisans.place-partisans"
SETUP_PLACE = "wif.new-game.setup.placing-partisans-on-the-map"
PARTISAN_TYPE = "partisan"
DATA = Path(__file__).resolve().parent / "data" / "partisan_table.json"
HEAVY_TYPES = {"arm", "armor", "armour", "mech", "mtn", "mountain", "ss", "hq-a", "hqa"}


@cache
def table() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def country_rows() -> list[dict]:
    return table()["countries"]


def country_name(code: str) -> str:
    return next((r["name"] for r in country_rows() if r["code"] == code), code)


def enemies_of(state, power: str):
    return lambda other: other != power and core.enemies(state, power, other)


# ---------------------------------------------------------------- state and events
@rules.state("optional.partisans")
class PartisanState(BaseModel):
    waiting: list[dict] = Field(default_factory=list)  # {id, power, country, combat, move}, in table order
    drawn: int = 0  # partisans drawn so far (numbers their ids)


@rules.event
class PartisanCheckRolled(EventData):
    country: str
    check_roll: int
    checks: bool
    roll: int | None = None  # the 2d10 of how many arrive
    effective: float | None = None  # partisan number + present - garrison
    arriving: int = 0


@rules.event
class PartisansArrived(EventData):
    country: str
    power: str
    partisans: list[dict]  # {id, combat, move}


@rules.event
class PartisansLapsed(EventData):
    partisans: list[str]
    reason: str


class PlacePartisan(Command):
    unit: str
    hex: tuple[int, int]


def partisan_state(state) -> PartisanState:
    return state["optional.partisans"]


@rules.reducer("PartisanCheckRolled")
def _rolled(state, event) -> None:
    pass  # a fact for the log and the Partisans form


@rules.reducer("PartisansArrived")
def _arrived(state, event) -> None:
    s = partisan_state(state)
    d = event.data
    for p in d["partisans"]:
        s.waiting.append({"id": p["id"], "power": d["power"], "country": d["country"],
                          "combat": p["combat"], "move": p["move"]})
        s.drawn += 1


@rules.reducer("PartisansLapsed")
def _lapsed(state, event) -> None:
    gone = set(event.data["partisans"])
    s = partisan_state(state)
    s.waiting = [p for p in s.waiting if p["id"] not in gone]


@rules.event
class PartisanPlaced(EventData):
    unit: str
    hex: tuple[int, int]


@rules.reducer("PartisanPlaced")
def _placed(state, event) -> None:
    s = partisan_state(state)
    s.waiting = [p for p in s.waiting if p["id"] != event.data["unit"]]


# ---------------------------------------------------------------- the log
@rules.describe("PartisanCheckRolled")
def _say_rolled(event, state):
    d = event.data
    name = country_name(d["country"])
    if not d["checks"]:
        return f"Partisans: {name} does not check for partisans (d10 {d['check_roll']})"
    return (f"Partisans: {name} checks (d10 {d['check_roll']}); 2d10 {d['roll']} against effective partisan "
            f"number {d['effective']:g}: {d['arriving']} arrive")


@rules.describe("PartisansArrived")
def _say_arrived(event, state):
    d = event.data
    kinds = ", ".join(f"{p['combat']}-{p['move']}" for p in d["partisans"])
    return f"Partisans: {len(d['partisans'])} arrive in {d['country']} for {power_name(d['power'])} ({kinds})"


@rules.describe("PartisanPlaced")
def _say_placed(event, state):
    h = event.data["hex"]
    return f"Partisans: {event.data['unit']} placed at {h[0]},{h[1]}"


@rules.describe("PartisansLapsed")
def _say_lapsed(event, state):
    return f"Partisans: {', '.join(event.data['partisans'])} did not arrive ({event.data['reason']})"

