"""Guadalcanal's own state and events: the convoy victory points scored turn by turn, the
standing at the last victory check and the result."""

from __future__ import annotations

from functools import partial

from pydantic import BaseModel, Field

from kernel.events import EventData
from kernel.registry import Registry
from plugins.rules.core.scenario import is_scenario, scenario_rules_apply

# the scenario's registry (kernel.registry): the other modules add to it, __init__ exports it
rules = Registry()

SCENARIO = "guadalcanal"
REINFORCEMENTS = "wif.turn.new-turn.reinforcements"
VICTORY_CHECK = "wif.turn.end-of-turn.victory-check"


@rules.state(SCENARIO)
class ScenarioState(BaseModel):
    # Guadalcanal Special Victory Conditions: the Allies' convoy points, "at the end of a turn"
    # — turn -> sea area -> points scored that turn
    convoy_points: dict[str, dict[str, int]] = Field(default_factory=dict)
    standing: dict[str, int] = Field(default_factory=dict)  # side -> victory points at the last check
    rows: list[dict] = Field(default_factory=list)  # what scored, at the last check (victory form)
    result: dict | None = None  # the final result (VictoryMarginDetermined data)


def scenario_state(state) -> ScenarioState:
    return state[SCENARIO]


ours = partial(is_scenario, name=SCENARIO)  # a game of this scenario
victory_rules = partial(scenario_rules_apply, name=SCENARIO)  # its victory conditions apply (lab games too)


# ---------------------------------------------------------------- events
@rules.event
class ConvoyPointsScored(EventData):
    """The Allies' convoy victory points at the end of a turn: sea area -> points (the number
    of Japanese convoys less than 5 there)."""
    turn: int
    points: dict[str, int]


@rules.event
class VictoryPointsCounted(EventData):
    turn: int
    points: dict[str, int]  # side -> victory points
    rows: list[dict]  # {"what", "side", "points", ...}


@rules.event
class VictoryMarginDetermined(EventData):
    turn: int
    points: dict[str, int]  # side -> victory points
    winner: str | None  # the side with the higher total; None: a draw
    margin: int
    level: str  # Decisive, Substantive, Marginal or Draw
    result: str  # words for the victory form


@rules.reducer("ConvoyPointsScored")
def _convoys(state, event):
    scenario_state(state).convoy_points[str(event.data["turn"])] = dict(event.data["points"])


@rules.reducer("VictoryPointsCounted")
def _counted(state, event):
    s = scenario_state(state)
    s.standing = dict(event.data["points"])
    s.rows = list(event.data["rows"])


@rules.reducer("VictoryMarginDetermined")
def _victory(state, event):
    scenario_state(state).result = dict(event.data)
