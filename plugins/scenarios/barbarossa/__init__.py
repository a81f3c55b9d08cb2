"""Barbarossa: the introductory scenario (seed section "Scenarios", Barbarossa).

Germany against the USSR, May/June 1941 to January/February 1942: 5 turns, 2 players.
The data (order of battle, setup areas, starting control, objectives) is
``data/order_of_battle.json``, loaded and checked by ``oob.py``; its header says where each
value comes from and what is authored.

Starting political state (June 1941).  Germany controls Germany, German-occupied Poland
(west of the Bug-San line), Slovakia, Denmark, Norway, the Netherlands, Belgium, Yugoslavia
and Greece, and its aligned minors Rumania and Hungary, whose units are German-controlled
counters with their own nationality ("romania", "hungary"): the Rumanian 3rd and 4th Armies
and Mountain Corps took part from the first day, the Hungarian Mobile Corps from the first
week.  Finland, Sweden, Bulgaria and Turkey are neutral (Finland's war began days later
and would need a Finnish order of battle; leaving it neutral keeps the scenario to two
countries per side as the seeds' Setup section describes Barbarossa, "only one country on
each side", and a neutral objective such as Helsinki goes to the nearest capital).  The
USSR controls the USSR, Mongolia, the Baltic states, eastern Poland, Bessarabia, northern
Bukovina and the Karelian isthmus; the map's countries are those of 1939, so the annexed
parts of Poland, Rumania and Finland are core ``HexControlChanged`` events.

War from the start.  Germany and the USSR are at war when play begins (core
``WarDeclared`` during setup) rather than Germany declaring war in its first impulse:
the scenario "starts with Germany poised to launch its drive" and is about nothing else;
the seeds give Barbarossa no Nazi-Soviet pact (the pact applies to every scenario but
Barbarossa starting before Jul/Aug 1941); and the declaration procedure's other effects
(US entry, neutrality pacts, calling out reserves, aligning attacked minors) have nothing
to act on with one major power per side, so a declaration step would be a formality the
German player must remember to click.  The surprise of 22 June is the move-first choice of
the side with the initiative, decided by the turn plugin.

Setup ("Setup", "Setup Tray").  The USSR sets up first, then Germany: for each,
scrapping units (an optional rule: skipped), the random draw (Barbarossa's order of battle
is fixed: skipped) and placing units on the map, where the power's counters are in its
setup tray.  ``PlaceUnit`` puts a unit on a land hex of its setup area that its power
controls, within the stacking limits; a unit placed this step can be placed again until
the power finishes the step (End of Phase = ``FinishStep``); ``RestoreSetup`` places every
unit still in the tray at its saved default position (or, if that hex is no longer legal,
the nearest legal hex of its area).  Units a power leaves in its tray when it finishes go
to their default positions.

Ships (Ships in Flames "16.3 1941 Barbarossa Scenario"): the Baltic and Black Sea fleets of
both sides (``data/naval_order_of_battle.json``) wait in their power's setup tray with its land
and air units, and its player places each in a port it controls on the sea 16.3 names
("16.1 Set Up Rules"; setup_naval_units.py), with the same ``PlaceUnit``; the data's port is
the saved default setup; or at sea with ``PlaceUnitAtSea`` (setup_tray_at_sea.py, Ships in Flames
16.1.1 Previous Naval Moves: a section at least 1 below what it could have reached from such a
port).  At sea Barbarossa's map is the Baltic and the Black Sea
(``sea_area_refusal``): every other sea area is closed to ships and supply paths.

Reinforcements ("Reinforcements": every turn except the first) arrive in the setup tray
at the start of the turn and are placed in the reinforcement area (procedures.reinforcements);
a unit left in the tray when its power finishes stays there and is offered again next turn.

Victory ("Victory", Barbarossa Special Victory Conditions): no automatic victory; the 8
on-map objectives and each city of the East European USSR (Bessarabia included) count
one objective each (Leningrad counts 2); whoever controls the most wins.  The victory
check at the end of every turn records the standing (``ObjectivesCounted``); on the last
turn it records the result (``VictoryDetermined``), which the victory form shows.

The turn loop is the turn plugin's, from core ``LastTurnSet(5)`` emitted here.

Modules: ``state.py`` (state and events), ``setup_tray.py`` (PlaceUnit, RestoreSetup:
``placement_problem``, ``default_placements``, their choices and previews),
``setup_naval_units.py`` (a ship's port: ``ship_placement_problem``), ``victory.py``
(``count_objectives``, the victory check), ``oob.py`` (the data).
"""

from __future__ import annotations

from plugins.rules.core.names import power_name

import json
from functools import cache
from pathlib import Path

