"""Air rules: air missions through the Air Mission sub-machine, air-to-air combat, air
rebase and return to base.

Seeds: "Air Attacks", "Air-to-air Combat (see RAC 14.3)", "Air-to-air Combat Results
Table", "Disable Phases and Combat Air Patrol", "Combat Air Patrol (CAP)", "Ground
Strike", "Ground Support", "Air Rebase", "Return to Base by Phasing Side" / "… by
Non-Phasing Side" and the Air Mission subphases (PM 7.8.1-7.8.12); rules-c §1.9, §1.9a,
§2.1.

How it runs:
- the mission phases (Ground Strike in the Independent Air Missions stage, Ground Support
  in the Land Combat phase) are automatic steps: each records ``AirMissionBegan`` and
  pushes ``procedures.air-mission``;
- in that sub-machine the non-phasing side flies CAP (``FlyCAP``), the phasing side its
  bombers and escorts (``FlyMission``), in Ground Support the non-phasing side too, then
  both sides fly interceptors (``FlyIntercept``);
- the Air-to-air Combat subphase finds every hex with flying units of both sides and a
  fighter, and runs ``procedures.air-to-air-combat`` for each (``SelectAirCombat``,
  ``ArrangeAirLine``, ``ChooseAirCasualty``, ``AirCombatAbortOrStay``); dice and results
  are decided in its automatic steps;
- the mission is performed when the last air-to-air combat is over (see ``perform``);
- a unit aborted in air-to-air combat returns to base at once: when the result step (or
  the abort-or-stay step) ends, ``step_ended`` pushes ``digressions.return-to-base`` for its
  owner (Return to Base Digression; no friendly hex in range destroys it);
- every other unit that flew returns to base (``ReturnAirToBase``) and is face down
  (disorganized) afterwards; ``RebaseAir`` in the Air Rebase stage does not disorganize.

Tactical factors are modified by the target hex's weather and terrain (``tactical_factor``:
halved in rain or snow, authored terrain values in data/air.json) and no mission flies to a
weather zone in storm or blizzard (Weather Report).

Ground support factors are kept here, keyed by the defending hex, in
``state["air"].ground_support`` ("col,row" -> side -> tactical factors), read them with
``ground_support(state, hex)``.  The land combat plugin adds them to the attack or the
defence (and applies the cap: factors above the side's land factors are ignored).
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from kernel.builtin import DecisionFinished
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from plugins.rules.core import ActivityUsed, action_of, enemies, hex_controller, hex_key, weather_in, world_map
from plugins.rules.units import UnitFlipped, UnitMoved

from .hooks import HOOKSPECS  # noqa: F401  (published hooks, see hooks.py)

DATA = Path(__file__).parent / "data"
ROOT = "wif"
AM = f"{ROOT}.procedures.air-mission"
A2A = f"{ROOT}.procedures.air-to-air-combat"
ROUND = f"{A2A}.round"
GROUND_STRIKE = f"{ROOT}.turn.impulse.independent-air.ground-strike"
GROUND_SUPPORT = f"{ROOT}.turn.impulse.land.combat.ground-support.ground-support-mission"
AIR_REBASE = f"{ROOT}.turn.impulse.air-rebase.air-rebase"
RETURN_TO_BASE_DIGRESSION = f"{ROOT}.digressions.return-to-base"
EOT_RTB = (f"{ROOT}.turn.end-of-turn.return-to-base-phasing", f"{ROOT}.turn.end-of-turn.return-to-base-non-phasing")
MISSION_KIND = {GROUND_STRIKE: "ground-strike", GROUND_SUPPORT: "ground-support"}
MISSION_NAME = {"ground-strike": "Ground Strike", "ground-support": "Ground Support"}
# Action Choice (RAC 10) / rules-c §1.0: actions that allow the phase, used only when the
# turn plugin (which owns phase gating and activity limits) is not installed.
ALLOWING = {"ground-strike": {"naval", "air", "land", "combined"},
            "ground-support": {"naval", "air", "land", "combined"},
            "air-rebase": {"naval", "air", "land", "combined"}}


@cache
def rules_data() -> dict:
    return json.loads((DATA / "air.json").read_text())


@cache
def a2a_table() -> list[tuple[int, str]]:
    data = json.loads((DATA / "air_to_air_table.json").read_text())
    return [(row["min"], row["result"]) for row in data["ladder"]]


def a2a_result(modified_total: float) -> str:
    """Air-to-air Combat Results Table (authored ladder, see data/air_to_air_table.json)."""
    for least, result in a2a_table():
        if modified_total >= least:
            return result
    return "-"


# ---------------------------------------------------------------- state
class Flight(BaseModel):
    unit: str
    power: str
    side: str
    role: Literal["bomber", "escort", "cap", "interceptor"]
    hex: tuple[int, int]
    base: tuple[int, int]


class Combat(BaseModel):
    hex: tuple[int, int]
    attacker: str  # the phasing side (the active side, which rolls second)
    defender: str  # the non-phasing side (rolls first)
    lines: dict[str, dict[str, list[str]]] = Field(default_factory=dict)  # side -> fighters/bombers
    # Arrange Units is a secret simultaneous choice: each side's new line waits here (and
    # its AirLineArranged event stays hidden from the other side) until both are revealed
    arranged: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    unrevealed: list[int] = Field(default_factory=list)  # seqs of AirLineArranged not revealed yet
    round: int = 0
    strength: dict[str, float] = Field(default_factory=dict)
    value: dict[str, float] = Field(default_factory=dict)
    no_roll: list[str] = Field(default_factory=list)
    pending: dict | None = None  # the last roll: roller, target_side, result, chooser, candidates, chosen, applied
    aborted_sides: list[str] = Field(default_factory=list)
    ended: bool = False


class Mission(BaseModel):
    kind: str = ""
    phase: str = ""
    flights: dict[str, Flight] = Field(default_factory=dict)  # units flying now
    bombers_flown: dict[str, int] = Field(default_factory=dict)  # side -> bombers flown
    cleared: list[str] = Field(default_factory=list)
    destroyed: list[str] = Field(default_factory=list)
    aborted: list[str] = Field(default_factory=list)
    returning: list[str] = Field(default_factory=list)  # aborted, to return through the digression
    combats_left: list[tuple[int, int]] = Field(default_factory=list)
    combat: Combat | None = None
    performed: bool = False


class AirState(BaseModel):
    mission: Mission = Field(default_factory=Mission)
    # Ground Support: "col,row" of the defending hex -> side -> tactical factors added
    ground_support: dict[str, dict[str, int]] = Field(default_factory=dict)


def air(state) -> AirState:
    return state["air"]


def ground_support(state, hex_) -> dict[str, int]:
    """Tactical factors flown in ground support of the combat at ``hex_``, per side."""
    return dict(air(state).ground_support.get(hex_key(hex_), {}))


# ---------------------------------------------------------------- events
class AirMissionBegan(EventData):
    kind: str
    phase: str


class AirUnitFlew(EventData):
    unit: str
    power: str
    side: str
    role: str
    hex: tuple[int, int]
    base: tuple[int, int]


class AirCombatsFound(EventData):
    hexes: list[tuple[int, int]]


class AirCombatSelected(EventData):
    hex: tuple[int, int]
    attacker: str
    defender: str
    lines: dict[str, dict[str, list[str]]]


class AirLineArranged(EventData):
    side: str
    fighters: list[str]
    bombers: list[str]


class AirLinesRevealed(EventData):
    lines: dict[str, dict[str, list[str]]]


class AirCombatRoundStarted(EventData):
    round: int
    strength: dict[str, float]
    value: dict[str, float]
    no_roll: list[str] = Field(default_factory=list)


class AirCombatRolled(EventData):
    side: str
    dice: list[int]
    value: float
    modified: float
    result: str
    target_side: str
    chooser: str | None = None
    candidates: list[str] = Field(default_factory=list)
    reason: str = ""


class AirCasualtyChosen(EventData):
    unit: str
    by: str


class AirCombatResultApplied(EventData):
    unit: str
    effect: Literal["destroyed", "aborted", "cleared"]
    cause: str  # the result code, or "voluntary abort", "no fighters"


class AirCombatChoice(EventData):
    side: str
    abort: bool


class AirCombatEnded(EventData):
    hex: tuple[int, int]
    reason: str


class GroundStrikeRolled(EventData):
    # ``die`` is the best (lowest) die; ``dice`` every die when optional rules add some
    bomber: str
    target: str
    die: int
    tactical: int
    dice: list[int] = []
    success: bool


class AirGroundSupportFlown(EventData):
    hex: tuple[int, int]
    side: str
    factors: int
    units: list[str]


class AirMissionPerformed(EventData):
    kind: str


class AirUnitReturned(EventData):
    unit: str
    hex: tuple[int, int]


class AirUnitDestroyed(EventData):
    unit: str
    reason: str


class AirUnitRebased(EventData):
    unit: str
    from_hex: tuple[int, int]
    to_hex: tuple[int, int]


# ---------------------------------------------------------------- reducers
def _began(state, event):
    d = event.data
    a = air(state)
    a.mission = Mission(kind=d["kind"], phase=d["phase"])
    if d["kind"] == "ground-support":
        a.ground_support = {}


def _flew(state, event):
    d = event.data
    m = air(state).mission
    m.flights[d["unit"]] = Flight.model_validate(d)
    if d["role"] == "bomber":
        m.bombers_flown[d["side"]] = m.bombers_flown.get(d["side"], 0) + 1


def _combats_found(state, event):
    air(state).mission.combats_left = [tuple(h) for h in event.data["hexes"]]


def _combat_selected(state, event):
    d = event.data
    m = air(state).mission
    hex_ = tuple(d["hex"])
    m.combats_left = [h for h in m.combats_left if tuple(h) != hex_]
    m.combat = Combat(hex=hex_, attacker=d["attacker"], defender=d["defender"], lines=d["lines"])


def _line_arranged(state, event):
    d = event.data
    c = air(state).mission.combat
    c.arranged[d["side"]] = {"fighters": list(d["fighters"]), "bombers": list(d["bombers"])}
    c.unrevealed.append(event.seq)


def _lines_revealed(state, event):
    c = air(state).mission.combat
    for side, line in event.data["lines"].items():
        c.lines[side] = {"fighters": list(line["fighters"]), "bombers": list(line["bombers"])}
    c.arranged, c.unrevealed = {}, []


def _round_started(state, event):
    d = event.data
    c = air(state).mission.combat
    c.round = d["round"]
    c.strength, c.value, c.no_roll = dict(d["strength"]), dict(d["value"]), list(d["no_roll"])
    c.pending = None


def _rolled(state, event):
    d = event.data
    cands = list(d["candidates"])
    air(state).mission.combat.pending = {
        "roller": d["side"], "target_side": d["target_side"], "result": d["result"], "chooser": d["chooser"],
        "candidates": cands, "chosen": cands[0] if len(cands) == 1 else None, "applied": False}


def _casualty_chosen(state, event):
    air(state).mission.combat.pending["chosen"] = event.data["unit"]


def _result_applied(state, event):
    d = event.data
    m = air(state).mission
    c = m.combat
    for line in c.lines.values():
        for group in line.values():
            if d["unit"] in group:
                group.remove(d["unit"])
    if c.pending and c.pending.get("chosen") == d["unit"]:
        c.pending["applied"] = True
    if d["effect"] == "destroyed":
        m.destroyed.append(d["unit"])
        m.flights.pop(d["unit"], None)
    elif d["effect"] == "aborted":
        m.aborted.append(d["unit"])
        m.returning.append(d["unit"])
    else:
        m.cleared.append(d["unit"])


def _choice(state, event):
    if event.data["abort"]:
        air(state).mission.combat.aborted_sides.append(event.data["side"])


def _combat_ended(state, event):
    air(state).mission.combat.ended = True


def _support(state, event):
    d = event.data
    entry = air(state).ground_support.setdefault(hex_key(d["hex"]), {})
    entry[d["side"]] = entry.get(d["side"], 0) + d["factors"]


def _performed(state, event):
    air(state).mission.performed = True


def _returned(state, event):
    m = air(state).mission
    m.flights.pop(event.data["unit"], None)
    if event.data["unit"] in m.returning:
        m.returning.remove(event.data["unit"])


def _destroyed(state, event):
    m = air(state).mission
    if event.data["unit"] in m.returning:
        m.returning.remove(event.data["unit"])
    if m.flights.pop(event.data["unit"], None) is not None:
        m.destroyed.append(event.data["unit"])


EVENTS = (AirMissionBegan, AirUnitFlew, AirCombatsFound, AirCombatSelected, AirLineArranged, AirLinesRevealed,
          AirCombatRoundStarted,
          AirCombatRolled, AirCasualtyChosen, AirCombatResultApplied, AirCombatChoice, AirCombatEnded,
          GroundStrikeRolled, AirGroundSupportFlown, AirMissionPerformed, AirUnitReturned, AirUnitDestroyed,
          AirUnitRebased)
REDUCERS = {"AirMissionBegan": _began, "AirUnitFlew": _flew, "AirCombatsFound": _combats_found,
            "AirCombatSelected": _combat_selected, "AirLineArranged": _line_arranged, "AirLinesRevealed": _lines_revealed,
            "AirCombatRoundStarted": _round_started, "AirCombatRolled": _rolled,
            "AirCasualtyChosen": _casualty_chosen, "AirCombatResultApplied": _result_applied,
            "AirCombatChoice": _choice, "AirCombatEnded": _combat_ended, "AirGroundSupportFlown": _support,
            "AirMissionPerformed": _performed, "AirUnitReturned": _returned, "AirUnitDestroyed": _destroyed}


# ---------------------------------------------------------------- commands
class FlyCAP(Command):
    unit: str
    hex: tuple[int, int]


class FlyMission(Command):
    unit: str
    hex: tuple[int, int]
    role: Literal["bomber", "escort"] = "bomber"


class FlyIntercept(Command):
    unit: str
    hex: tuple[int, int]


class SelectAirCombat(Command):
    hex: tuple[int, int]


class ArrangeAirLine(Command):
    fighters: list[str] = Field(default_factory=list)  # front first
    bombers: list[str] = Field(default_factory=list)  # front first


class ChooseAirCasualty(Command):
    unit: str


class AirCombatAbortOrStay(Command):
    abort: bool


class ReturnAirToBase(Command):
    unit: str
    hex: tuple[int, int]


class RebaseAir(Command):
    unit: str
    hex: tuple[int, int]


# ---------------------------------------------------------------- questions
def _units(state):
    return state["units"].units


def _side(state, power: str) -> str | None:
    return state.kernel.side_of(power)


def _other(state, side: str) -> str:
    return next(s for s in state.kernel.sides if s != side)


def _name(state, unit_id: str) -> str:
    u = _units(state).get(unit_id)
    if u is None:
        return unit_id
    return f"{u.power} {u.name or u.type} ({unit_id})"


def distance(a, b) -> int:
    return world_map().grid.distance(tuple(a), tuple(b))


def reach(unit, purpose: str) -> int:
    """How far ``unit`` may fly for ``purpose`` (mission, escort, cap, intercept, rebase, return)."""
    return int(unit.factors.get("range", 0) * rules_data()["range_multiplier"][purpose])


def tactical_factor(state, unit, hex_) -> int:
    """``unit``'s tactical factor attacking ``hex_``: halved in rain or snow (Weather Report,
    after the desert shift) and by the hex's terrain (authored RAC 14.5 values), see data/air.json."""
    from plugins.rules.land.movement import effective_terrain, effective_weather  # noqa: PLC0415  (the Weather Report's terrain rules)

    d = rules_data()
    terrain = world_map().terrain(tuple(hex_))
    weather = effective_weather(weather_in(state, hex_), terrain)
    multiplier = (d["tactical_weather_multiplier"].get(weather, 1.0)
                  * d["tactical_terrain_multiplier"].get(effective_terrain(terrain, weather), 1.0))
    return math.floor(unit.factors.get("tactical", 0) * multiplier)


