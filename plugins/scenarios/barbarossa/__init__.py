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

Reinforcements ("Reinforcements": every turn except the first) arrive in the setup tray
at the start of the turn and are placed in the reinforcement area (procedures.reinforcements);
a unit left in the tray when its power finishes stays there and is offered again next turn.

Victory ("Victory", Barbarossa Special Victory Conditions): no automatic victory; the 8
on-map objectives and each city of the East European USSR (Bessarabia included) count
one objective each (Leningrad counts 2); whoever controls the most wins.  The victory
check at the end of every turn records the standing (``ObjectivesCounted``); on the last
turn it records the result (``VictoryDetermined``), which the victory form shows.

The turn loop is the turn plugin's, from core ``LastTurnSet(5)`` emitted here.

Public functions: ``placement_problem(state, power, unit_id, hex)``,
``stacking_problem(state, unit, hex)``, ``count_objectives(state)``,
``default_placements(state, power)``, and ``oob`` (the data).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec

from . import oob

SIDES = {"axis": ["germany"], "allies": ["ussr"]}
TURNS = 5  # May/June 1941 .. January/February 1942
SCENARIO = "barbarossa"

SETUP_LOOP = "wif.new-game.setup.set-up-each-major-power"
SETUP_PLACING = "wif.new-game.setup.set-up-each-major-power.placing-units-on-the-map"
REINFORCEMENTS = "wif.turn.new-turn.reinforcements"
REINFORCEMENT_PLACING = "wif.procedures.reinforcements.placing-units-on-map"
VICTORY_CHECK = "wif.turn.end-of-turn.victory-check"
TRAY = "setup-tray"


# ---------------------------------------------------------------- state
class ScenarioState(BaseModel):
    setup_power: str | None = None  # the major power setting up now ("Setup")
    tray: dict[str, list[str]] = Field(default_factory=dict)  # power -> units of this placement occasion
    occasion: dict[str, str] = Field(default_factory=dict)  # power -> "setup" / "reinforcements-turn-N"
    standing: dict[str, float] = Field(default_factory=dict)  # power -> objectives at the last check
    held: list[dict] = Field(default_factory=list)  # objective rows of the last check (victory form)
    result: dict | None = None  # the final result (VictoryDetermined data)


def scenario_state(state) -> ScenarioState:
    return state[SCENARIO]


def _ours(state) -> bool:
    return state.kernel.scenario == SCENARIO


def _victory_rules(state) -> bool:
    """Barbarossa's victory conditions apply: in Barbarossa, or in a test situation (lab
    scenario) whose options say ``"scenario_rules": "barbarossa"``."""
    return _ours(state) or state.kernel.options.get("scenario_rules") == SCENARIO


POWER_NAMES = {"germany": "Germany", "ussr": "the USSR"}


# ---------------------------------------------------------------- events
class SetupPowerSet(EventData):
    power: str | None


class SetupTrayFilled(EventData):
    power: str
    occasion: str
    units: list[str]


class ObjectivesCounted(EventData):
    turn: int
    objectives: dict[str, float]  # power -> objectives controlled
    held: list[dict]  # {"name", "hex", "value", "controller", "credited"}


class VictoryDetermined(EventData):
    turn: int
    objectives: dict[str, float]
    winner: str | None  # the major power with the most objectives; None: a draw
    side: str | None
    result: str  # words for the victory form


def _setup_power(state, event):
    scenario_state(state).setup_power = event.data["power"]


def _tray(state, event):
    d = event.data
    s = scenario_state(state)
    s.tray[d["power"]] = list(d["units"])
    s.occasion[d["power"]] = d["occasion"]


def _counted(state, event):
    s = scenario_state(state)
    s.standing = dict(event.data["objectives"])
    s.held = list(event.data["held"])


def _victory(state, event):
    scenario_state(state).result = dict(event.data)


# ---------------------------------------------------------------- commands
class PlaceUnit(Command):
    """Place a unit from the setup tray (or re-place one placed this step) on a hex."""

    unit: str
    hex: tuple[int, int]


