"""Guadalcanal: the introductory naval scenario (seed section "Scenarios", Guadalcanal).

Japan against the USA and the Commonwealth, May/June 1942 to January/February 1943: 5 turns,
2 players ("only 3 major powers in play ... limited to just the Pacific. In particular, it does
not include any combat in China or the USSR").  The data (order of battle, playable area,
starting control, victory points) is ``data/order_of_battle.json``, loaded and checked by
``oob.py``; its header says where each value comes from and what is authored.

Starting political state (May/June 1942).  Japan controls Japan, Korea, Formosa, its
mandated islands, Indochina, Thailand (its ally), and what it conquered since December 1941:
the Philippines, Malaya and Borneo, the Netherlands East Indies (a conquered minor country),
Burma, Portuguese Timor, Guam, Wake, New Britain and New Ireland, Lae and Tulagi.  The USA
controls the USA; the Commonwealth controls Australia, New Zealand, India, Canada, the United
Kingdom and Free French New Caledonia.  Japan is at war with the USA and the Commonwealth
from the start.  The partial map: China, the USSR, Mongolia, Manchukuo, Sinkiang and Tibet
have no controller, so they are neutral territory that no unit enters, and nothing outside
the Pacific half-map counts for victory (``oob.in_play``).

Setup.  The naval units set up as seed 001 "16.4 1942 Guadalcanal Scenario" gives them (Place
on Map, the repair pool, carrier planes kept one per carrier pilot; README "The naval set-up"
says what this edition chooses where 16.4 leaves it to the player); land and air units where
they stood in May/June 1942 (authored).  The set-up is fixed, so the Setup phases are skipped
with that reason (data/phases_left_out.json).  Reinforcements ("Reinforcements": every turn except the first)
arrive on the map at the city where they historically entered the theatre, or, if the enemy
holds it, at the nearest city in play their power controls.

Victory (Guadalcanal Special Victory Conditions): victory points for captured objectives and
resources, enemy carriers destroyed and, for the Allies, Japanese convoys short of 5 in the
China Sea and South China Sea at the end of each turn; the margin gives the level
(``victory.py``).  Naval Repair replaces Production (the naval plugin's phase).

The turn loop is the turn plugin's, from core ``LastTurnSet(5)`` and the turn plugin's
``CalendarSet`` (May/June 1942) emitted here.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from plugins.rules.core import (
    CountryConquered,
    CountryControlSet,
    HexControlChanged,
    LastTurnSet,
    WarDeclared,
    enemies,
    hex_controller,
    world_map,
)
from plugins.rules.core.scenario import describe_victory
from plugins.rules.land.movement import stacking_problems
from plugins.rules.naval.naval_units import CARRIER_AIR_TYPES, in_port
from plugins.rules.naval.overseas_supply import close_sea_areas_with
from plugins.rules.naval.rig_naval import load, place_at_sea
from plugins.rules.naval.state import naval
from plugins.rules.turn import CalendarSet
from plugins.rules.units import Unit, UnitCreated, units

from . import oob
from .state import (  # noqa: F401 - the scenario's public names
    REINFORCEMENTS,
    SCENARIO,
    VICTORY_CHECK,
    ConvoyPointsScored,
    ScenarioState,
    VictoryMarginDetermined,
    VictoryPointsCounted,
    ours,
    rules,
    scenario_state,
    victory_rules,
)
from .victory import convoy_points_now, count_victory_points, margin_level, result_words, victory_check  # noqa: F401
from .victory_hooks import game_result, objective_hexes  # noqa: F401 - hookimpls, registered with the plugin


def _unit_model(u: oob.UnitData, hex_) -> Unit:
    return Unit(id=u.id, power=u.power, nationality=u.nationality, branch=u.branch, type=u.type, name=u.name,
                factors=dict(u.factors), size=u.size or ("army" if u.branch == "land" else u.branch),
                year=u.year, flags=list(u.flags), hex=tuple(hex_), where="map")


def setup(ctx) -> None:
    """The starting position of May/June 1942: calendar, length, control, war and every counter."""
    data = oob.scenario_data()
    ctx.emit(CalendarSet(year=data.start.year, bimonth=data.start.bimonth))
    ctx.emit(LastTurnSet(turn=data.start.turns))
    countries, hexes = oob.start_control()
    for country, power in countries.items():
        ctx.emit(CountryControlSet(country=country, power=power))
    for country, power in data.political.conquered.items():
        ctx.emit(CountryConquered(country=country, conqueror=power))
    for h, power in sorted(hexes.items()):
        ctx.emit(HexControlChanged(hex=h, power=power))
    for pair in data.political.at_war:
        ctx.emit(WarDeclared(powers=tuple(pair)))
    _arrive(ctx, [u for u in data.units if u.turn == 1], at_start=True)


def _arrive(ctx, arriving: list[oob.UnitData], at_start: bool) -> None:
    """Put counters on the map: land, air and naval units in their city or port (reinforcements
    where ``arrival_hex`` says), units of the repair pool in it, carrier air units aboard their
    carrier and cargo aboard its transport, ships at sea in their sea-box section (naval plugin:
    ``rig_naval.load`` / ``place_at_sea``, which check the rules)."""
    where: dict[str, tuple[int, int] | None] = {}
    for u in arriving:
        if u.pool:  # 16.4 "Place on Production Chart: Repair pool"
            ctx.emit(UnitCreated(unit=_unit_model(u, (0, 0)).model_copy(update={"hex": None, "where": "repair-pool"})))
            continue
        if u.aboard or u.type in CARRIER_AIR_TYPES:
            continue
        hex_ = oob.unit_hex(u) if at_start else arrival_hex(ctx.state, u)
        where[u.id] = hex_
        model = _unit_model(u, hex_ if hex_ is not None else oob.unit_hex(u))
        if hex_ is None:  # no city of its power can take it: it waits off the map (the force pool)
            model = model.model_copy(update={"hex": None, "where": "force-pool"})
        ctx.emit(UnitCreated(unit=model))
    by_carrier: dict[str, list[str]] = {}
    for u in arriving:
        if u.branch == "land" and u.aboard and where.get(u.aboard) is not None:
            ctx.emit(UnitCreated(unit=_unit_model(u, where[u.aboard])))
            by_carrier.setdefault(u.aboard, []).append(u.id)
    for carrier, air in by_carrier.items():
        load(ctx, carrier, air)
    _board_carrier_planes(ctx, [u for u in arriving if u.type in CARRIER_AIR_TYPES], at_start)
    at_sea: dict[tuple[str, int], list[str]] = {}
    for u in arriving:
        if u.sea is not None and where.get(u.id) is not None:
            at_sea.setdefault((u.sea.area, u.sea.section), []).append(u.id)
    for (area, section), ids in at_sea.items():
        place_at_sea(ctx, ids, area, section)


def _board_carrier_planes(ctx, planes: list[oob.UnitData], at_start: bool) -> None:
    """Carrier planes due now (and those still waiting) go aboard a carrier in port (16.1
    "Carrier planes": "You can set up each carrier plane on a CV it can fit onto"): their own
    carrier if named and it can take them, else the first of their power's carriers in port that
    can; with none, a reinforcement arrives at a base like any aircraft (``waiting_base``; Ships in
    Flames 8.1: "A carrier plane could fly if it is in the port but not on a CV") and boards a
    carrier later by rebasing (the naval plugin's RebaseCarrierAirUnit); with no base either, it
    waits off the map until a later Reinforcements phase."""
    if not at_start:  # planes due earlier that found neither a carrier nor a base
        created = units(ctx.state).units
        turn = ctx.state.kernel.turn
        planes = [u for u in oob.scenario_data().units
                  if u.type in CARRIER_AIR_TYPES and u.turn < turn and u.id not in created] + planes
    for u in planes:
        carrier = boarding_carrier(ctx.state, u)
        if carrier is not None:
            ship = units(ctx.state).units[carrier]
            ctx.emit(UnitCreated(unit=_unit_model(u, ship.hex)))
            load(ctx, carrier, [u.id])
            continue
        base = None if at_start else waiting_base(ctx.state, u)
        if base is not None:
            ctx.emit(UnitCreated(unit=_unit_model(u, base)))


def waiting_base(state, plane: oob.UnitData) -> tuple[int, int] | None:
    """Where a carrier plane no carrier can take arrives: its own ``at`` city, else the city its
    named carrier set up in (the nearest city its side holds when that one cannot take it, as
    for any reinforcement: ``arrival_hex``), or None."""
    at = plane.at
    if not at and plane.aboard:
        at = next((u.at for u in oob.scenario_data().units if u.id == plane.aboard), "")
    if not at:
        return None
    return arrival_hex(state, plane.model_copy(update={"at": at}))


def boarding_carrier(state, plane: oob.UnitData) -> str | None:
    """The carrier the carrier plane ``plane`` boards now, or None (see ``_board_carrier_planes``)."""
    everyone = units(state).units
    model = _unit_model(plane, (0, 0))

    def takes(ship) -> bool:
        if ship.power != plane.power or ship.type != "cv" or not in_port(state, ship):
            return False
        aboard_now = [everyone[p] for p in naval(state).aboard.get(ship.id, [])]
        return len(aboard_now) < 2 and sum(p.factors.get("class", 1) for p in aboard_now) \
            + model.factors["class"] <= ship.factors.get("class", 0)

    own = everyone.get(plane.aboard)
    if own is not None and takes(own):
        return own.id
    return next((s.id for s in sorted(everyone.values(), key=lambda s: s.id) if takes(s)), None)


def arrival_problem(state, u: oob.UnitData, hex_) -> str | None:
    """Why the reinforcement ``u`` cannot arrive in ``hex_`` now, or None (Reinforcements:
    a city controlled by its side, free of enemy units, within the stacking limits; a ship
    in a port)."""
    hex_ = tuple(hex_)
    owner = hex_controller(state, hex_)
    if owner is None or state.kernel.side_of(owner) != state.kernel.side_of(u.power):
        return f"Reinforcements: {hex_} is not controlled by {u.power} or a major power on its side"
    if any(enemies(state, x.power, u.power) for x in units(state).in_hex(hex_)):
        return f"Reinforcements: enemy units occupy {hex_}"
    if u.branch == "naval":
        return None if world_map().city_at(hex_) is not None and world_map().city_at(hex_).port \
            else f"Reinforcements: a naval unit arrives in a port; {hex_} is none"
    model = _unit_model(u, hex_)
    return "; ".join(stacking_problems(state, hex_, adding=[model], leaving=set())) or None


def arrival_hex(state, u: oob.UnitData) -> tuple[int, int] | None:
    """Where ``u`` arrives: its historical city (port), else the nearest city (port) in play its
    side holds."""
    first = oob.unit_hex(u)
    if arrival_problem(state, u, first) is None:
        return first
    return next((h for h in _cities_nearest(tuple(first), u.branch == "naval")
                 if arrival_problem(state, u, h) is None), None)


@cache
def _cities_nearest(first: tuple[int, int], ports_only: bool) -> tuple:
    """The cities (ports) in play, nearest to ``first`` first (the map is read-only: sorted once)."""
    m = world_map()
    return tuple(sorted((c.hex for c in m.cities.values() if oob.in_play(c.hex) and (c.port or not ports_only)),
                        key=lambda h: (m.grid.distance(first, h), h[1], h[0])))


@rules.step_rule(REINFORCEMENTS)
def reinforcements(ctx, step_id: str) -> None:
    """Reinforcements: this turn's arrivals are placed on the map."""
    if not ours(ctx.state):
        return
    turn = ctx.state.kernel.turn
    _arrive(ctx, [u for u in oob.scenario_data().units if u.turn == turn], at_start=False)


# ---------------------------------------------------------------- hooks
@hookimpl
def register_scenarios(register):
    data = oob.scenario_data()
    register(ScenarioSpec(id=SCENARIO, name="Guadalcanal", sides=data.sides, sequence="wif", setup=setup,
                          description="Japan against the USA and the Commonwealth in the Pacific, "
                                      "May/June 1942 to Jan/Feb 1943: 5 turns."))


PHASES_LEFT_OUT = Path(__file__).parent / "data" / "phases_left_out.json"


@cache
def phases_left_out() -> dict[str, str]:
    """Step id -> why Guadalcanal leaves the phase out (the data file's header says what is read)."""
    return json.loads(PHASES_LEFT_OUT.read_text(encoding="utf-8"))["phases"]


@hookimpl
def skip_step(state, step_id, spec):
    if not ours(state):
        return None
    if step_id == REINFORCEMENTS and state.kernel.turn <= 1:
        return "Reinforcements: every turn except the first starts with the arrival of reinforcements"
    return phases_left_out().get(step_id)


@hookimpl
def sea_area_refusal(state, area):
    """The partial map at sea (Scenarios: Guadalcanal "is limited to just the Pacific"): a sea
    area off the Pacific half-map is closed (the naval plugin's hook, asked by Naval Movement)."""
    if not ours(state) or area in oob.sea_areas_in_play():
        return None
    return (f"Guadalcanal: the scenario \"is limited to just the Pacific\"; the sea area {area} "
            "lies outside its playable area")


close_sea_areas_with(sea_area_refusal)  # supply paths too ("Overseas supply paths"), traced without a plugin host


@rules.describe("ConvoyPointsScored")
def _say_convoys(event, state):
    d = event.data
    return f"Turn {d['turn']} convoy points for the Allies: " + ", ".join(f"{a} {p}" for a, p in d["points"].items())


@rules.describe("VictoryPointsCounted")
def _say_points(event, state):
    d = event.data
    return f"Turn {d['turn']} victory points: " + ", ".join(f"{s} {p}" for s, p in d["points"].items())


rules.describe("VictoryMarginDetermined")(describe_victory)


rules.export(globals())

from .ui import *  # noqa: E402,F401,F403 - the front end's hooks (app/uihooks.py), ui.__all__
