"""Turn structure: initiative, move first, impulses, weather, action choice, the turn loop.

Seed sections (seed 000): "Initiative" (L2220, L10172), "Move First Decision" (L2818),
"Weather" (L10192), "Weather Report" (L7651), "Choose Action" (L10258), "Action Choice
(see RAC 10)" (L1), "Activity Limits (see RAC 10.2)" (L82), "End of Turn Check" (L10914),
"Victory Check" (L11449), "Game End" (L11462), "Sequence of Play" (L6433).

What it does in the WiF sequence of play:
- ``wif.turn.new-turn.initiative.determine-initiative``: a new turn's track reset, then each
  side rolls a die (recorded) with the initiative track's modifier; core InitiativeSet.
- ``...move-first-decision``: the initiative side (``rule:initiative-winner``) sends
  ``ChooseFirstMover``; before that the other side may send ``DemandInitiativeReroll``.
- impulse alternation: the first side is phasing in impulse 1, then the sides swap each
  impulse (``ctx.set_active_side``), with core ImpulseReset at each new impulse.
- ``...new-impulse.weather``: the weather roll on odd impulses (even ones are skipped).
- ``...new-impulse.choose-action``: ``ChooseAction`` by each phasing power.
- phase gating (``skip_step``): a phase no phasing power's action allows is skipped.
- ``...end-of-impulse.end-of-turn-check``: d10 + impulse number against the table;
  ``repeat_step`` runs the impulse loop until it ends the turn, and the turn loop until
  core ``World.last_turn`` (0: open-ended).

State: ``state["turn.track"]`` (TurnTrack).  Activity limits: ``activities.py``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel import builtin
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl

from . import activities

DATA = Path(__file__).with_name("data")
BIMONTHS = ("jan-feb", "mar-apr", "may-jun", "jul-aug", "sep-oct", "nov-dec")
BIMONTH_NAMES = ("Jan/Feb", "Mar/Apr", "May/Jun", "Jul/Aug", "Sep/Oct", "Nov/Dec")
DEFAULT_START = (1941, 2)  # May/Jun 1941 (Barbarossa) when no scenario sets the calendar

DETERMINE = "wif.turn.new-turn.initiative.determine-initiative"
MOVE_FIRST = "wif.turn.new-turn.initiative.move-first-decision"
WEATHER = "wif.turn.impulse.new-impulse.weather"
CHOOSE_ACTION = "wif.turn.impulse.new-impulse.choose-action"
END_CHECK = "wif.turn.impulse.end-of-impulse.end-of-turn-check"
GAME_END = "wif.turn.end-of-turn.game-end"
IMPULSE = "wif.turn.impulse"
TURN = "wif.turn"
START_NEW_GAME = "wif.new-game.start-new-game."


# ---------------------------------------------------------------- data
@cache
def weather_chart() -> dict:
    """The authored weather chart (data/weather_chart.json; see its header)."""
    path = DATA / "weather_chart.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    n = data["max_roll"]
    if len(data["asterisks"]) != n or len(data["impulse_advance"]) != n:
        raise ValueError(f"{path}: asterisks and impulse_advance need {n} entries (modified rolls 1..{n})")
    for bimonth in BIMONTHS:
        row = data["chart"].get(bimonth)
        if row is None:
            raise ValueError(f"{path}: chart has no turn {bimonth!r}")
        for zone in data["zones"]:
            cells = row.get(zone, "")
            if len(cells) != n or set(cells) - set(CODES):
                raise ValueError(f"{path}: chart[{bimonth}][{zone}] must be {n} letters of {''.join(CODES)}")
    return data


CODES = {"f": "fine", "r": "rain", "s": "snow", "t": "storm", "b": "blizzard"}


@cache
def turn_tables() -> dict:
    """The authored initiative and end-of-turn tables (data/turn_tables.json)."""
    path = DATA / "turn_tables.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    ini = data["initiative"]
    if not ini["track_min"] <= ini["start"] <= ini["track_max"]:
        raise ValueError(f"{path}: initiative start {ini['start']} is off the track")
    return data


# ---------------------------------------------------------------- state
class TurnTrack(BaseModel):
    initiative_track: int = 0  # + favours the Axis, - the Allies (turn_tables.json)
    previous_initiative: str | None = None  # who held it last turn (tie-breaks)
    rerolled: bool = False  # this turn's initiative re-roll has been demanded
    first_side: str | None = None  # the side with the first impulse this turn
    phasing: list[str] = Field(default_factory=list)  # phasing side of each impulse this turn
    impulse_number: int = 1  # the impulse track (advances by the Impulse Advance)
    impulse_advance: int = 1  # from the last weather roll
    weather_asterisks: int = 0  # asterisks of the last weather roll (+1..+3 next roll)
    turn_over: bool = False  # the End of Turn Check ended this turn's impulses
    start_year: int | None = None  # the calendar of turn 1 (CalendarSet)
    start_bimonth: int | None = None


def track(state) -> TurnTrack:
    return state["turn.track"]


def current_date(state) -> tuple[int, int]:
    """(year, bi-month index 0..5) of the current turn."""
    t = track(state)
    if t.start_year is not None:
        year, bim = t.start_year, t.start_bimonth or 0
    else:
        opt = state.kernel.options.get("start_date") or {}
        year = int(opt.get("year", DEFAULT_START[0]))
        bim = BIMONTHS.index(opt["bimonth"]) if "bimonth" in opt else DEFAULT_START[1]
    n = bim + max(state.kernel.turn, 1) - 1
    return year + n // 6, n % 6


def date_name(state) -> str:
    year, bim = current_date(state)
    return f"{BIMONTH_NAMES[bim]} {year}"


def other_side(state, side: str) -> str | None:
    others = [s for s in state.kernel.sides if s != side]
    return others[0] if others else None


# ---------------------------------------------------------------- events
class CalendarSet(EventData):
    """The date of turn 1 (a scenario emits it)."""

    year: int
    bimonth: str  # one of BIMONTHS


class NewTurnBegun(EventData):
    turn: int
    date: str


class InitiativeRolled(EventData):
    dice: dict[str, int]  # side -> die
    modifiers: dict[str, int]  # side -> modifier from the track
    totals: dict[str, int]
    winner: str | None  # None: a tie in the first turn, rolled again
    reroll: bool = False
    reason: str = ""


class InitiativeTrackMoved(EventData):
    position: int
    reason: str


class FirstSideChosen(EventData):
    side: str
    chosen_by: str


class WeatherRolled(EventData):
    die: int
    modifier: int  # from the asterisks of the last roll
    roll: int  # modified
    date: str
    asterisks: int
    impulse_advance: int


class EndOfTurnRolled(EventData):
    die: int
    impulse: int  # the impulse number it is added to
    total: int
    threshold: int
    ended: bool
    next_impulse: int | None = None  # the impulse number after the advance


def _calendar(state, event):
    t = track(state)
    t.start_year = event.data["year"]
    t.start_bimonth = BIMONTHS.index(event.data["bimonth"])


def _new_turn(state, event):
    from plugins.rules.core import world

    t = track(state)
    t.previous_initiative = world(state).initiative
    t.rerolled = False
    t.first_side = None
    t.phasing = []
    t.impulse_number = 1
    t.turn_over = False


def _initiative_rolled(state, event):
    if event.data["reroll"]:
        track(state).rerolled = True


def _track_moved(state, event):
    track(state).initiative_track = event.data["position"]


def _first_side(state, event):
    t = track(state)
    t.first_side = event.data["side"]
    t.phasing = [event.data["side"]]


def _weather_rolled(state, event):
    t = track(state)
    t.weather_asterisks = event.data["asterisks"]
    t.impulse_advance = event.data["impulse_advance"]


def _end_rolled(state, event):
    t = track(state)
    d = event.data
    if d["ended"]:
        t.turn_over = True
    else:
        t.impulse_number = d["next_impulse"]
        if t.phasing:
            t.phasing.append([s for s in state.kernel.sides if s != t.phasing[-1]][0])


EVENTS = {
    "CalendarSet": (CalendarSet, _calendar),
    "NewTurnBegun": (NewTurnBegun, _new_turn),
    "InitiativeRolled": (InitiativeRolled, _initiative_rolled),
    "InitiativeTrackMoved": (InitiativeTrackMoved, _track_moved),
    "FirstSideChosen": (FirstSideChosen, _first_side),
    "WeatherRolled": (WeatherRolled, _weather_rolled),
    "EndOfTurnRolled": (EndOfTurnRolled, _end_rolled),
}


# ---------------------------------------------------------------- commands
class ChooseFirstMover(Command):
    """Move First Decision: the initiative side says which side has the first impulse."""

    side: str


class DemandInitiativeReroll(Command):
    """Initiative: the side that lost the initiative roll demands a re-roll."""


class ChooseAction(Command):
    """Choose Action: a phasing major power's action for this impulse."""

    action: str  # pass, naval, air, land, combined
    power: str | None = None  # default: the actor