class RestoreSetup(Command):
    """Place every unit still in the setup tray at its saved default position."""


# ---------------------------------------------------------------- rules
def _units(state):
    from plugins.rules.units import units

    return units(state)


def _the(unit) -> str:
    return f"the {unit.name or unit.id}"


def air_limit(state, hex_, extra_hq: bool = False) -> tuple[int, str]:
    """Over-Stacked Hex, aircraft unit limits: city 3 (major port 3, minor port 2),
    mountain, desert mountain or swamp 0, any other hex 1; the highest applies; +1 with an HQ."""
    from plugins.rules.core import world_map

    m = world_map()
    city = m.city_at(tuple(hex_))
    limits = []
    if city is not None:
        limits.append((3, "city"))  # every port of the map is a city hex, so 3 applies
    terrain = m.terrain(tuple(hex_))
    limits.append((0, terrain) if terrain in ("mountain", "desert mountain", "swamp") else (1, terrain))
    limit, why = max(limits)
    hq = extra_hq or any(u.branch == "land" and u.type.startswith("hq") for u in _units(state).in_hex(tuple(hex_)))
    if hq:
        limit, why = limit + 1, why + " with an HQ"
    return limit, why


def stacking_problem(state, unit, hex_, ignore: set[str] | None = None) -> str | None:
    """Over-Stacked Hex: would ``unit`` in ``hex_`` over-stack it?  A reason, or None.

    The land plugin's stacking check decides when it is installed (one rule, one place);
    the fallback below states the same limits."""
    ignore = {unit.id} | (ignore or set())
    try:
        from plugins.rules.land.movement import stacking_problems
    except ImportError:
        stacking_problems = None
    if stacking_problems is not None:
        problems = stacking_problems(state, tuple(hex_), adding=[unit], leaving=ignore)
        return "; ".join(problems) or None
    here = [u for u in _units(state).in_hex(tuple(hex_)) if u.id not in ignore]
    if unit.branch == "land":
        land = [u for u in here if u.branch == "land"] + [unit]
        small = any(u.size == "division" or u.type in ("art", "supply") for u in land)
        if len(land) > 3 or (len(land) == 3 and not small):
            return ("Stacking: at most 2 land units in a hex (3 if the third is a division, artillery or "
                    f"supply unit); {tuple(hex_)} holds {len(land) - 1} already")
    if unit.branch == "air":
        air = [u for u in here if u.branch == "air"] + [unit]
        limit, why = air_limit(state, hex_)
        if len(air) > limit:
            return (f"Stacking: at most {limit} aircraft units in {tuple(hex_)} ({why}); "
                    f"it holds {len(air) - 1} already")
    return None


def placement_problem(state, power: str, unit_id: str, hex_) -> str | None:
    """Why ``power`` may not place ``unit_id`` on ``hex_`` now (Setup Tray), or None."""
    from plugins.rules.core import hex_controller, world_map

    hex_ = tuple(hex_)
    unit = _units(state).units.get(unit_id)
    if unit is None:
        return f"Setup Tray: there is no unit {unit_id!r}"
    if unit.power != power:
        return f"Setup Tray: {_the(unit)} is a {unit.power} unit; {power} cannot set it up"
    s = scenario_state(state)
    if unit_id not in s.tray.get(power, []):
        return (f"Setup Tray: {_the(unit)} is not in {power}'s setup tray "
                "(a unit set up earlier cannot return to the tray)")
    data = oob.scenario_data()
    udata = data.unit(unit_id)
    area = data.areas[udata.area]
    m = world_map()
    if not (0 <= hex_[1] < m.grid.rows) or not m.is_land(hex_):
        return f"Setup: land and air units set up on land hexes; {hex_} is not land"
    if hex_ not in oob.area_hexes(udata.area):
        return f"Setup: {_the(unit)} must be set up in the {area.name} ({area.note or 'its setup area'})"
    owner = hex_controller(state, hex_)
    if owner != power:
        return (f"Setup Tray: a unit cannot set up in a hex controlled by another major power "
                f"({hex_} is controlled by {owner or 'a neutral country'})")
    from plugins.rules.core import enemies

    if any(enemies(state, u.power, power) for u in _units(state).in_hex(hex_)):
        return f"Setup Tray: a unit cannot set up in a hex occupied by enemy units ({hex_})"
    return stacking_problem(state, unit, hex_)


