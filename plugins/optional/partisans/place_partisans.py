"""Partisans, step Place Partisans (seeds, "Partisans": "The controlling major power can place
a partisan unit in any enemy controlled hex in the partisan's country that is not in an enemy
ZOC.  If there is no such hex, the partisan does not arrive"; end-of-turn "Partisans"
L10950-10959) and the setup step Placing Partisans on the Map (L10110-10124)."""

from __future__ import annotations

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules import core
from plugins.rules.land.movement import enemy_zoc, stacking_problems
from plugins.rules.units import Unit, UnitCreated, units

from .state import (
    PARTISAN_TYPE,
    PLACE,
    RULE,
    RULE_ID,
    SETUP_PLACE,
    PartisanPlaced,
    PartisansLapsed,
    PlacePartisan,
    country_name,
    enemies_of,
    partisan_state,
    rules,
)


def _country_hexes(code: str) -> list[tuple[int, int]]:
    return core.world_map().hexes_of_country(code)


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
        name = country_name(first["country"])
        return (f"{RULE}: a partisan is placed in an enemy-controlled hex of {name} that is not in an "
                f"enemy ZOC and holds no enemy unit, within the stacking limits; {hex_[0]},{hex_[1]} is not one")
    return None


def _partisan_unit(p: dict, hex_) -> Unit:
    return Unit(id=p["id"], power=p["power"], branch="land", type=PARTISAN_TYPE, size="army",
                name=f"{country_name(p['country'])} partisans {p['combat']}-{p['move']}",                 factors={"combat": p["combat"], "move": p["move"]}, flags=["partisan", f"home:{p['country']}"],
                hex=tuple(hex_), where="map")


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