def _finish_decision(ctx, actor: str) -> None:
    """The decider is done with this step (as FinishStep); advance when all are."""
    seq = ctx.state.kernel.sequence
    who = ctx.decider_for(actor)
    ctx.emit(builtin.DecisionFinished(step=seq.current or "", who=who))
    if not ctx.state.kernel.sequence.pending:
        ctx.advance()


def _side_of_actor(state, actor: str) -> str | None:
    return actor if actor in state.kernel.sides else state.kernel.side_of(actor)


def choose_first_mover(ctx, cmd: ChooseFirstMover) -> None:
    from plugins.rules.core import ImpulseReset, world

    state = ctx.state
    if cmd.side not in state.kernel.sides:
        raise Rejected(f"Move First Decision: {cmd.side!r} is not a side of this game "
                       f"({', '.join(state.kernel.sides)})")
    holder = world(state).initiative
    if _side_of_actor(state, cmd.actor) != holder:
        raise Rejected(f"Move First Decision: the side that won the initiative ({holder}) decides who moves first")
    ctx.emit(FirstSideChosen(side=cmd.side, chosen_by=cmd.actor))
    # Initiative: the first side is phasing in the 1st, 3rd, 5th... impulses.
    ctx.set_active_side(cmd.side)
    ctx.emit(ImpulseReset())
    _finish_decision(ctx, cmd.actor)