def check_mission_weather(state, hex_, rule: str) -> None:
    # Weather Report: "The only mission you may fly to a weather zone in storm or blizzard
    # is a rebase mission."
    weather = weather_in(state, hex_)
    if weather in rules_data()["no_missions_in_weather"]:
        raise Rejected(f"{rule}: hex {tuple(hex_)} is in a weather zone in {weather}; the only mission "
                       "you may fly there is a rebase")


def is_fighter(unit) -> bool:
    d = rules_data()
    return unit.type in d["fighter_types"] or unit.type in d["carrier_types"]


def is_carrier(unit) -> bool:
    return unit.type in rules_data()["carrier_types"]


def friendly_base(state, power: str, hex_) -> bool:
    """A land hex controlled by a power of ``power``'s side."""
    hex_ = tuple(hex_)
    if not world_map().is_land(hex_):
        return False
    owner = hex_controller(state, hex_)
    return owner is not None and _side(state, owner) == _side(state, power)


def attacked_hexes(state) -> set[tuple[int, int]]:
    """Hexes under land attack this impulse (Ground Support targets).

    The land combat plugin's declared attacks (``open_combats``) when it is in the game;
    otherwise (the air plugin alone, as in its tests) every hex of non-phasing land units
    next to phasing land units."""
    if "combat" in state.sections:
        from plugins.rules.combat import open_combats  # noqa: PLC0415

        return {tuple(c.hex) for c in open_combats(state)}
    phasing = state.kernel.active_side
    grid = world_map().grid
    mine = {u.hex for u in _units(state).values() if u.branch == "land" and u.on_map and _side(state, u.power) == phasing}
    return {u.hex for u in _units(state).values()
            if u.branch == "land" and u.on_map and _side(state, u.power) not in (phasing, None)
            and any(n in mine for n in grid.neighbours(u.hex))}


