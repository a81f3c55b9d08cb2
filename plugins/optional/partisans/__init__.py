"""Optional rule Partisans (seeds, "Partisans" L4087-4257; end-of-turn phase "Partisans"
L10930-10959; setup "Placing Partisans on the Map" L10110-10124).

End of turn, step Partisan Rolls (automatic): for each country of the partisan table
(``data/partisan_table.json``, authored: see its header) whose partisans a major power of the
game controls and that "has either been conquered or at least 1 of its hexes contains an
enemy unit", a first die says whether it checks for partisans, a second how many arrive (0-3),
moved by the partisans already there and the enemy garrison ("organized, not in an enemy ZOC,
on the opposite side"), never above the country's maximum.  Each arriving partisan is drawn
from the year's pool and waits (``PartisansArrived``) for its controller.

Step Place Partisans (decided by the powers with partisans waiting): ``PlacePartisan {unit,
hex}`` puts the first waiting partisan ("the program enforces the order") in "any enemy
controlled hex in the partisan's country that is not in an enemy ZOC"; one with no such hex
"does not arrive" (``PartisansLapsed`` when the step ends).  Handler, choices and preview ask
``placement_problem``.  The units are of type ``partisan``, which the base rules already know:
always in supply (supply), a ZOC in their own hex only and no change of hex control (land).
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from kernel.registry import Registry
from plugins.optional.framework import is_on
from plugins.rules import core
from plugins.rules.land.movement import enemy_zoc, is_division, stacking_problems, zoc_hexes
from plugins.rules.turn import current_date
from plugins.rules.units import Unit, UnitCreated, units

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


# ---------------------------------------------------------------- the rules
def _home(unit) -> str | None:
    return next((f[5:] for f in unit.flags if f.startswith("home:")), None)


def partisans_in(state, country: str) -> list[Unit]:
    return [u for u in units(state).units.values()
            if u.type == PARTISAN_TYPE and u.on_map and _home(u) == country]


def maximum(row: dict) -> int:
    """ "The maximum = (Partisan #) * (table occurrences) / 5, with a minimum of 2 if the
    partisan # is 4 or more" (rounded to the nearest, as the seeds' examples show)."""
    n = math.floor(row["partisan_number"] * row["occurrences"] / 5 + 0.5)
    return max(n, 2) if row["partisan_number"] >= 4 else n


def garrison_value(unit) -> float:
    """Seeds: "0.5 for divisions, 0 for carrier air units and all naval units, 2 for armor,
    mechanized, mountain, SS, and HQ A units (corps/army size), and 1 for all other land and
    air units"."""
    if unit.branch == "naval" or (unit.branch == "air" and unit.type in {"cvp", "carrier"}):
        return 0.0
    if unit.branch == "land" and is_division(unit):
        return 0.5
    if unit.branch == "land" and unit.type.lower() in HEAVY_TYPES:
        return 2.0
    return 1.0


def _country_hexes(code: str) -> list[tuple[int, int]]:
    return core.world_map().hexes_of_country(code)


def enemies_of(state, power: str):
    return lambda other: other != power and core.enemies(state, power, other)


def garrison(state, row: dict) -> float:
    """Garrison duty: enemy units in the country, "(1) organized, (2) not in an enemy ZOC, and
    (3) on the opposite side from the side that will control the partisan"."""
    hostile = enemies_of(state, row["power"])
    partisan_zoc = zoc_hexes(state, core.side_of(state, row["power"]))
    m = core.world_map()
    return sum(garrison_value(u) for u in units(state).units.values()
               if u.on_map and u.face_up and hostile(u.power) and m.country_code(tuple(u.hex)) == row["code"]
               and tuple(u.hex) not in partisan_zoc)


def eligible(state, row: dict) -> str | None:
    """Why the country does not check for partisans now, or None: "the country has either
    been conquered or at least 1 of its hexes contains an enemy unit"."""
    power = row["power"]
    if power not in state.kernel.powers():
        return f"no major power of this game controls the partisans of {row['name']}"
    if core.conquered_by(state, row["code"]):
        return None
    hostile = enemies_of(state, power)
    m = core.world_map()
    if any(u.on_map and hostile(u.power) and m.country_code(tuple(u.hex)) == row["code"]
           for u in units(state).units.values()):
        return None
    return f"{row['name']} is neither conquered nor invaded"


def arrivals(roll: int, effective: float) -> int:
    """How many partisans a 2d10 roll brings (authored: see the data header)."""
    if roll <= effective / 3:
        return 3
    if roll <= effective / 2:
        return 2
    return 1 if roll <= effective else 0