def demand_reroll(ctx, cmd: DemandInitiativeReroll) -> None:
    from plugins.rules.core import world

    state = ctx.state
    if state.kernel.sequence.current != MOVE_FIRST:
        raise Rejected("Initiative: a re-roll can only be demanded after the initiative roll, "
                       "before the winner decides who moves first")
    t = track(state)
    holder = world(state).initiative
    side = _side_of_actor(state, cmd.actor)
    if t.rerolled:
        raise Rejected("Initiative: the re-roll stands - there can be no further re-rolls")
    if side == holder:
        raise Rejected(f"Initiative: {side} won the initiative; only the other side may demand a re-roll")
    ini = turn_tables()["initiative"]
    step = 1 if holder == ini["positive_side"] else -1  # one step in the other side's favour
    new = t.initiative_track + step
    if not ini["track_min"] <= new <= ini["track_max"]:
        label = ini["labels"][str(t.initiative_track)]
        raise Rejected(f"Initiative: the initiative track is at {label}, so {side} can't demand a re-roll")
    ctx.emit(InitiativeTrackMoved(position=new, reason=f"{cmd.actor} demanded a re-roll"))
    roll_initiative(ctx, reroll=True)
    ctx.enter(MOVE_FIRST)  # the (possibly new) winner decides


def choose_action(ctx, cmd: ChooseAction) -> None:
    from plugins.rules.core import ACTIONS, ActionChosen, world

    state = ctx.state
    power = cmd.power or cmd.actor
    if cmd.action not in ACTIONS:
        raise Rejected(f"Action Choice (see RAC 10): {cmd.action!r} is not an action; choose one of "
                       + ", ".join(ACTIONS))
    if power not in state.kernel.powers():
        raise Rejected(f"Choose Action: {power!r} is not a major power of this game")
    if cmd.actor != power and _side_of_actor(state, cmd.actor) != state.kernel.side_of(power):
        raise Rejected(f"Choose Action: {cmd.actor} cannot choose {power}'s action")
    if state.kernel.side_of(power) != state.kernel.active_side:
        raise Rejected(f"Choose Action: each major power on the phasing side chooses; {power} is not phasing")
    at_war = any(power in pair for pair in world(state).at_war)
    if not at_war and cmd.action not in ("pass", "combined"):
        year, bim = current_date(state)
        exception = (power == "germany" and cmd.action == "land" and (year, BIMONTHS[bim]) == (1939, "sep-oct")
                     and state.kernel.impulse == 1)
        if not exception:
            raise Rejected(f"Action Choice (see RAC 10): {power} is a neutral major power and must choose "
                           "either a Pass or a Combined action")
    ctx.emit(ActionChosen(power=power, action=cmd.action))
    who = power if power in state.kernel.sequence.pending else cmd.actor
    _finish_decision(ctx, who)