def _strike_targets(state, power: str, hex_) -> list:
    """Ground Strike: the organized enemy land and air units in the hex (not the flying ones)."""
    flying = air(state).mission.flights
    return sorted((u for u in state["units"].in_hex(tuple(hex_))
                   if u.branch in ("land", "air") and u.face_up and u.id not in flying and enemies(state, power, u.power)),
                  key=lambda u: u.id)


def viable_target(state, power: str, kind: str, hex_) -> bool:
    if kind == "ground-strike":
        return bool(_strike_targets(state, power, hex_))
    if kind == "ground-support":
        return tuple(hex_) in attacked_hexes(state)
    return False


def _check_action(state, power: str, what: str) -> None:
    """Action Choice gating; the turn plugin decides when installed (imported lazily)."""
    try:
        from plugins.rules.turn.activities import check_action  # noqa: PLC0415
    except ImportError:
        check_action = None
    if check_action is not None:
        check_action(state, power, what)
        return
    kind = what
    action = action_of(state, power)
    if action not in ALLOWING.get(kind, set()):
        raise Rejected(f"Action Choice: {power} chose {'no' if action is None else 'a ' + action.capitalize()} "
                       f"action, which does not allow {kind.replace('-', ' ')}")


def _use_activity(ctx, power: str, kind: str, mission: str | None = None) -> None:
    """Activity Limits (RAC 10.2); counted by the turn plugin when installed."""
    try:
        from plugins.rules.turn.activities import use_activity  # noqa: PLC0415
    except ImportError:
        use_activity = None
    if use_activity is not None:
        use_activity(ctx, power, kind, mission=mission)
    else:
        ctx.emit(ActivityUsed(power=power, kind=kind))


def _can_fly(state, actor: str, unit_id: str):
    unit = _units(state).get(unit_id)
    if unit is None:
        raise Rejected(f"Air missions: there is no unit {unit_id!r}")
    if unit.power != actor:
        raise Rejected(f"Air missions: {_name(state, unit_id)} belongs to {unit.power}, not {actor}")
    if unit.branch != "air":
        raise Rejected(f"Air missions: {_name(state, unit_id)} is not an air unit")
    if not unit.on_map:
        raise Rejected(f"Air missions: {_name(state, unit_id)} is not on the map")
    if not unit.face_up:
        raise Rejected(f"Air missions: {_name(state, unit_id)} is face down (disorganized) and cannot fly")
    if unit_id in air(state).mission.flights:
        raise Rejected(f"Air missions: {_name(state, unit_id)} is already flying in this mission")
    return unit


def _in_range(state, unit, hex_, purpose: str, rule: str) -> None:
    dist, limit = distance(unit.hex, hex_), reach(unit, purpose)
    if dist > limit:
        raise Rejected(f"{rule}: {_name(state, unit.id)} can fly {limit} hexes for {purpose}, "
                       f"hex {tuple(hex_)} is {dist} hexes away")


def _fly(ctx, unit, role: str, hex_) -> None:
    ctx.emit(AirUnitFlew(unit=unit.id, power=unit.power, side=_side(ctx.state, unit.power), role=role,
                         hex=tuple(hex_), base=unit.hex))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=tuple(hex_)))


def _finish(ctx, actor: str) -> None:
    """The actor's decision in this step is complete (as FinishStep does)."""
    seq = ctx.state.kernel.sequence
    ctx.emit(DecisionFinished(step=seq.current or "", who=ctx.decider_for(actor)))
    if not ctx.state.kernel.sequence.pending:
        ctx.advance()


def _mission_running(state, rule: str) -> Mission:
    m = air(state).mission
    if not m.kind or m.performed:
        raise Rejected(f"{rule}: no air mission is being flown now")
    return m