def tray_units(state, power: str) -> list[str]:
    """The units still waiting in ``power``'s setup tray."""
    us = _units(state).units
    return [uid for uid in scenario_state(state).tray.get(power, []) if uid in us and us[uid].where == TRAY]


def _nearest_legal(state, power: str, unit_id: str) -> tuple[int, int] | None:
    from plugins.rules.core import world_map

    udata = oob.scenario_data().unit(unit_id)
    default = tuple(udata.hex)
    if placement_problem(state, power, unit_id, default) is None:
        return default
    grid = world_map().grid
    for h in sorted(oob.area_hexes(udata.area), key=lambda h: (grid.distance(default, h), h[1], h[0])):
        if placement_problem(state, power, unit_id, h) is None:
            return h
    return None


def _place_defaults(ctx, power: str) -> int:
    from plugins.rules.units import UnitMoved

    placed = 0
    for uid in tray_units(ctx.state, power):
        h = _nearest_legal(ctx.state, power, uid)
        if h is not None:
            ctx.emit(UnitMoved(unit=uid, to_hex=h, to_where="map"), actor=power)
            placed += 1
    return placed


def default_placements(state, power: str) -> list[dict]:
    """The ``PlaceUnit`` commands a default setup of ``power``'s tray would be (a preview;
    each later placement is checked against the earlier ones only by RestoreSetup itself)."""
    out = []
    for uid in tray_units(state, power):
        h = _nearest_legal(state, power, uid)
        if h is not None:
            out.append({"type": "PlaceUnit", "actor": power, "unit": uid, "hex": list(h)})
    return out


def place_unit(ctx, cmd: PlaceUnit) -> None:
    from plugins.rules.units import UnitMoved

    problem = placement_problem(ctx.state, cmd.actor, cmd.unit, cmd.hex)
    if problem:
        raise Rejected(problem)
    ctx.emit(UnitMoved(unit=cmd.unit, to_hex=tuple(cmd.hex), to_where="map"))


PLACING_STEPS = (SETUP_PLACING, REINFORCEMENT_PLACING)


def restore_setup(ctx, cmd: RestoreSetup) -> None:
    # Registered "anytime" because the sequence lists it only for the setup placing step;
    # the Setup Tray's Restore Setup button serves the reinforcement tray as well, so the
    # step and the done set are checked here.
    seq = ctx.state.kernel.sequence
    if seq.current not in PLACING_STEPS:
        raise Rejected("Setup Tray: Restore Setup is only possible while placing units from the setup tray "
                       f"(the current step is {seq.current})")
    if cmd.actor not in seq.pending:
        raise Rejected(f"Setup Tray: {cmd.actor} is not placing units now (waiting for: {', '.join(seq.pending) or 'nobody'})")
    if not tray_units(ctx.state, cmd.actor):
        raise Rejected(f"Setup Tray: {cmd.actor}'s setup tray is empty; nothing to restore")
    if not _place_defaults(ctx, cmd.actor):
        raise Rejected(f"Setup Tray: no unit in {cmd.actor}'s setup tray has a legal hex left in its setup area")


def _unit_model(u: oob.UnitData):
    from plugins.rules.units import Unit

    return Unit(id=u.id, power=u.power, nationality=u.nationality, branch=u.branch, type=u.type, name=u.name,
                factors=dict(u.factors), size=u.size, year=u.year, flags=list(u.flags), hex=None, where=TRAY)