# ---------------------------------------------------------------- automatic steps
def roll_initiative(ctx, reroll: bool = False) -> str:
    """Initiative: each side rolls a die, the track's modifier to one side; ties go against
    last turn's holder (first turn: roll again)."""
    from plugins.rules.core import InitiativeSet

    state = ctx.state
    ini = turn_tables()["initiative"]
    t = track(state)
    pos, neg = ini["positive_side"], ini["negative_side"]
    mods = {pos: max(t.initiative_track, 0), neg: max(-t.initiative_track, 0)}
    while True:
        dice = ctx.roll(f"Initiative: {pos} die, {neg} die" + (" (re-roll)" if reroll else ""), ini["die"], 2)
        rolled = {pos: dice[0], neg: dice[1]}
        totals = {s: rolled[s] + mods[s] for s in rolled}
        if totals[pos] != totals[neg]:
            winner = pos if totals[pos] > totals[neg] else neg
            reason = "higher modified roll"
        elif t.previous_initiative in totals:
            winner = neg if t.previous_initiative == pos else pos
            reason = f"tie: {t.previous_initiative} had the initiative last turn and loses"
        else:
            ctx.emit(InitiativeRolled(dice=rolled, modifiers=mods, totals=totals, winner=None, reroll=reroll,
                                      reason="tie in the first turn: rolled again"))
            continue
        ctx.emit(InitiativeRolled(dice=rolled, modifiers=mods, totals=totals, winner=winner, reroll=reroll,
                                  reason=reason))
        ctx.emit(InitiativeSet(side=winner))
        return winner


def determine_initiative(ctx, step_id: str) -> None:
    ctx.emit(NewTurnBegun(turn=ctx.state.kernel.turn, date=date_name(ctx.state)))
    roll_initiative(ctx)


def weather_step(ctx, step_id: str) -> None:
    """Weather Report: one die for the pair of impulses, +1..+3 for the last roll's
    asterisks, read on the weather chart for this turn, per zone."""
    from plugins.rules.core import WeatherSet

    chart = weather_chart()
    t = track(ctx.state)
    die = ctx.roll("Weather Report: weather roll", chart["die"], 1)[0]
    modifier = t.weather_asterisks
    roll = min(die + modifier, chart["max_roll"])
    _, bim = current_date(ctx.state)
    row = chart["chart"][BIMONTHS[bim]]
    weather = {zone: CODES[cells[roll - 1]] for zone, cells in row.items()}
    ctx.emit(WeatherRolled(die=die, modifier=modifier, roll=roll, date=date_name(ctx.state),
                           asterisks=chart["asterisks"][roll - 1], impulse_advance=chart["impulse_advance"][roll - 1]))
    ctx.emit(WeatherSet(weather=weather, roll=roll))