# ---------------------------------------------------------------- flying
def fly_cap(ctx, cmd: FlyCAP) -> None:
    # Combat Air Patrol (CAP): non-phasing fighters, full range, only to a truly threatened hex
    state = ctx.state
    m = _mission_running(state, "Combat Air Patrol")
    unit = _can_fly(state, cmd.actor, cmd.unit)
    if not is_fighter(unit):
        raise Rejected(f"Combat Air Patrol: only fighters fly CAP; {_name(state, unit.id)} is a {unit.type}")
    enemy = next(iter(state.kernel.sides[state.kernel.active_side]))
    if not viable_target(state, enemy, m.kind, cmd.hex):
        raise Rejected(f"Combat Air Patrol: hex {tuple(cmd.hex)} is not threatened by this "
                       f"{MISSION_NAME[m.kind]} mission (no target there for the enemy)")
    _in_range(state, unit, cmd.hex, "cap", "Combat Air Patrol")
    check_mission_weather(state, cmd.hex, "Combat Air Patrol")
    _fly(ctx, unit, "cap", cmd.hex)  # CAP does not count against activity limits


def fly_mission(ctx, cmd: FlyMission) -> None:
    # Phasing Side Flies Bombers & Escorts / Non-Phasing Side Flies Bombers & Escorts
    state = ctx.state
    rule = "Air missions"
    m = _mission_running(state, rule)
    unit = _can_fly(state, cmd.actor, cmd.unit)
    check_mission_weather(state, cmd.hex, MISSION_NAME[m.kind])
    side = _side(state, cmd.actor)
    phasing = side == state.kernel.active_side
    if phasing and m.kind == "ground-support":
        # Ground Support: "All major powers on both sides can fly ground support missions,
        # except for major powers on the phasing side which chose a Pass action."
        if action_of(state, cmd.actor) in (None, "pass"):
            raise Rejected(f"Ground Support: {cmd.actor} chose a Pass action (or none) and cannot fly ground support")
    elif phasing:
        _check_action(state, cmd.actor, m.kind)
    if cmd.role == "bomber":
        if unit.factors.get("tactical", 0) <= 0:
            raise Rejected(f"{MISSION_NAME[m.kind]}: {_name(state, unit.id)} has no tactical factor and cannot fly as a bomber")
        if not viable_target(state, cmd.actor, m.kind, cmd.hex):
            what = "no organized enemy unit" if m.kind == "ground-strike" else "no land attack"
            raise Rejected(f"{MISSION_NAME[m.kind]}: hex {tuple(cmd.hex)} is not a target ({what} there)")
        _in_range(state, unit, cmd.hex, "mission", MISSION_NAME[m.kind])
        if m.kind == "ground-strike":
            # Activity Limits: every aircraft that flies is an air mission, except CAP,
            # escort, interception and ground support.
            _use_activity(ctx, cmd.actor, "air-mission", mission=m.kind)
    else:
        if not is_fighter(unit):
            raise Rejected(f"Escort: only fighters escort; {_name(state, unit.id)} is a {unit.type}")
        if not any(f.role == "bomber" and f.side == side and f.hex == tuple(cmd.hex) for f in m.flights.values()):
            raise Rejected(f"Escort: no friendly bomber is flying to hex {tuple(cmd.hex)} to escort")
        _in_range(state, unit, cmd.hex, "escort", "Escort")
    _fly(ctx, unit, cmd.role, cmd.hex)


def fly_intercept(ctx, cmd: FlyIntercept) -> None:
    # Non-Phasing / Phasing Side Flies Interceptors: fighters at half range, to a hex
    # where the enemy has flown in this mission
    state = ctx.state
    m = _mission_running(state, "Interception")
    unit = _can_fly(state, cmd.actor, cmd.unit)
    if not is_fighter(unit):
        raise Rejected(f"Interception: only fighters intercept; {_name(state, unit.id)} is a {unit.type}")
    side = _side(state, cmd.actor)
    if not any(f.side != side and f.hex == tuple(cmd.hex) for f in m.flights.values()):
        raise Rejected(f"Interception: no enemy aircraft have flown to hex {tuple(cmd.hex)}")
    _in_range(state, unit, cmd.hex, "intercept", "Interception (half range)")
    check_mission_weather(state, cmd.hex, "Interception")
    _fly(ctx, unit, "interceptor", cmd.hex)


# ---------------------------------------------------------------- air-to-air combat
def _combat_hexes(state) -> list[tuple[int, int]]:
    """Air-to-air combat is fought where both sides fly units and either has a fighter."""
    by_hex: dict[tuple, list[Flight]] = {}
    for f in air(state).mission.flights.values():
        by_hex.setdefault(f.hex, []).append(f)
    out = []
    for hex_, flights in sorted(by_hex.items()):
        if len({f.side for f in flights}) == 2 and any(f.role != "bomber" for f in flights):
            out.append(hex_)
    return out


def _default_lines(state, hex_) -> dict[str, dict[str, list[str]]]:
    units = _units(state)
    lines: dict[str, dict[str, list[str]]] = {s: {"fighters": [], "bombers": []} for s in state.kernel.sides}
    flights = [f for f in air(state).mission.flights.values() if f.hex == tuple(hex_)]
    for f in flights:
        lines[f.side]["bombers" if f.role == "bomber" else "fighters"].append(f.unit)
    for line in lines.values():  # best air-to-air fighter in front, best bombers at the back
        line["fighters"].sort(key=lambda u: (-units[u].factors.get("air", 0), u))
        line["bombers"].sort(key=lambda u: (units[u].factors.get("tactical", 0), u))
    return lines


def side_dm(state, side: str) -> str:
    """The side's decision maker in an air combat: the power with most air units in it."""
    c = air(state).mission.combat
    units = _units(state)
    ids = [u for g in c.lines.get(side, {}).values() for u in g] if c else []
    counts: dict[str, tuple[int, int]] = {}
    for u in ids:
        n, f = counts.get(units[u].power, (0, 0))
        counts[units[u].power] = (n + 1, f + is_fighter(units[u]))
    if not counts:
        return state.kernel.sides[side][0]
    return sorted(counts, key=lambda p: (-counts[p][0], -counts[p][1], p))[0]


def _needs_arranging(c: Combat) -> bool:
    # Arrange Units: skipped if both sides have 0-1 fighters and 0-1 bombers
    return any(len(line["fighters"]) > 1 or len(line["bombers"]) > 1 for line in c.lines.values())


def _alive(c: Combat, side: str) -> bool:
    line = c.lines.get(side, {})
    return bool(line.get("fighters") or line.get("bombers"))


def rating(state, unit, role: str, hook=None) -> float:
    """A unit's air-to-air rating as modified by optional rules (``air_to_air_modifiers``)."""
    value = float(unit.factors.get("air", 0))
    if hook is not None:
        value += sum(d for answer in hook.air_to_air_modifiers(state=state, unit=unit, role=role)
                     for d, _ in answer or ())
    return value


def strength(state, line: dict[str, list[str]], opposing: dict | None = None, hook=None) -> tuple[float, bool]:
    """Air-to-air strength and whether the side rolls ("Combat values").

    Front fighter's rating + 1 per other FTR + 0.5 per other carrier air unit; with no
    fighter group, the front bomber's rating (an unarmed bomber does not roll).  ``hook``
    lets optional rules modify ratings and back-up fighters (against ``opposing``'s line)."""
    units = _units(state)
    if line["fighters"]:
        front, *others = line["fighters"]
        total = rating(state, units[front], "front-fighter", hook)
        their_front = (opposing or {}).get("fighters") or []
        their = rating(state, units[their_front[0]], "front-fighter", hook) if their_front else None
        for u in others:
            if is_carrier(units[u]):
                total += 0.5
            elif hook is None or hook.backup_fighter_counts(
                    state=state, unit=units[u], rating=rating(state, units[u], "backup", hook),
                    opposing_front_rating=their) is not False:
                total += 1.0
        return total, True
    if line["bombers"]:
        front = units[line["bombers"][0]]
        return rating(state, front, "front-bomber", hook), "unarmed" not in front.flags
    return 0.0, False