def pool_row(state) -> list[dict]:
    year, _ = current_date(state)
    years = sorted(int(y) for y in table()["pool"])
    chosen = max((y for y in years if y <= year), default=years[0])
    return table()["pool"][str(chosen)]


def draw(roll: int, pool: list[dict]) -> dict:
    """The partisan a d10 draws from the year's pool (each kind has ``chance`` faces)."""
    face = 0
    for kind in pool:
        face += kind["chance"]
        if roll <= face:
            return kind
    return pool[-1]


def legal_hexes(state, power: str, country: str) -> list[tuple[int, int]]:
    """ "any enemy controlled hex in the partisan's country that is not in an enemy ZOC" (and
    holding no enemy unit, within the stacking limits: see the data header)."""
    hostile = enemies_of(state, power)
    zoc = enemy_zoc(state, power)
    probe = _probe(power)
    out = []
    for h in _country_hexes(country):
        if h in zoc or not core.world_map().is_land(h):
            continue
        owner = core.hex_controller(state, h)
        if owner is None or not hostile(owner):
            continue
        here = units(state).in_hex(h)
        if any(hostile(u.power) for u in here):
            continue
        if stacking_problems(state, h, adding=[probe]):
            continue
        out.append(h)
    return sorted(out, key=lambda h: (h[1], h[0]))


def _probe(power: str) -> Unit:
    return Unit(id="partisan-probe", power=power, branch="land", type=PARTISAN_TYPE, size="army",
                factors={"combat": 1, "move": 2}, hex=None, where="arriving")


def next_waiting(state, power: str) -> dict | None:
    return next((p for p in partisan_state(state).waiting if p["power"] == power), None)


def placement_problem(state, power: str, unit_id: str, hex_) -> str | None:
    """Why ``power`` may not place the partisan ``unit_id`` in ``hex_`` now, or None."""
    if not is_on(state, RULE_ID):
        return f"{RULE}: this optional rule is not in play"
    if state.kernel.sequence.current != PLACE:
        return f"{RULE}: partisans are placed in the Place Partisans step of the end of turn"
    first = next_waiting(state, power)
    if first is None:
        return f"{RULE}: {power} has no partisan waiting to be placed"
    if unit_id != first["id"]:
        waiting = [p["id"] for p in partisan_state(state).waiting]
        if unit_id not in waiting:
            return f"{RULE}: {unit_id!r} is no partisan waiting to be placed"
        return f"{RULE}: partisans are placed in the order of the partisan table; {first['id']} comes first"
    hex_ = tuple(hex_)
    if hex_ not in set(legal_hexes(state, power, first["country"])):
        name = next(r["name"] for r in country_rows() if r["code"] == first["country"])
        return (f"{RULE}: a partisan is placed in an enemy-controlled hex of {name} that is not in an "
                f"enemy ZOC and holds no enemy unit, within the stacking limits; {hex_[0]},{hex_[1]} is not one")
    return None


def _partisan_unit(p: dict, hex_) -> Unit:
    row = next(r for r in country_rows() if r["code"] == p["country"])
    return Unit(id=p["id"], power=p["power"], branch="land", type=PARTISAN_TYPE, size="army",
                name=f"{row['name']} partisans {p['combat']}-{p['move']}",                 factors={"combat": p["combat"], "move": p["move"]}, flags=["partisan", f"home:{p['country']}"],
                hex=tuple(hex_), where="map")


# ---------------------------------------------------------------- Partisan Rolls
@rules.step_rule(ROLLS)
def partisan_rolls(ctx, step_id: str) -> None:
    state = ctx.state
    if not is_on(state, RULE_ID):
        return
    s = partisan_state(state)
    if s.waiting:  # a partisan left from an earlier turn never arrived
        ctx.emit(PartisansLapsed(partisans=[p["id"] for p in s.waiting],
                                 reason="no legal hex was found for it when it arrived"))
    for row in country_rows():
        if eligible(state, row) is not None:
            continue
        check = ctx.roll(f"Partisans: does {row['name']} check for partisans", 10, 1)[0]
        if check > row["occurrences"]:
            ctx.emit(PartisanCheckRolled(country=row["code"], check_roll=check, checks=False))
            continue
        present = len(partisans_in(state, row["code"]))
        effective = row["partisan_number"] + present - garrison(state, row)
        roll = sum(ctx.roll(f"Partisans: how many arrive in {row['name']}", 10, 2))
        room = max(0, maximum(row) - present)
        if not legal_hexes(state, row["power"], row["code"]):
            room = 0  # "If there is no such hex, the partisan does not arrive"
        count = min(arrivals(roll, effective), room)
        ctx.emit(PartisanCheckRolled(country=row["code"], check_roll=check, checks=True, roll=roll,
                                     effective=effective, arriving=count))
        if count:
            pool = pool_row(state)
            drawn = []
            for i in range(count):
                kind = draw(ctx.roll(f"Partisans: the {row['name']} partisan drawn", 10, 1)[0], pool)
                drawn.append({"id": f"partisan-{row['code'].lower()}-{partisan_state(state).drawn + i + 1}",
                              "combat": kind["combat"], "move": kind["move"]})
            ctx.emit(PartisansArrived(country=row["code"], power=row["power"], partisans=drawn))