def end_of_turn_check(ctx, step_id: str) -> None:
    """End of Turn Check: a random number plus the impulse number; high enough ends the
    turn, else the impulse number advances and the phasing and non-phasing sides switch."""
    from plugins.rules.core import ImpulseReset

    state = ctx.state
    table = turn_tables()["end_of_turn"]
    t = track(state)
    n = t.impulse_number
    die = ctx.roll(f"End of Turn Check: random number + impulse number {n}", table["die"], 1)[0]
    ended = die + n >= table["threshold"]
    ctx.emit(EndOfTurnRolled(die=die, impulse=n, total=die + n, threshold=table["threshold"], ended=ended,
                             next_impulse=None if ended else n + t.impulse_advance))
    active = state.kernel.active_side
    if ended:
        # Initiative: a side that goes first and last in a turn moves the setting in the
        # other side's favour.
        first = t.first_side
        if first is not None and active == first:
            ini = turn_tables()["initiative"]
            step = -1 if first == ini["positive_side"] else 1
            new = max(ini["track_min"], min(ini["track_max"], t.initiative_track + step))
            if new != t.initiative_track:
                ctx.emit(InitiativeTrackMoved(position=new, reason=f"{first} had the first and the last impulse"))
        return
    if active is not None:
        ctx.set_active_side(other_side(state, active))
    ctx.emit(ImpulseReset())


# ---------------------------------------------------------------- hooks
@hookimpl
def register_state(register):
    register("turn.track", TurnTrack)


@hookimpl
def register_events(register):
    for model, _ in EVENTS.values():
        register(model)


@hookimpl
def register_reducers(register):
    for name, (_, fn) in EVENTS.items():
        register(name, fn)


@hookimpl
def register_commands(register):
    register(ChooseFirstMover, choose_first_mover)
    register(ChooseAction, choose_action)
    register(DemandInitiativeReroll, demand_reroll, anytime=True)


@hookimpl
def register_step_rules(register):
    register(DETERMINE, determine_initiative)
    register(WEATHER, weather_step)
    register(END_CHECK, end_of_turn_check)


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if kind == "rule:initiative-winner":
        from plugins.rules.core import world

        side = world(state).initiative
        return [side] if side else []
    return None


def gate_reason(state, step_id: str) -> str | None:
    """Why no phasing power may act in this impulse phase (rules-c section 1.0), or None."""
    if not step_id.startswith(IMPULSE + "."):
        return None
    key = step_id.rsplit(".", 1)[-1]
    if key not in activities.PHASE_GATES and key != "independent-air":
        return None
    active = state.kernel.active_side
    powers = state.kernel.sides.get(active, []) if active else state.kernel.powers()
    if key == "independent-air":
        keys = ("strategic-bombardment", "carpet-bombing", "ground-strike")
        if any(activities.allows_phase(state, p, k) for p in powers for k in keys):
            return None
        return ("Independent Air Missions Stage: no phasing major power has air missions available "
                "(a Pass action allows none)")
    if any(activities.allows_phase(state, p, key) for p in powers):
        return None
    allowed, title = activities.PHASE_GATES[key]
    names = " or ".join(activities.ACTION_NAMES[a] for a in ("naval", "air", "land", "combined") if a in allowed)
    from plugins.rules.core import action_of

    chosen = ", ".join(f"{p}: {action_of(state, p) or 'none'}" for p in powers) or "no phasing power"
    need = activities.PHASE_NEEDS.get(key)
    extra = f" with {activities.KIND_NAMES[need]} left" if need else ""
    return f"{activities.ACTION_RULE}: {title} needs a {names} action{extra} ({chosen})"