def _select(ctx, hex_) -> None:
    state = ctx.state
    attacker = state.kernel.active_side
    ctx.emit(AirCombatSelected(hex=tuple(hex_), attacker=attacker, defender=_other(state, attacker),
                               lines=_default_lines(state, hex_)))
    if not _needs_arranging(air(state).mission.combat):
        begin_round(ctx)


def begin_round(ctx) -> None:
    """A new round: clear through bombers facing no fighters, strengths, the defender fires."""
    state = ctx.state
    c = air(state).mission.combat
    for side in (c.defender, c.attacker):
        if not c.lines[side]["fighters"]:
            # "If a side starts a round with no fighters, all opposing bombers are
            # immediately cleared through to the target."
            for bomber in list(c.lines[_other(state, side)]["bombers"]):
                ctx.emit(AirCombatResultApplied(unit=bomber, effect="cleared", cause="no fighters"))
    if not (_alive(c, c.attacker) and _alive(c, c.defender)):
        return
    strengths, rolls = {}, {}
    for side in (c.defender, c.attacker):
        strengths[side], rolls[side] = strength(state, c.lines[side], c.lines[_other(state, side)],
                                                ctx.host.pm.hook)
    values = {s: strengths[s] - strengths[_other(state, s)] for s in strengths}
    ctx.emit(AirCombatRoundStarted(round=c.round + 1, strength=strengths, value=values,
                                   no_roll=[s for s in rolls if not rolls[s]]))
    fire(ctx, c.defender)  # 1. The inactive side rolls two dice and adds them together.


def fire(ctx, side: str) -> None:
    state = ctx.state
    c = air(state).mission.combat
    target = _other(state, side)
    value = c.value.get(side, 0.0)
    if not _alive(c, side) or not _alive(c, target) or side in c.no_roll:
        why = "unarmed" if side in c.no_roll else "no opposing aircraft left"
        ctx.emit(AirCombatRolled(side=side, dice=[], value=value, modified=0, result="-", target_side=target, reason=why))
        return
    m = air(state).mission
    dice = ctx.roll(f"air-to-air combat over {c.hex} ({MISSION_NAME.get(m.kind, m.kind)}), round {c.round}: {side} fires",
                    faces=10, count=2)
    modified = sum(dice) + value
    result = a2a_result(modified)
    result = ctx.host.pm.hook.air_combat_result(state=state, combat=c, side=side, result=result) or result
    line = c.lines[target]
    if result in ("AX", "DX", "AA", "DA"):
        candidates = [g[0] for g in (line["fighters"], line["bombers"]) if g]
    elif result in ("AC", "DC"):
        candidates = list(line["bombers"])
    else:
        candidates = []
    chooser = None
    if candidates:
        chooser = side_dm(state, side if result.startswith("A") else target)
    ctx.emit(AirCombatRolled(side=side, dice=dice, value=value, modified=modified, result=result,
                             target_side=target, chooser=chooser, candidates=candidates))


def apply_result(ctx, target_side: str) -> None:
    c = air(ctx.state).mission.combat
    p = c.pending
    if not p or p["target_side"] != target_side or p["applied"] or not p["chosen"]:
        return
    effect = {"X": "destroyed", "A": "aborted", "C": "cleared"}[p["result"][1]]
    unit = p["chosen"]
    ctx.emit(AirCombatResultApplied(unit=unit, effect=effect, cause=p["result"]))
    _after_effect(ctx, unit, effect)


def _after_effect(ctx, unit: str, effect: str) -> None:
    if effect == "destroyed":
        ctx.emit(UnitMoved(unit=unit, to_hex=None, to_where="force-pool"))
    elif effect == "aborted" and _units(ctx.state)[unit].face_up:
        # "An aborted air unit becomes disorganized"; it returns to base at once, through
        # the Return to Base digression when its result step ends (see ``step_ended``).
        ctx.emit(UnitFlipped(unit=unit, face_up=False))


def select_air_combat(ctx, cmd: SelectAirCombat) -> None:
    m = _mission_running(ctx.state, "Select Location")
    if tuple(cmd.hex) not in [tuple(h) for h in m.combats_left]:
        left = ", ".join(str(tuple(h)) for h in m.combats_left) or "none"
        raise Rejected(f"Air-to-air Combat: no air combat waits at {tuple(cmd.hex)} (waiting: {left})")
    _select(ctx, cmd.hex)
    _finish(ctx, cmd.actor)


def arrange_air_line(ctx, cmd: ArrangeAirLine) -> None:
    state = ctx.state
    c = air(state).mission.combat
    side = _side(state, cmd.actor)
    line = c.lines[side]
    if sorted(cmd.fighters) != sorted(line["fighters"]) or sorted(cmd.bombers) != sorted(line["bombers"]):
        raise Rejected(f"Air-to-air Combat, Arrangement: list every one of your fighters ({', '.join(line['fighters']) or 'none'}) "
                       f"and bombers ({', '.join(line['bombers']) or 'none'}) once, front first; units cannot change lines")
    ctx.emit(AirLineArranged(side=side, fighters=cmd.fighters, bombers=cmd.bombers))
    seq = ctx.state.kernel.sequence
    ctx.emit(DecisionFinished(step=seq.current or "", who=ctx.decider_for(cmd.actor)))
    if not ctx.state.kernel.sequence.pending:
        # Arrange Units: "neither side sees how the other side has arranged its units until
        # both sides click on the Ready button": both lines are revealed together
        ctx.emit(AirLinesRevealed(lines=dict(c.arranged)))
        begin_round(ctx)
        ctx.advance()


def choose_air_casualty(ctx, cmd: ChooseAirCasualty) -> None:
    p = air(ctx.state).mission.combat.pending
    if not p or p["chosen"] or cmd.unit not in p["candidates"]:
        allowed = ", ".join(p["candidates"]) if p else "none"
        raise Rejected(f"Air-to-air Combat Results: the {p['result'] if p else ''} result applies to one of: {allowed}")
    ctx.emit(AirCasualtyChosen(unit=cmd.unit, by=cmd.actor))
    _finish(ctx, cmd.actor)


def abort_or_stay(ctx, cmd: AirCombatAbortOrStay) -> None:
    state = ctx.state
    c = air(state).mission.combat
    side = _side(state, cmd.actor)
    ctx.emit(AirCombatChoice(side=side, abort=cmd.abort))
    if cmd.abort:
        # Voluntary abort: apply an "A" result to every air unit you have in the combat
        for unit in [u for g in c.lines[side].values() for u in g]:
            ctx.emit(AirCombatResultApplied(unit=unit, effect="aborted", cause="voluntary abort"))
            _after_effect(ctx, unit, "aborted")
    _finish(ctx, cmd.actor)


# ---------------------------------------------------------------- steps
def start_mission(ctx, step: str) -> None:
    kind = MISSION_KIND[step]
    ctx.emit(AirMissionBegan(kind=kind, phase=step))
    ctx.push("procedures.air-mission")


