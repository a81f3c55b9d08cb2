"""Turn structure: initiative, move first, impulses, weather, action choice, the turn loop.

Seed sections (seed 000): "Initiative" (L2220, L10172), "Move First Decision" (L2818),
"Weather" (L10192), "Weather Report" (L7651), "Choose Action" (L10258), "Action Choice
(see RAC 10)" (L1), "Activity Limits (see RAC 10.2)" (L82), "End of Turn Check" (L10914),
"Victory Check" (L11449), "Game End" (L11462), "Sequence of Play" (L6433).

What it does in the WiF sequence of play:
- ``wif.turn.new-turn.initiative.determine-initiative``: a new turn's track reset, then each
  side rolls a die (recorded) with the initiative track's modifier; core InitiativeSet.
- ``...move-first-decision``: the initiative side (``rule:initiative-winner``) sends
  ``ChooseFirstMover``; before that the other side may send ``DemandInitiativeReroll``
  (``initiative.py``).
- impulse alternation: the first side is phasing in impulse 1, then the sides swap each
  impulse (``ctx.set_active_side``), with core ImpulseReset at each new impulse.
- ``...new-impulse.weather``: the weather roll on odd impulses (even ones are skipped).
- ``...new-impulse.choose-action``: ``ChooseAction`` by each phasing power (``action_choice.py``).
- phase gating (``skip_step``): a phase no phasing power's action allows is skipped.
- ``...end-of-impulse.end-of-turn-check``: d10 + impulse number against the table;
  ``repeat_step`` runs the impulse loop until it ends the turn, and the turn loop until
  core ``World.last_turn`` (0: open-ended).

State: ``state["turn.track"]`` (TurnTrack, ``track.py``).  Action gating and activity
limits: ``activities.py``, the one home other plugins import.
"""

from __future__ import annotations

from plugins.rules.core.names import power_name

from kernel.hookspecs import hookimpl
from plugins.rules import core

from . import action_choice, activities, impulses, initiative  # noqa: F401  (their commands and step rules join ``rules``)
from .action_choice import ChooseAction, choose_action_refusal
from .impulses import gate_reason
from .phases_not_in_play import not_in_play
from .initiative import ChooseFirstMover, DemandInitiativeReroll, first_mover_refusal, roll_initiative
from .track import (  # noqa: F401 - the plugin's public names
    BIMONTH_NAMES,
    BIMONTHS,
    CHOOSE_ACTION,
    CODES,
    DEFAULT_START,
    DETERMINE,
    END_CHECK,
    GAME_END,
    IMPULSE,
    MOVE_FIRST,
    START_NEW_GAME,
    TURN,
    WEATHER,
    CalendarSet,
    EndOfTurnRolled,
    FirstSideChosen,
    GameEnded,
    InitiativeRolled,
    InitiativeTrackMoved,
    NewTurnBegun,
    TurnTrack,
    WeatherRolled,
    current_date,
    date_name,
    other_side,
    rules,
    track,
    turn_tables,
    weather_chart,
)

__all__ = ["ChooseAction", "ChooseFirstMover", "DemandInitiativeReroll", "activities", "gate_reason",
           "roll_initiative"]


# ---------------------------------------------------------------- hooks
@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if kind == "rule:initiative-winner":
        side = core.world(state).initiative
        return [side] if side else []
    return None


def _skip_weather(state) -> str | None:
    if state.kernel.impulse % 2 == 0:
        # Weather: "the weather phase is completely skipped for even numbered impulses"
        return (f"Weather: impulse {state.kernel.impulse} is even, so it keeps the weather of "
                f"impulse {state.kernel.impulse - 1}")
    return None


def _skip_game_end(state) -> str | None:
    last = core.world(state).last_turn
    if not last or state.kernel.turn < last:
        of = f" of {last}" if last else ""
        return f"Victory Check: there are more turns in the game (turn {state.kernel.turn}{of} is over)"
    return None


SKIPS = {WEATHER: _skip_weather, GAME_END: _skip_game_end}


@hookimpl
def skip_step(state, step_id, spec):
    if step_id.startswith(START_NEW_GAME):
        return "decided in the Start New Game form before the game began"
    skip = SKIPS.get(step_id)
    if skip is not None:
        return skip(state)
    return gate_reason(state, step_id) or not_in_play(state, step_id)


