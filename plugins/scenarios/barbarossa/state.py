"""Barbarossa's own state and events: whose setup it is, the setup tray of each power, the
objective standing and the result."""

from __future__ import annotations

from functools import partial

from pydantic import BaseModel, Field

from kernel.events import EventData
from kernel.registry import Registry
from plugins.rules.core.scenario import is_scenario, scenario_rules_apply

# the scenario's registry (kernel.registry): the other modules add to it, __init__ exports it
rules = Registry()

SCENARIO = "barbarossa"
TRAY = "setup-tray"
SETUP_LOOP = "wif.new-game.setup.set-up-each-major-power"
SETUP_PLACING = "wif.new-game.setup.set-up-each-major-power.placing-units-on-the-map"
REINFORCEMENTS = "wif.turn.new-turn.reinforcements"
REINFORCEMENT_PLACING = "wif.procedures.reinforcements.placing-units-on-map"
PLACING_STEPS = (SETUP_PLACING, REINFORCEMENT_PLACING)
VICTORY_CHECK = "wif.turn.end-of-turn.victory-check"
POWER_NAMES = {"germany": "Germany", "ussr": "the USSR"}


@rules.state(SCENARIO)
class ScenarioState(BaseModel):
    setup_power: str | None = None  # the major power setting up now ("Setup")
    tray: dict[str, list[str]] = Field(default_factory=dict)  # power -> units of this placement occasion
    occasion: dict[str, str] = Field(default_factory=dict)  # power -> "setup" / "reinforcements-turn-N"
    standing: dict[str, float] = Field(default_factory=dict)  # power -> objectives at the last check
    held: list[dict] = Field(default_factory=list)  # objective rows of the last check (victory form)
    result: dict | None = None  # the final result (VictoryDetermined data)
    added: dict[str, dict] = Field(default_factory=dict)  # unit id -> oob unit data an optional rule added


def scenario_state(state) -> ScenarioState:
    return state[SCENARIO]


ours = partial(is_scenario, name=SCENARIO)  # a game of this scenario
victory_rules = partial(scenario_rules_apply, name=SCENARIO)  # its victory conditions apply (lab games too)


# ---------------------------------------------------------------- events
@rules.event
class SetupPowerSet(EventData):
    power: str | None


@rules.event
class SetupTrayFilled(EventData):
    power: str
    occasion: str
    units: list[str]


@rules.event
class ScenarioUnitsAdded(EventData):
    """Counters optional rules ON add to the order of battle (``hooks.scenario_added_units``)."""
    units: list[dict]


@rules.event
class ObjectivesCounted(EventData):
    turn: int
    objectives: dict[str, float]  # power -> objectives controlled
    held: list[dict]  # {"name", "hex", "value", "controller", "credited"}


@rules.event
class VictoryDetermined(EventData):
    turn: int
    objectives: dict[str, float]
    winner: str | None  # the major power with the most objectives; None: a draw
    side: str | None
    result: str  # words for the victory form


@rules.reducer("SetupPowerSet")
def _setup_power(state, event):
    scenario_state(state).setup_power = event.data["power"]


@rules.reducer("SetupTrayFilled")
def _tray(state, event):
    d = event.data
    s = scenario_state(state)
    s.tray[d["power"]] = list(d["units"])
    s.occasion[d["power"]] = d["occasion"]


@rules.reducer("ScenarioUnitsAdded")
def _added(state, event):
    for d in event.data["units"]:
        scenario_state(state).added[d["id"]] = dict(d)


@rules.reducer("ObjectivesCounted")
def _counted(state, event):
    s = scenario_state(state)
    s.standing = dict(event.data["objectives"])
    s.held = list(event.data["held"])


@rules.reducer("VictoryDetermined")
def _victory(state, event):
    scenario_state(state).result = dict(event.data)