def air_to_air_step(ctx, step: str) -> None:
    # Air-to-air Combat subphase: run the air-to-air sub-machine for each combat hex
    hexes = _combat_hexes(ctx.state)
    if not hexes:
        perform(ctx)
        return
    ctx.emit(AirCombatsFound(hexes=hexes))
    _next_combat(ctx)


def _next_combat(ctx) -> None:
    m = air(ctx.state).mission
    if len(m.combats_left) == 1:
        _select(ctx, m.combats_left[0])  # Select Location is skipped with one combat
    ctx.push("procedures.air-to-air-combat")


def result_step(side_attr: str):
    def rule(ctx, step: str) -> None:
        c = air(ctx.state).mission.combat
        apply_result(ctx, getattr(c, side_attr))
    return rule


def attacker_fires(ctx, step: str) -> None:
    c = air(ctx.state).mission.combat
    fire(ctx, c.attacker)  # 3. The active side rolls two dice and adds them together.


def both_staying(ctx, step: str) -> None:
    state = ctx.state
    c = air(state).mission.combat
    if not c.ended:
        if c.aborted_sides or not (_alive(c, c.attacker) and _alive(c, c.defender)):
            reason = ("voluntary abort by " + ", ".join(c.aborted_sides)) if c.aborted_sides else "one side has no aircraft left"
            ctx.emit(AirCombatEnded(hex=c.hex, reason=reason))
        else:
            if not _needs_arranging(c):
                begin_round(ctx)
            return  # the round repeats (repeat_step)
    m = air(state).mission
    if m.combats_left:
        _next_combat(ctx)
    else:
        perform(ctx)


def perform(ctx) -> None:
    """Air Mission Performed (PM 7.8.10) for the bombers that survived air-to-air combat.

    Run at the end of the Air-to-air Combat subphase: anti-aircraft fire needs the
    optional AA units (no rule here), and the sequence's "Air Mission Performed" step
    names only the naval and reorganization commands."""
    state = ctx.state
    m = air(state).mission
    if m.performed:
        return
    units = _units(state)
    bombers = [f for f in m.flights.values() if f.role == "bomber" and f.unit not in m.aborted]
    if m.kind == "ground-strike":
        # Air Attacks, Ground strike: each bomber attacks each organized enemy land or
        # aircraft unit in the hex; 1d10 <= tactical factor disorganizes the target.
        for f in sorted(bombers, key=lambda f: f.unit):
            tactical = tactical_factor(state, units[f.unit], f.hex)  # weather and terrain (Air Attacks)
            for target in _strike_targets(state, f.power, f.hex):
                extra = sum(n or 0 for n in ctx.host.pm.hook.ground_strike_extra_dice(
                    state=state, bomber=units[f.unit], target=target))
                dice = ctx.roll(f"ground strike at {f.hex}: {units[f.unit].name or f.unit} vs {target.name or target.id}",
                                faces=10, count=1 + extra)
                die = min(dice)
                ok = die <= tactical
                ctx.emit(GroundStrikeRolled(bomber=f.unit, target=target.id, die=die, tactical=tactical, success=ok,
                                            dice=dice if extra else []))
                if ok:
                    ctx.emit(UnitFlipped(unit=target.id, face_up=False))
    elif m.kind == "ground-support":
        # Ground Support: the mission "simply adds the bombers tactical factors to the land attack"
        groups: dict[tuple, list[str]] = {}
        for f in bombers:
            groups.setdefault((f.hex, f.side), []).append(f.unit)
        for (hex_, side), ids in sorted(groups.items()):
            hook = ctx.host.pm.hook
            factors = 0
            for u in ids:
                # "An aircraft's tactical factors may be reduced by the weather ... and terrain
                # ... in the target hex" (Air Attacks, Ground support)
                base = tactical_factor(state, units[u], hex_)
                changed = hook.ground_support_factor(state=state, unit=units[u], hex_=hex_, side=side, factor=base)
                factors += base if changed is None else changed
            ctx.emit(AirGroundSupportFlown(hex=hex_, side=side, factors=factors, units=sorted(ids)))
            if "GroundSupportAdded" in ctx.host.events:  # the land combat plugin is in the game
                from plugins.rules.combat import GroundSupportAdded  # noqa: PLC0415

                role = "attacker" if side == state.kernel.active_side else "defender"
                ctx.emit(GroundSupportAdded(combat=hex_key(hex_), side=role, factors=factors))
    ctx.emit(AirMissionPerformed(kind=m.kind))
    # Return to Base: "some air units will be destroyed because they are unable to return"
    for f in list(m.flights.values()):
        if not _bases_in_reach(state, units[f.unit]):
            ctx.emit(AirUnitDestroyed(unit=f.unit, reason="no friendly base within range"))
            ctx.emit(UnitMoved(unit=f.unit, to_hex=None, to_where="force-pool"))


def _bases_in_reach(state, unit) -> bool:
    grid = world_map().grid
    return any(friendly_base(state, unit.power, h) for h in grid.within(unit.hex, reach(unit, "return")))


def send_aborted_home(ctx) -> None:
    """Return to Base Digression: aborted units return to base at once; one with no
    friendly hex in range is destroyed ("resulting in the unit being destroyed")."""
    state = ctx.state
    units = _units(state)
    for unit_id in list(air(state).mission.returning):
        if not _bases_in_reach(state, units[unit_id]):
            ctx.emit(AirUnitDestroyed(unit=unit_id, reason="aborted with no friendly base within range"))
            ctx.emit(UnitMoved(unit=unit_id, to_hex=None, to_where="force-pool"))
    if air(state).mission.returning:
        ctx.push("digressions.return-to-base")


# ---------------------------------------------------------------- return to base, rebase
def _at_sea(state, unit) -> bool:
    return unit.on_map and world_map().is_sea(unit.hex)


def return_air_to_base(ctx, cmd: ReturnAirToBase) -> None:
    state = ctx.state
    rule = "Return to Base"
    unit = _units(state).get(cmd.unit)
    if unit is None or unit.power != cmd.actor or unit.branch != "air":
        raise Rejected(f"{rule}: {cmd.unit!r} is not an air unit of {cmd.actor}")
    current = state.kernel.sequence.current
    m = air(state).mission
    end_of_turn = current in EOT_RTB
    aborted = current == RETURN_TO_BASE_DIGRESSION
    if end_of_turn:
        if not _at_sea(state, unit):
            raise Rejected(f"{rule}: {_name(state, unit.id)} is not at sea")
    elif aborted:
        if cmd.unit not in m.returning:
            raise Rejected(f"Return to Base Digression: {_name(state, unit.id)} did not abort "
                           "(it returns in its mission's Return to Base subphase)")
    elif cmd.unit not in m.flights:
        raise Rejected(f"{rule}: {_name(state, unit.id)} did not fly in this phase (or has returned)")
    if not friendly_base(state, cmd.actor, cmd.hex):
        raise Rejected(f"{rule}: hex {tuple(cmd.hex)} is not a land hex controlled by your side")
    _in_range(state, unit, cmd.hex, "return", rule)
    ctx.emit(UnitMoved(unit=unit.id, to_hex=tuple(cmd.hex)))
    ctx.emit(AirUnitReturned(unit=unit.id, hex=tuple(cmd.hex)))
    if unit.face_up:  # after an air mission the units that flew are disorganized
        ctx.emit(UnitFlipped(unit=unit.id, face_up=False))
    if end_of_turn:
        left = [u for u in _units(state).values() if u.power == cmd.actor and u.branch == "air" and _at_sea(state, u)]
    elif aborted:
        left = [u for u in m.returning if _units(state)[u].power == cmd.actor]
    else:
        left = [f for f in m.flights.values() if f.power == cmd.actor]
    if not left:
        _finish(ctx, cmd.actor)