from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from plugins.rules.core import CountryControlSet, HexControlChanged, LastTurnSet, WarDeclared
from plugins.rules.core.scenario import describe_victory
from plugins.rules.naval.overseas_supply import close_sea_areas_with
from plugins.rules.units import Unit, UnitCreated

from . import oob
from .hooks import HOOKSPECS  # noqa: F401  (published hooks, see hooks.py)
from .setup_tray import (  # noqa: F401 - the scenario's public names
    PlaceUnit,
    RestoreSetup,
    default_placements,
    place_defaults,
    place_unit,
    place_unit_choices,
    place_unit_preview,
    placement_problem,
    restore_choices,
    restore_preview,
    restore_setup,
    stacking_problem,
    tray_units,
)
from .setup_tray_at_sea import PlaceUnitAtSea, at_sea_problem  # noqa: F401 - 16.1.1, ships set up at sea
from .state import (  # noqa: F401
    REINFORCEMENT_PLACING,
    REINFORCEMENTS,
    SCENARIO,
    SETUP_LOOP,
    SETUP_PLACING,
    TRAY,
    VICTORY_CHECK,
    ScenarioState,
    ScenarioUnitsAdded,
    SetupPowerSet,
    SetupTrayFilled,
    ours,
    rules,
    scenario_state,
)
from .victory import TURNS, count_objectives, victory_check  # noqa: F401
from .victory_hooks import game_result, objective_hexes  # noqa: F401 - hookimpls, registered with the plugin

SIDES = {"axis": ["germany"], "allies": ["ussr"]}


def _unit_model(u: oob.UnitData) -> Unit:
    return Unit(id=u.id, power=u.power, nationality=u.nationality, branch=u.branch, type=u.type, name=u.name,
                factors=dict(u.factors), size=u.size, year=u.year, flags=list(u.flags), hex=None, where=TRAY)


def _ship_model(ship: oob.ShipData) -> Unit:
    """A ship of 16.3 in its power's setup tray (the naval plugin's counter: "Where a naval unit is")."""
    return Unit(id=ship.id, power=ship.power, nationality=ship.nationality, branch="naval", type=ship.type,
                name=ship.name, factors=dict(ship.factors), size="naval", year=ship.year, flags=[],
                hex=None, where=TRAY)


def _setup_units(state, power: str) -> list[str]:
    """What ``power`` sets up: its land and air units of turn 1, then its ships (16.3 "Place on Map")."""
    return ([u.id for u in oob.all_units(state) if u.turn == 1 and u.power == power]
            + [ship.id for ship in oob.naval_data().units if ship.power == power])


def _fill_tray(ctx, power: str, occasion: str, new_units: list[str]) -> None:
    leftovers = [uid for uid in tray_units(ctx.state, power) if uid not in new_units]
    ctx.emit(SetupTrayFilled(power=power, occasion=occasion, units=leftovers + new_units))


def setup(ctx) -> None:
    """The starting position: control, war, length, and every counter in its setup tray."""
    data = oob.scenario_data()
    countries, hexes = oob.start_control()
    for country, power in countries.items():
        ctx.emit(CountryControlSet(country=country, power=power))
    for h, power in sorted(hexes.items()):
        ctx.emit(HexControlChanged(hex=h, power=power))
    for pair in data.political.at_war:
        ctx.emit(WarDeclared(powers=tuple(pair)))
    ctx.emit(LastTurnSet(turn=TURNS))
    for ship in oob.naval_data().units:  # 16.3 "Place on Map"
        ctx.emit(UnitCreated(unit=_ship_model(ship)))
    _add_optional_units(ctx)
    everyone = oob.all_units(ctx.state)
    for u in everyone:
        if u.turn == 1:
            ctx.emit(UnitCreated(unit=_unit_model(u)))
    first = data.setup_order[0]
    ctx.emit(SetupPowerSet(power=first))
    _fill_tray(ctx, first, "setup", _setup_units(ctx.state, first))


def _add_optional_units(ctx) -> None:
    """The counters optional rules ON add (hooks.scenario_added_units), checked and recorded."""
    taken = set(oob.scenario_data().by_id)
    added = []
    # by id: the hook answers in the order the plugins were registered, which a replay (wif
    # verify re-deciding NewGame) need not repeat
    found = [d for batch in ctx.host.pm.hook.scenario_added_units(state=ctx.state, scenario=SCENARIO)
             for d in batch or []]
    for d in sorted(found, key=lambda d: str(d.get("id"))):
        problem = oob.added_unit_problem(d, taken)
        if problem:
            raise ValueError(f"Barbarossa: {problem}")
        taken.add(d["id"])
        added.append(oob.UnitData.model_validate(d).model_dump(mode="json"))
    if added:
        ctx.emit(ScenarioUnitsAdded(units=added))