def _fill_tray(ctx, power: str, occasion: str, new_units: list[str]) -> None:
    leftovers = [uid for uid in tray_units(ctx.state, power) if uid not in new_units]
    ctx.emit(SetupTrayFilled(power=power, occasion=occasion, units=leftovers + new_units))


def setup(ctx) -> None:
    """The starting position: control, war, length, and every counter in its setup tray."""
    from plugins.rules.core import CountryControlSet, HexControlChanged, LastTurnSet, WarDeclared
    from plugins.rules.units import UnitCreated

    data = oob.scenario_data()
    countries, hexes = oob.start_control()
    for country, power in countries.items():
        ctx.emit(CountryControlSet(country=country, power=power))
    for h, power in sorted(hexes.items()):
        ctx.emit(HexControlChanged(hex=h, power=power))
    for pair in data.political.at_war:
        ctx.emit(WarDeclared(powers=tuple(pair)))
    ctx.emit(LastTurnSet(turn=TURNS))
    for u in data.units:
        if u.turn == 1:
            ctx.emit(UnitCreated(unit=_unit_model(u)))
    first = data.setup_order[0]
    ctx.emit(SetupPowerSet(power=first))
    _fill_tray(ctx, first, "setup", [u.id for u in data.units if u.turn == 1 and u.power == first])


def reinforcements(ctx, step_id: str) -> None:
    """Reinforcements: this turn's arrivals enter the setup tray, then are placed."""
    if not _ours(ctx.state):
        return
    from plugins.rules.units import UnitCreated

    turn = ctx.state.kernel.turn
    data = oob.scenario_data()
    waiting = False
    for power in ctx.state.kernel.powers():
        arriving = [u for u in data.units if u.turn == turn and u.power == power]
        for u in arriving:
            ctx.emit(UnitCreated(unit=_unit_model(u)))
        _fill_tray(ctx, power, f"reinforcements-turn-{turn}", [u.id for u in arriving])
        waiting = waiting or bool(tray_units(ctx.state, power))
    if waiting:
        ctx.push("procedures.reinforcements")


def count_objectives(state) -> tuple[dict[str, float], list[dict]]:
    """Victory, Barbarossa Special Victory Conditions: objectives per major power and the
    rows of the victory form.  Objectives not held by a major power of the game count for
    the one with the closest home capital (half each when equidistant)."""
    from plugins.rules.core import hex_controller, world_map

    m = world_map()
    powers = state.kernel.powers()
    capitals = {}
    for p in powers:
        city = m.city({"germany": "Berlin", "ussr": "Moscow"}.get(p, ""))
        if city is not None:
            capitals[p] = city.hex
    counts = {p: 0.0 for p in powers}
    rows = []
    for h, (name, value) in sorted(oob.objective_values().items(), key=lambda kv: (kv[0][1], kv[0][0])):
        owner = hex_controller(state, h)
        if owner in counts:
            credit = {owner: 1.0}
        else:
            dist = {p: m.grid.distance(h, c) for p, c in capitals.items()}
            best = min(dist.values())
            near = [p for p, d in dist.items() if d == best]
            credit = {p: 1.0 / len(near) for p in near}
        for p, share in credit.items():
            counts[p] += share * value
        rows.append({"name": name, "hex": list(h), "value": value, "controller": owner,
                     "credited": {p: share * value for p, share in credit.items()}})
    return counts, rows


def victory_check(ctx, step_id: str) -> None:
    """Victory Check: no automatic victory in Barbarossa; the final count on the last turn."""
    if not _victory_rules(ctx.state):
        return
    from plugins.rules.core import world

    k = ctx.state.kernel
    counts, rows = count_objectives(ctx.state)
    ctx.emit(ObjectivesCounted(turn=k.turn, objectives=counts, held=rows))
    last = world(ctx.state).last_turn or int(k.options.get("last_turn", TURNS))
    if k.turn < last:
        return
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        winner, side = None, None
        result = f"A draw: {ranked[0][1]:g} objectives each"
    else:
        winner = ranked[0][0]
        side = k.side_of(winner)
        others = ", ".join(f"{p} {v:g}" for p, v in ranked[1:])
        name = POWER_NAMES.get(winner, winner)
        result = f"{name[0].upper() + name[1:]} wins with {ranked[0][1]:g} objectives ({others})"
    ctx.emit(VictoryDetermined(turn=k.turn, objectives=counts, winner=winner, side=side, result=result))