def rebase_air(ctx, cmd: RebaseAir) -> None:
    # Air Rebase: not an air mission; cannot be intercepted, not disorganized afterwards
    state = ctx.state
    rule = "Air Rebase"
    unit = _units(state).get(cmd.unit)
    if unit is None or unit.power != cmd.actor or unit.branch != "air":
        raise Rejected(f"{rule}: {cmd.unit!r} is not an air unit of {cmd.actor}")
    if not unit.on_map:
        raise Rejected(f"{rule}: {_name(state, unit.id)} is not on the map")
    if tuple(cmd.hex) == unit.hex:
        raise Rejected(f"{rule}: {_name(state, unit.id)} is already at {tuple(cmd.hex)}")
    if not friendly_base(state, cmd.actor, cmd.hex):
        raise Rejected(f"{rule}: hex {tuple(cmd.hex)} is not a land hex controlled by your side")
    _in_range(state, unit, cmd.hex, "rebase", rule)
    _check_action(state, cmd.actor, "air-rebase")
    _use_activity(ctx, cmd.actor, "air-rebase")
    ctx.emit(AirUnitRebased(unit=unit.id, from_hex=unit.hex, to_hex=tuple(cmd.hex)))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=tuple(cmd.hex)))


# ---------------------------------------------------------------- hooks
@hookimpl
def register_state(register):
    register("air", AirState)


@hookimpl
def register_events(register):
    for model in EVENTS:
        register(model)


@hookimpl
def register_reducers(register):
    for name, fn in REDUCERS.items():
        register(name, fn)


@hookimpl
def register_commands(register):
    register(FlyCAP, fly_cap)
    register(FlyMission, fly_mission)
    register(FlyIntercept, fly_intercept)
    register(SelectAirCombat, select_air_combat)
    register(ArrangeAirLine, arrange_air_line)
    register(ChooseAirCasualty, choose_air_casualty)
    register(AirCombatAbortOrStay, abort_or_stay)
    register(ReturnAirToBase, return_air_to_base)
    register(RebaseAir, rebase_air)


@hookimpl
def register_step_rules(register):
    register(GROUND_STRIKE, start_mission)
    register(GROUND_SUPPORT, start_mission)
    register(f"{AM}.air-to-air-combat", air_to_air_step)
    register(f"{ROUND}.attacking-unit-result", result_step("attacker"))
    register(f"{ROUND}.attacker-fires", attacker_fires)
    register(f"{ROUND}.defending-unit-result", result_step("defender"))
    register(f"{ROUND}.both-staying", both_staying)


def _flights_of(state, side: str, roles=None) -> list[Flight]:
    return [f for f in air(state).mission.flights.values() if f.side == side and (roles is None or f.role in roles)]


def _mission_skip(state, step_id: str) -> str | None:
    m = air(state).mission
    ps = state.kernel.active_side
    if ps is None:
        return None
    nps = _other(state, ps)
    sub = step_id[len(AM) + 1:]
    flights = m.flights

    def no_fighters(side):
        return not any(u.power in state.kernel.sides[side] and u.branch == "air" and u.on_map and u.face_up
                       and is_fighter(u) and u.id not in flights for u in _units(state).values())

    if sub == "combat-air-patrol":
        if no_fighters(nps):
            return "the non-phasing side has no organized fighters to fly CAP"
    elif sub == "non-phasing-side-flies-bombers":
        if m.kind != "ground-support":
            return "the non-phasing side flies bombers only in Ground Support"
    elif sub == "non-phasing-side-flies-interceptors":
        if not m.bombers_flown.get(ps):
            return "no phasing bombers flew"
        if no_fighters(nps):
            return "the non-phasing side has no organized fighters to intercept"
    elif sub == "phasing-side-flies-interceptors":
        if not _flights_of(state, nps):
            return "no non-phasing aircraft flew"
        if no_fighters(ps):
            return "the phasing side has no organized fighters to intercept"
    elif sub.startswith("surprise-points-used"):
        return "surprise happens only in Port Attack"
    elif sub == "air-to-air-combat":
        if not any(m.bombers_flown.values()):
            return "no bombers flew"
    elif sub.startswith("aa-by-"):
        return "no anti-aircraft units fire (AA units are an optional rule not in play)"
    elif sub == "air-mission-performed":
        if m.performed:
            return "performed at the end of the Air-to-air Combat subphase"
    elif sub == "return-to-base-phasing":
        if not _flights_of(state, ps):
            return "no phasing air units to return"
    elif sub == "return-to-base-non-phasing":
        if not _flights_of(state, nps):
            return "no non-phasing air units to return"
    return None


def _round_skip(state, step_id: str) -> str | None:
    c = air(state).mission.combat
    if c is None or step_id.endswith(".both-staying") or step_id.endswith(".attacking-unit-result") \
            or step_id.endswith(".defending-unit-result"):
        return None
    if c.ended or not (_alive(c, c.attacker) and _alive(c, c.defender)):
        return "the air combat is over"
    if step_id.endswith(".defender-fires"):
        return "the defender rolled when the round began (above)"
    if step_id.endswith(".arrange-units") and not _needs_arranging(c):
        return "both sides have at most 1 fighter and 1 bomber"
    return None


@hookimpl
def skip_step(state, step_id, spec):
    if step_id in MISSION_KIND:
        ps = state.kernel.active_side
        kind = MISSION_KIND[step_id]
        if kind == "ground-support":
            if not attacked_hexes(state):
                return "no land attack to support"
            return None
        allowed = []
        for power in state.kernel.sides.get(ps, []):
            try:
                _check_action(state, power, kind)
            except Rejected:
                continue
            allowed.append(power)
        if not allowed:
            return f"no phasing power's action allows {MISSION_NAME[kind]}"
        if not any(u.power in allowed and u.branch == "air" and u.on_map and u.face_up and u.factors.get("tactical", 0) > 0
                   for u in _units(state).values()):
            return "no organized bombers to fly"
        return None
    if step_id.startswith(AM + "."):
        return _mission_skip(state, step_id)
    if step_id.startswith(ROUND + "."):
        return _round_skip(state, step_id)
    if step_id == f"{A2A}.select-location":
        c = air(state).mission.combat
        if c is not None and not c.ended:
            return "only one air-to-air combat"
    return None


@hookimpl
def repeat_step(ctx, step_id, spec):
    if step_id == ROUND:
        c = air(ctx.state).mission.combat
        return bool(c and not c.ended)
    return None


def sides_seen_by(state, player: str) -> set[str]:
    """The sides whose secrets ``player`` may see: those of the powers the player controls
    (a side's or a power's own name stands for that side)."""
    k = state.kernel
    if player in k.sides:
        return {player}
    powers = [p for p, who in k.controllers.items() if who == player] + [player]
    return {k.side_of(p) for p in powers} - {None}