@rules.step_rule(REINFORCEMENTS)
def reinforcements(ctx, step_id: str) -> None:
    """Reinforcements: this turn's arrivals enter the setup tray, then are placed."""
    if not ours(ctx.state):
        return
    turn = ctx.state.kernel.turn
    everyone = oob.all_units(ctx.state)
    waiting = False
    for power in ctx.state.kernel.powers():
        arriving = [u for u in everyone if u.turn == turn and u.power == power]
        for u in arriving:
            ctx.emit(UnitCreated(unit=_unit_model(u)))
        _fill_tray(ctx, power, f"reinforcements-turn-{turn}", [u.id for u in arriving])
        waiting = waiting or bool(tray_units(ctx.state, power))
    if waiting:
        ctx.push("procedures.reinforcements")


# ---------------------------------------------------------------- hooks
@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id=SCENARIO, name="Barbarossa", sides=SIDES, sequence="wif", setup=setup,
                          description="Germany against the USSR, May/June 1941 to Jan/Feb 1942: 5 turns."))


@hookimpl
def sea_area_refusal(state, area):
    """The partial map at sea: 16.3 puts Barbarossa's fleets in the Baltic Sea and the Black Sea,
    and the scenario is Germany's drive into the USSR; every other sea area lies off its map
    (the naval plugin's hook, asked by Naval Movement for every sea area on a move's way)."""
    if not ours(state) or area in oob.sea_areas_in_play():
        return None
    return (f"Barbarossa: the scenario's ships sail only the Baltic Sea and the Black Sea "
            f"(16.3); the sea area {area} lies outside its map")


close_sea_areas_with(sea_area_refusal)  # supply paths too ("Overseas supply paths"), traced without a plugin host


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if not ours(state):
        return None
    if kind == "rule:setup-power":
        power = scenario_state(state).setup_power
        return [power] if power else []
    if kind == "rule:reinforcing-power" and step_id == REINFORCEMENT_PLACING:
        return [p for p in state.kernel.powers() if tray_units(state, p)]
    return None


PHASES_LEFT_OUT = Path(__file__).parent / "data" / "phases_left_out.json"


@cache
def phases_left_out() -> dict[str, str]:
    """Step id -> why Barbarossa leaves the phase out (the data file's header says what is read)."""
    return json.loads(PHASES_LEFT_OUT.read_text(encoding="utf-8"))["phases"]


SKIPS = {
    "wif.new-game.setup.lend-leasing-units":
        lambda state: "Setup: no lend lease in Barbarossa, which has only one country on each side",
    "wif.new-game.setup.set-up-each-major-power.random-draw":
        lambda state: "Setup: Barbarossa's order of battle is fixed; nothing is drawn at random",
    REINFORCEMENTS:
        lambda state: ("Reinforcements: every turn except the first starts with the arrival of reinforcements"
                       if state.kernel.turn <= 1 else None),
    "wif.procedures.reinforcements.annual-additions":
        lambda state: "Annual Additions: Barbarossa has no force pools; its reinforcements arrive by turn",
}


@hookimpl
def skip_step(state, step_id, spec):
    if not ours(state):
        return None
    skip = SKIPS.get(step_id)
    return skip(state) if skip is not None else phases_left_out().get(step_id)


@hookimpl
def repeat_step(ctx, step_id, spec):
    """Setup: after a power has placed its units the next power sets up (USSR, then Germany)."""
    if step_id != SETUP_LOOP or not ours(ctx.state):
        return None
    s = scenario_state(ctx.state)
    order = oob.scenario_data().setup_order
    power = s.setup_power
    if power is not None:
        place_defaults(ctx, power)  # units left in the tray go to their default positions
    i = order.index(power) if power in order else len(order)
    if i + 1 < len(order):
        nxt = order[i + 1]
        ctx.emit(SetupPowerSet(power=nxt))
        _fill_tray(ctx, nxt, "setup", _setup_units(ctx.state, nxt))
        return True
    ctx.emit(SetupPowerSet(power=None))
    return False


@rules.describe("SetupPowerSet")
def _say_setup_power(event, state):
    power = event.data["power"]
    return f"{power} sets up" if power else "Every major power has set up"


@rules.describe("SetupTrayFilled")
def _say_tray(event, state):
    d = event.data
    return f"{power_name(d['power'])}'s setup tray ({d['occasion']}): {len(d['units'])} units"


@rules.describe("ObjectivesCounted")
def _say_objectives(event, state):
    d = event.data
    return f"Turn {d['turn']} objectives: " + ", ".join(f"{p} {v:g}" for p, v in d["objectives"].items())


rules.describe("VictoryDetermined")(describe_victory)


rules.export(globals())

from .ui import *  # noqa: E402,F401,F403 - the front end's hooks (app/uihooks.py), ui.__all__