@hookimpl
def skip_step(state, step_id, spec):
    if step_id.startswith(START_NEW_GAME):
        return "decided in the Start New Game form before the game began"
    if step_id == WEATHER and state.kernel.impulse % 2 == 0:
        # Weather: "the weather phase is completely skipped for even numbered impulses"
        return (f"Weather: impulse {state.kernel.impulse} is even, so it keeps the weather of "
                f"impulse {state.kernel.impulse - 1}")
    if step_id == GAME_END:
        from plugins.rules.core import world

        last = world(state).last_turn
        if not last or state.kernel.turn < last:
            of = f" of {last}" if last else ""
            return f"Victory Check: there are more turns in the game (turn {state.kernel.turn}{of} is over)"
        return None
    return gate_reason(state, step_id)


@hookimpl(tryfirst=True)
def repeat_step(ctx, step_id, spec):
    if step_id == IMPULSE:
        # End of Turn Check: another impulse unless the check ended the turn.
        return not track(ctx.state).turn_over
    if step_id == TURN:
        # Victory Check: "if the last turn of the game has just concluded, the game advances
        # to the End of Game Phase"; 0 is an open-ended game.
        from plugins.rules.core import world

        last = world(ctx.state).last_turn
        return not last or ctx.state.kernel.turn < last
    return None


@hookimpl
def describe_event(event, state):
    d = event.data
    t = event.type
    if t == "InitiativeRolled":
        rolls = ", ".join(f"{s} {d['dice'][s]}{'+' + str(d['modifiers'][s]) if d['modifiers'][s] else ''}"
                          f" = {d['totals'][s]}" for s in d["dice"])
        again = "re-roll: " if d.get("reroll") else ""
        if d["winner"] is None:
            return f"Initiative {again}{rolls}: tied in the first turn, rolled again"
        return f"Initiative {again}{rolls}: {d['winner']} wins ({d['reason']})"
    if t == "InitiativeTrackMoved":
        label = turn_tables()["initiative"]["labels"].get(str(d["position"]), str(d["position"]))
        return f"The initiative track moves to {label}: {d['reason']}"
    if t == "FirstSideChosen":
        return f"{d['chosen_by']} decides that {d['side']} has the first impulse of the turn"
    if t == "WeatherRolled":
        mod = f"+{d['modifier']}" if d["modifier"] else ""
        stars = "*" * d["asterisks"]
        return (f"Weather roll {d['die']}{mod} = {d['roll']}{stars} on the {d['date']} chart; "
                f"impulse advance {d['impulse_advance']}")
    if t == "EndOfTurnRolled":
        head = f"End of turn check: {d['die']} + impulse {d['impulse']} = {d['total']} (ends at {d['threshold']})"
        return head + (": the turn is over" if d["ended"] else f": another impulse (impulse number {d['next_impulse']})")
    if t == "NewTurnBegun":
        return f"Turn {d['turn']} ({d['date']}) begins"
    if t == "CalendarSet":
        return f"The first turn is {d['bimonth']} {d['year']}"
    if t == "ActivityUsed":
        return f"{d['power']} uses {d['count']} of its {activities.KIND_NAMES.get(d['kind'], d['kind'])}"
    if t == "ActiveSideSet" and d.get("side"):
        return f"The {d['side']} side is the phasing side"
    if t == "ImpulseReset":
        return "A new impulse: every major power's action and activities are cleared"
    if t == "LastTurnSet":
        return f"The game ends after turn {d['turn']}"
    return None


@hookimpl
def finish_step_refusal(state, step_id, power):
    """Choose Action: every phasing major power chooses an action; Pass is one of them."""
    if step_id and step_id.endswith("new-impulse.choose-action"):
        from plugins.rules.core import action_of

        if action_of(state, power) is None:
            return (f"Action Choice (see RAC 10): {power} must choose an action "
                    "(Pass, Naval, Air, Land or Combined) before the phase ends")
    return None