# ---------------------------------------------------------------- Place Partisans
def place_partisan(ctx, cmd: PlacePartisan) -> None:
    problem = placement_problem(ctx.state, cmd.actor, cmd.unit, cmd.hex)
    if problem:
        raise Rejected(problem)
    waiting = next_waiting(ctx.state, cmd.actor)
    ctx.emit(PartisanPlaced(unit=cmd.unit, hex=tuple(cmd.hex)))
    ctx.emit(UnitCreated(unit=_partisan_unit(waiting, cmd.hex)))


def place_choices(state, actor: str, step_id: str):
    if not is_on(state, RULE_ID) or step_id != PLACE:
        return None
    first = next_waiting(state, actor)
    if first is None:
        return None
    hexes = legal_hexes(state, actor, first["country"])
    if not hexes:
        return None
    label = f"{first['id']} ({first['combat']}-{first['move']})"
    return [one_of("unit", "unit", [first["id"]], label=lambda _u: label,
                   then=lambda _u: [one_of("hex", "hex", hexes)])]


def place_preview(state, cmd: PlacePartisan) -> dict:
    problem = placement_problem(state, cmd.actor, cmd.unit, cmd.hex)
    if problem:
        raise Rejected(problem)
    return {"hex": list(cmd.hex), "country": next_waiting(state, cmd.actor)["country"]}


rules.command(PlacePartisan, choices=place_choices, preview=place_preview)(place_partisan)


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if kind != "rule:partisan-controllers" or not is_on(state, RULE_ID):
        return None
    return [p for p in state.kernel.powers() if next_waiting(state, p) is not None]


@hookimpl
def finish_step_refusal(state, step_id, power):
    if step_id != PLACE or not is_on(state, RULE_ID):
        return None
    first = next_waiting(state, power)
    if first is not None and legal_hexes(state, power, first["country"]):
        return f"{RULE}: place {first['id']} first (an arriving partisan is placed if it has a legal hex)"
    return None


@hookimpl
def step_ended(ctx, step_id, spec):
    if step_id != PLACE or not is_on(ctx.state, RULE_ID):
        return
    left = [p["id"] for p in partisan_state(ctx.state).waiting]
    if left:
        ctx.emit(PartisansLapsed(partisans=left, reason="no enemy-controlled hex of its country outside enemy "
                                                         "ZOC was left for it"))


@hookimpl
def skip_step(state, step_id, spec):
    if step_id not in (PLACE, SETUP_PLACE) or not is_on(state, RULE_ID):
        return None
    if step_id == SETUP_PLACE:
        return "Placing Partisans on the Map: this scenario gives no partisan units to place during setup"
    if not partisan_state(state).waiting:
        return "Place Partisans: no partisan arrived this turn"
    return None


# ---------------------------------------------------------------- the log
@rules.describe("PartisanCheckRolled")
def _say_rolled(event, state):
    d = event.data
    name = next((r["name"] for r in country_rows() if r["code"] == d["country"]), d["country"])
    if not d["checks"]:
        return f"Partisans: {name} does not check for partisans (d10 {d['check_roll']})"
    return (f"Partisans: {name} checks (d10 {d['check_roll']}); 2d10 {d['roll']} against effective partisan "
            f"number {d['effective']:g}: {d['arriving']} arrive")


@rules.describe("PartisansArrived")
def _say_arrived(event, state):
    d = event.data
    kinds = ", ".join(f"{p['combat']}-{p['move']}" for p in d["partisans"])
    return f"Partisans: {len(d['partisans'])} arrive in {d['country']} for {d['power']} ({kinds})"


@rules.describe("PartisanPlaced")
def _say_placed(event, state):
    h = event.data["hex"]
    return f"Partisans: {event.data['unit']} placed at {h[0]},{h[1]}"


@rules.describe("PartisansLapsed")
def _say_lapsed(event, state):
    return f"Partisans: {', '.join(event.data['partisans'])} did not arrive ({event.data['reason']})"


rules.export(globals())
