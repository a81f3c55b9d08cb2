"""Optional rule Siberians (seeds, "Swap Siberians" L9001-9031; "Reinforcements" L10130-10137:
"swapping some units for replacement units").

``SwapSiberian {unit, siberian}``: while placing its reinforcements, the USSR gives a Soviet
infantry corps or army on the map and an available Siberian unit (``data/siberian_units.json``,
authored: see its header) takes its hex; "the given land unit ... then returns to the force
pool".  Handler, choices and preview ask ``swap_problem``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.registry import Registry
from plugins.optional.framework import is_on
from plugins.rules.core import is_hq, world_map
from plugins.rules.units import Unit, UnitCreated, UnitMoved, units

rules = Registry()

RULE_ID = "siberians"
RULE = "Swap Siberians"
POWER = "ussr"
HOME = "SU"
STEP = "wif.procedures.reinforcements.placing-units-on-map"
FORCE_POOL = "force-pool"
DATA = Path(__file__).resolve().parent / "data" / "siberian_units.json"


@cache
def siberian_units() -> list[dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))["units"]


@rules.state("optional.siberians")
class SiberianState(BaseModel):
    arrived: list[str] = Field(default_factory=list)  # Siberian units already swapped in


@rules.event
class SiberianSwapped(EventData):
    siberian: str
    given: str
    hex: tuple[int, int]


class SwapSiberian(Command):
    unit: str  # the given land unit, on the map
    siberian: str


@rules.reducer("SiberianSwapped")
def _swapped(state, event) -> None:
    state["optional.siberians"].arrived.append(event.data["siberian"])


def available(state) -> list[dict]:
    """The Siberian units that may arrive this turn."""
    done = set(state["optional.siberians"].arrived)
    return [s for s in siberian_units() if s["id"] not in done and s["from_turn"] <= state.kernel.turn]


def _name(unit) -> str:
    return unit.name or unit.id


def given_problem(state, unit_id: str) -> str | None:
    unit = units(state).units.get(unit_id)
    if unit is None:
        return f"{RULE}: there is no unit {unit_id!r}"
    if unit.power != POWER or unit.branch != "land" or unit.type != "inf" or unit.size != "army" or is_hq(unit):
        return f"{RULE}: {_name(unit)} is not a Soviet infantry corps or army; only one is swapped for a Siberian unit"
    if not unit.on_map or world_map().country_code(tuple(unit.hex)) != HOME:
        return f"{RULE}: {_name(unit)} is not on the map in the USSR"
    if not unit.face_up:
        return f"{RULE}: {_name(unit)} is disorganized"
    if "siberian" in unit.flags:
        return f"{RULE}: {_name(unit)} is a Siberian unit already"
    return None


def step_problem(state, actor: str) -> str | None:
    if not is_on(state, RULE_ID):
        return f"{RULE}: the optional rule Siberians is not in play"
    if actor != POWER:
        return f"{RULE}: only the USSR swaps Siberian units"
    seq = state.kernel.sequence
    if seq.current != STEP or actor not in seq.pending:
        return f"{RULE}: Siberian units are swapped in while the USSR places its reinforcements"
    return None


def swap_problem(state, actor: str, unit_id: str, siberian_id: str) -> str | None:
    """Why ``actor`` may not swap ``unit_id`` for ``siberian_id`` now, or None."""
    problem = step_problem(state, actor)
    if problem:
        return problem
    if siberian_id not in {s["id"] for s in available(state)}:
        known = {s["id"]: s for s in siberian_units()}
        if siberian_id not in known:
            return f"{RULE}: there is no Siberian unit {siberian_id!r}"
        if siberian_id in state["optional.siberians"].arrived:
            return f"{RULE}: {known[siberian_id]['name']} has arrived already"
        return f"{RULE}: {known[siberian_id]['name']} may arrive from turn {known[siberian_id]['from_turn']}"
    return given_problem(state, unit_id)


def swap_siberian(ctx, cmd: SwapSiberian) -> None:
    problem = swap_problem(ctx.state, cmd.actor, cmd.unit, cmd.siberian)
    if problem:
        raise Rejected(problem)
    given = units(ctx.state).units[cmd.unit]
    s = next(s for s in siberian_units() if s["id"] == cmd.siberian)
    hex_ = tuple(given.hex)
    ctx.emit(SiberianSwapped(siberian=s["id"], given=given.id, hex=hex_))
    ctx.emit(UnitMoved(unit=given.id, to_hex=None, to_where=FORCE_POOL))
    ctx.emit(UnitCreated(unit=Unit(id=s["id"], power=POWER, branch="land", type=s["type"], size=s["size"],
                                   name=s["name"], factors={"combat": s["combat"], "move": s["move"]},
                                   flags=["siberian", "elite"], hex=hex_, where="map")))


def swap_choices(state, actor: str, step_id: str):
    if step_problem(state, actor):
        return None
    arriving = available(state)
    given = sorted(u.id for u in units(state).units.values()
                   if u.power == POWER and u.on_map and given_problem(state, u.id) is None)
    if not arriving or not given:
        return None
    names = {s["id"]: s["name"] for s in arriving}
    us = units(state).units
    return [one_of("siberian", "option", [s["id"] for s in arriving], label=lambda i: names[i],
                   then=lambda _s: [one_of("unit", "unit", given, label=lambda u: _name(us[u]))])]


def swap_preview(state, cmd: SwapSiberian) -> dict:
    problem = swap_problem(state, cmd.actor, cmd.unit, cmd.siberian)
    if problem:
        raise Rejected(problem)
    given = units(state).units[cmd.unit]
    return {"hex": list(given.hex), "to_force_pool": given.id, "arrives": cmd.siberian}


rules.command(SwapSiberian, anytime=True, choices=swap_choices, preview=swap_preview)(swap_siberian)


@rules.describe("SiberianSwapped")
def _say_swapped(event, state):
    d = event.data
    us = units(state).units
    given = us.get(d["given"])
    sib = us.get(d["siberian"])
    return (f"Swap Siberians: {_name(sib) if sib else d['siberian']} replaces "
            f"{_name(given) if given else d['given']} at {d['hex'][0]},{d['hex'][1]}; it returns to the force pool")


rules.export(globals())