@rules.step_rule(GAME_END)
def game_end(ctx, step_id: str) -> None:
    """Game End: "Final victory is determined by examining all the victory hexes in the game,
    and any scenario-specific victory conditions"; the scenario answers ``game_result``."""
    result = ctx.host.pm.hook.game_result(state=ctx.state)
    ctx.emit(GameEnded(result=result))
    text = (result or {}).get("text") or "no scenario gave a result"
    ctx.finish_game(f"Game End: {text}")


def _another_impulse(state) -> bool:
    # End of Turn Check: another impulse unless the check ended the turn.
    return not track(state).turn_over


def _another_turn(state) -> bool:
    # Victory Check: "if the last turn of the game has just concluded, the game advances
    # to the End of Game Phase"; 0 is an open-ended game.
    last = core.world(state).last_turn
    return not last or state.kernel.turn < last


REPEATS = {IMPULSE: _another_impulse, TURN: _another_turn}


@hookimpl(tryfirst=True)
def repeat_step(ctx, step_id, spec):
    again = REPEATS.get(step_id)
    return again(ctx.state) if again is not None else None


# ---------------------------------------------------------------- the log, one function per event type
@rules.describe("InitiativeRolled")
def _say_initiative_rolled(event, state):
    d = event.data
    rolls = ", ".join(f"{s} {d['dice'][s]}{'+' + str(d['modifiers'][s]) if d['modifiers'][s] else ''}"
                      f" = {d['totals'][s]}" for s in d["dice"])
    again = "re-roll: " if d.get("reroll") else ""
    if d["winner"] is None:
        return f"Initiative {again}{rolls}: tied in the first turn, rolled again"
    return f"Initiative {again}{rolls}: {d['winner']} wins ({d['reason']})"


@rules.describe("InitiativeTrackMoved")
def _say_track_moved(event, state):
    d = event.data
    label = turn_tables()["initiative"]["labels"].get(str(d["position"]), str(d["position"]))
    return f"The initiative track moves to {label}: {d['reason']}"


@rules.describe("FirstSideChosen")
def _say_first_side(event, state):
    d = event.data
    return f"{d['chosen_by']} decides that {d['side']} has the first impulse of the turn"


@rules.describe("WeatherRolled")
def _say_weather_rolled(event, state):
    d = event.data
    mod = f"+{d['modifier']}" if d["modifier"] else ""
    stars = "*" * d["asterisks"]
    return (f"Weather roll {d['die']}{mod} = {d['roll']}{stars} on the {d['date']} chart; "
            f"impulse advance {d['impulse_advance']}")


@rules.describe("EndOfTurnRolled")
def _say_end_rolled(event, state):
    d = event.data
    head = f"End of turn check: {d['die']} + impulse {d['impulse']} = {d['total']} (ends at {d['threshold']})"
    return head + (": the turn is over" if d["ended"] else f": another impulse (impulse number {d['next_impulse']})")


@rules.describe("GameEnded")
def _say_game_end(event, state):
    result = event.data.get("result") or {}
    return f"Game End: {result.get('text') or 'the game is over'}"


@rules.describe("NewTurnBegun")
def _say_new_turn(event, state):
    return f"Turn {event.data['turn']} ({event.data['date']}) begins"


@rules.describe("CalendarSet")
def _say_calendar(event, state):
    return f"The first turn is {event.data['bimonth']} {event.data['year']}"


# core's and the kernel's turn events read here, where the activity names and sides live
@rules.describe("ActivityUsed")
def _say_activity_used(event, state):
    d = event.data
    return f"{power_name(d['power'])} uses {d['count']} of its {activities.KIND_NAMES.get(d['kind'], d['kind'])}"


@rules.describe("ActiveSideSet")
def _say_active_side(event, state):
    side = event.data.get("side")
    return f"The {side} side is the phasing side" if side else None


@rules.describe("ImpulseReset")
def _say_impulse_reset(event, state):
    return "A new impulse: every major power's action and activities are cleared"


@rules.describe("LastTurnSet")
def _say_last_turn(event, state):
    return f"The game ends after turn {event.data['turn']}"


# ---------------------------------------------------------------- mandatory decisions
REFUSALS = {MOVE_FIRST: first_mover_refusal, CHOOSE_ACTION: choose_action_refusal}


@hookimpl
def finish_step_refusal(state, step_id, power):
    refuse = REFUSALS.get(step_id)
    return refuse(state, power) if refuse is not None else None


rules.export(globals())

from .ui import *  # noqa: E402,F401,F403 - the front end's hooks (app/uihooks.py), ui.__all__