# ---------------------------------------------------------------- hooks
@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id=SCENARIO, name="Barbarossa", sides=SIDES, sequence="wif", setup=setup,
                          description="Germany against the USSR, May/June 1941 to Jan/Feb 1942: 5 turns."))


@hookimpl
def register_state(register):
    register(SCENARIO, ScenarioState)


@hookimpl
def register_events(register):
    for model in (SetupPowerSet, SetupTrayFilled, ObjectivesCounted, VictoryDetermined):
        register(model)


@hookimpl
def register_reducers(register):
    register("SetupPowerSet", _setup_power)
    register("SetupTrayFilled", _tray)
    register("ObjectivesCounted", _counted)
    register("VictoryDetermined", _victory)


@hookimpl
def register_commands(register):
    register(PlaceUnit, place_unit)
    register(RestoreSetup, restore_setup, anytime=True)


@hookimpl
def register_step_rules(register):
    register(REINFORCEMENTS, reinforcements)
    register(VICTORY_CHECK, victory_check)


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if not _ours(state):
        return None
    if kind == "rule:setup-power":
        power = scenario_state(state).setup_power
        return [power] if power else []
    if kind == "rule:reinforcing-power" and step_id == REINFORCEMENT_PLACING:
        return [p for p in state.kernel.powers() if tray_units(state, p)]
    return None


@hookimpl
def skip_step(state, step_id, spec):
    if not _ours(state):
        return None
    if step_id == "wif.new-game.setup.lend-leasing-units":
        return "Setup: no lend lease in Barbarossa, which has only one country on each side"
    if step_id == "wif.new-game.setup.set-up-each-major-power.random-draw":
        return "Setup: Barbarossa's order of battle is fixed; nothing is drawn at random"
    if step_id == REINFORCEMENTS and state.kernel.turn <= 1:
        return "Reinforcements: every turn except the first starts with the arrival of reinforcements"
    if step_id == "wif.procedures.reinforcements.annual-additions":
        return "Annual Additions: Barbarossa has no force pools; its reinforcements arrive by turn"
    return None


@hookimpl
def repeat_step(ctx, step_id, spec):
    """Setup: after a power has placed its units the next power sets up (USSR, then Germany)."""
    if step_id != SETUP_LOOP or not _ours(ctx.state):
        return None
    s = scenario_state(ctx.state)
    order = oob.scenario_data().setup_order
    power = s.setup_power
    if power is not None:
        _place_defaults(ctx, power)  # units left in the tray go to their default positions
    i = order.index(power) if power in order else len(order)
    if i + 1 < len(order):
        nxt = order[i + 1]
        ctx.emit(SetupPowerSet(power=nxt))
        ids = [u.id for u in oob.scenario_data().units if u.turn == 1 and u.power == nxt]
        _fill_tray(ctx, nxt, "setup", ids)
        return True
    ctx.emit(SetupPowerSet(power=None))
    return False


@hookimpl
def describe_event(event, state):
    d = event.data
    t = event.type
    if t == "SetupPowerSet":
        return f"{d['power']} sets up" if d["power"] else "Every major power has set up"
    if t == "SetupTrayFilled":
        return f"{d['power']}'s setup tray ({d['occasion']}): {len(d['units'])} units"
    if t == "ObjectivesCounted":
        return f"Turn {d['turn']} objectives: " + ", ".join(f"{p} {v:g}" for p, v in d["objectives"].items())
    if t == "VictoryDetermined":
        return f"Victory: {d['result']}"
    return None
from .victory_hooks import game_result, objective_hexes  # noqa: E402,F401  (registered with the plugin)
