"""The turn plugin's tables, state and events: the calendar, the initiative track, the
impulse track and the weather roll's carry-over (seeds "Initiative", "Weather Report",
"End of Turn Check").  Read by every module of the plugin; the procedures live in
``initiative.py``, ``action_choice.py`` and ``impulses.py``."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel.events import EventData
from kernel.registry import Registry
from plugins.rules import core

DATA = Path(__file__).with_name("data")
# the plugin's registry (kernel.registry): the other modules add to it, __init__ exports it
rules = Registry()
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
@rules.state("turn.track")
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
@rules.event
class CalendarSet(EventData):
    """The date of turn 1 (a scenario emits it)."""

    year: int
    bimonth: str  # one of BIMONTHS


@rules.event
class GameEnded(EventData):
    """Game End: the game is over; ``result`` is the scenario's verdict (None: no scenario gave one)."""

    result: dict | None = None


@rules.event
class NewTurnBegun(EventData):
    turn: int
    date: str


@rules.event
class InitiativeRolled(EventData):
    dice: dict[str, int]  # side -> die
    modifiers: dict[str, int]  # side -> modifier from the track
    totals: dict[str, int]
    winner: str | None  # None: a tie in the first turn, rolled again
    reroll: bool = False
    reason: str = ""


@rules.event
class InitiativeTrackMoved(EventData):
    position: int
    reason: str


@rules.event
class FirstSideChosen(EventData):
    side: str
    chosen_by: str


@rules.event
class WeatherRolled(EventData):
    die: int
    modifier: int  # from the asterisks of the last roll
    roll: int  # modified
    date: str
    asterisks: int
    impulse_advance: int


@rules.event
class EndOfTurnRolled(EventData):
    die: int
    impulse: int  # the impulse number it is added to
    total: int
    threshold: int
    ended: bool
    next_impulse: int | None = None  # the impulse number after the advance


@rules.reducer("CalendarSet")
def _calendar(state, event):
    t = track(state)
    t.start_year = event.data["year"]
    t.start_bimonth = BIMONTHS.index(event.data["bimonth"])


@rules.reducer("NewTurnBegun")
def _new_turn(state, event):
    t = track(state)
    t.previous_initiative = core.world(state).initiative
    t.rerolled = False
    t.first_side = None
    t.phasing = []
    t.impulse_number = 1
    t.turn_over = False


@rules.reducer("InitiativeRolled")
def _initiative_rolled(state, event):
    if event.data["reroll"]:
        track(state).rerolled = True


@rules.reducer("InitiativeTrackMoved")
def _track_moved(state, event):
    track(state).initiative_track = event.data["position"]


@rules.reducer("FirstSideChosen")
def _first_side(state, event):
    t = track(state)
    t.first_side = event.data["side"]
    t.phasing = [event.data["side"]]


@rules.reducer("WeatherRolled")
def _weather_rolled(state, event):
    t = track(state)
    t.weather_asterisks = event.data["asterisks"]
    t.impulse_advance = event.data["impulse_advance"]


@rules.reducer("EndOfTurnRolled")
def _end_rolled(state, event):
    t = track(state)
    d = event.data
    if d["ended"]:
        t.turn_over = True
    else:
        t.impulse_number = d["next_impulse"]
        if t.phasing:
            t.phasing.append([s for s in state.kernel.sides if s != t.phasing[-1]][0])


def side_of_actor(state, actor: str) -> str | None:
    """The side a command's actor (a side or a major power) decides for."""
    return actor if actor in state.kernel.sides else state.kernel.side_of(actor)


def side_label(side: str) -> str:
    return side.capitalize()