@hookimpl
def event_view(event, player, view, state):
    # Air-to-air Combat: Arrange Units: an arrangement stays secret until both are revealed
    if event.type != "AirLineArranged":
        return
    c = air(state).mission.combat
    if c is not None and event.seq in c.unrevealed and event.data["side"] not in sides_seen_by(state, player):
        view["hidden"] = True


@hookimpl
def player_view(state, player, view):
    combat = (view["sections"].get("air") or {}).get("mission", {}).get("combat")
    if combat and combat.get("arranged"):
        seen = sides_seen_by(state, player)
        combat["arranged"] = {s: line for s, line in combat["arranged"].items() if s in seen}


def units_to_return(state, step_id: str, power: str) -> list[str]:
    """The air units ``power`` must still return to base before it may end ``step_id``."""
    m = air(state).mission
    if step_id in (f"{AM}.return-to-base-phasing", f"{AM}.return-to-base-non-phasing"):
        return sorted(f.unit for f in m.flights.values() if f.power == power)
    if step_id == RETURN_TO_BASE_DIGRESSION:
        return sorted(u for u in m.returning if _units(state)[u].power == power)
    if step_id in EOT_RTB:
        return sorted(u.id for u in _units(state).values() if u.power == power and u.branch == "air" and _at_sea(state, u))
    return []


@hookimpl
def finish_step_refusal(state, step_id, power):
    # Return to Base by Phasing / Non-Phasing Side: flown units "are required to return to
    # base"; end of turn Return To Base: "the End of Phase button is disabled until all the
    # requisite units have been returned to base"; so too the digression's aborted units.
    left = units_to_return(state, step_id or "", power)
    if left:
        return (f"Return to Base: {power} must first return to base " + ", ".join(_name(state, u) for u in left)
                + " (ReturnAirToBase)")
    return None


@hookimpl
def step_ended(ctx, step_id, spec):
    # Air-to-air Combat: Attacking / Defending Unit's Result: "if a unit is aborted, a
    # digression is necessary for the owner to perform a return to base for the air unit";
    # so too for a voluntary abort (an "A" result to every unit of the side).
    if step_id.startswith(A2A + ".") and air(ctx.state).mission.returning:
        send_aborted_home(ctx)


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if step_id == RETURN_TO_BASE_DIGRESSION and kind == "rule:returning-power":
        units = _units(state)
        return sorted({units[u].power for u in air(state).mission.returning}) or None
    c = air(state).mission.combat
    if step_id in EOT_RTB and kind in ("rule:last-phasing-powers", "rule:last-non-phasing-powers"):
        # End of turn Return to Base: the powers of that side with air units at sea
        side = state.kernel.active_side
        if side is None:
            return None
        if kind == "rule:last-non-phasing-powers":
            side = _other(state, side)
        return sorted({u.power for u in _units(state).values()
                       if u.branch == "air" and u.power in state.kernel.sides[side] and _at_sea(state, u)})
    if kind == "rule:air-combat-order-chooser":
        # Select Location: the phasing power with most bombers in air-to-air combats
        m = air(state).mission
        counts: dict[str, int] = {}
        for f in m.flights.values():
            if f.side == state.kernel.active_side and f.hex in [tuple(h) for h in m.combats_left]:
                counts[f.power] = counts.get(f.power, 0) + (f.role == "bomber")
        return sorted(counts, key=lambda p: (-counts[p], p))[:1]
    if c is None:
        return None
    if kind == "rule:air-combat-dms":
        return [side_dm(state, s) for s in (c.attacker, c.defender)]
    if kind == "rule:air-result-chooser":
        p = c.pending
        if p and not p["chosen"] and len(p["candidates"]) > 1:
            return [p["chooser"]]
        return []
    if kind == "rule:attacker":
        return [side_dm(state, c.attacker)] if step_id.startswith(A2A) else None
    if kind == "rule:defender":
        return [side_dm(state, c.defender)] if step_id.startswith(A2A) else None
    return None


@hookimpl
def describe_event(event, state):
    d = event.data
    t = event.type
    if t == "AirMissionBegan":
        return f"{MISSION_NAME.get(d['kind'], d['kind'])} air missions begin"
    if t == "AirUnitFlew":
        role = {"bomber": "as a bomber", "escort": "as an escort", "cap": "on combat air patrol",
                "interceptor": "to intercept"}[d["role"]]
        return f"{_name(state, d['unit'])} flies {role} to {tuple(d['hex'])} from {tuple(d['base'])}"
    if t == "AirCombatsFound":
        return "Air-to-air combat over " + ", ".join(str(tuple(h)) for h in d["hexes"])
    if t == "AirCombatSelected":
        return f"Air-to-air combat over {tuple(d['hex'])}: {d['defender']} defends, {d['attacker']} attacks"
    if t == "AirLineArranged":
        return f"{d['side']} arranges its fighters {d['fighters']} and bombers {d['bombers']} (front first)"
    if t == "AirLinesRevealed":
        return "Air-to-air lines revealed: " + "; ".join(
            f"{s} fighters {line['fighters']}, bombers {line['bombers']}" for s, line in sorted(d["lines"].items()))
    if t == "AirCombatRoundStarted":
        return "Air-to-air round {}: strength {}".format(
            d["round"], ", ".join(f"{s} {v:g} (combat value {d['value'][s]:+g})" for s, v in d["strength"].items()))
    if t == "AirCombatRolled":
        if not d["dice"]:
            return f"{d['side']} does not fire ({d['reason']})"
        res = "no effect" if d["result"] == "-" else d["result"]
        who = f"; {d['chooser']} chooses among {', '.join(d['candidates'])}" if len(d["candidates"]) > 1 else ""
        return (f"{d['side']} rolls {d['dice'][0]}+{d['dice'][1]} {d['value']:+g} = {d['modified']:g}: {res}{who}")
    if t == "AirCasualtyChosen":
        return f"{d['by']} chooses {_name(state, d['unit'])}"
    if t == "AirCombatResultApplied":
        effect = {"destroyed": "is destroyed", "aborted": "aborts", "cleared": "is cleared through to the target"}[d["effect"]]
        return f"{_name(state, d['unit'])} {effect} ({d['cause']})"
    if t == "AirCombatChoice":
        return f"{d['side']} {'aborts the air combat' if d['abort'] else 'stays in the air combat'}"
    if t == "AirCombatEnded":
        return f"Air-to-air combat over {tuple(d['hex'])} ends: {d['reason']}"
    if t == "GroundStrikeRolled":
        outcome = "disorganized" if d["success"] else "no effect"
        return (f"Ground strike: {_name(state, d['bomber'])} rolls {d['die']} against tactical {d['tactical']} "
                f"on {_name(state, d['target'])}: {outcome}")
    if t == "AirGroundSupportFlown":
        return f"Ground support: {d['side']} adds {d['factors']} tactical factors to the combat at {tuple(d['hex'])}"
    if t == "AirMissionPerformed":
        return f"{MISSION_NAME.get(d['kind'], d['kind'])} mission performed"
    if t == "AirUnitReturned":
        return f"{_name(state, d['unit'])} returns to base at {tuple(d['hex'])}"
    if t == "AirUnitDestroyed":
        return f"{_name(state, d['unit'])} is destroyed: {d['reason']}"
    if t == "AirUnitRebased":
        return f"{_name(state, d['unit'])} rebases from {tuple(d['from_hex'])} to {tuple(d['to_hex'])}"
    return None
