"""Partisans, step Partisan Rolls (seeds, "Partisans" L4087-4257; end-of-turn "Partisans"
L10934-10948): for each country of the partisan table that checks, how many partisans arrive
and which ones are drawn."""

from __future__ import annotations

import math

from plugins.optional.framework import is_on
from plugins.rules import core
from plugins.rules.land.movement import is_division, zoc_hexes
from plugins.rules.turn import current_date
from plugins.rules.units import Unit, units

from .place_partisans import legal_hexes
from .state import (
    HEAVY_TYPES,
    PARTISAN_TYPE,
    ROLLS,
    RULE_ID,
    PartisanCheckRolled,
    PartisansArrived,
    PartisansLapsed,
    country_rows,
    enemies_of,
    partisan_state,
    rules,
    table,
)


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

