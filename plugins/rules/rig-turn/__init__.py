"""The rig of the turn plugin's state, for lab games that play with the turn plugin.

Kept apart from ``rig`` (which needs only core and units) so that loading the rig into a
lab game does not bring the turn's rules of play with it; ``tests/helpers.py`` ``lab_game``
adds this plugin when the turn plugin is in play.  Like every rig command these are allowed
in any step and refused in a normal game (kernel/lab.py ``lab_refusal``).
"""

from __future__ import annotations

from kernel.choices import Field, Option, one_of
from kernel.errors import Rejected
from kernel.events import Command
from kernel.lab import lab_refusal, rig_offered_to
from kernel.registry import Registry
from plugins.rules import core
from plugins.rules.turn import BIMONTHS, CalendarSet, InitiativeTrackMoved, current_date, track, turn_tables
from plugins.rules.turn.activities import KINDS, KIND_NAMES, canonical_kind

rules = Registry()


def _refuse(problem: str | None) -> None:
    if problem:
        raise Rejected(problem)


# ---------------------------------------------------------------- the initiative
class RigInitiative(Command):
    """Lab: ``side`` holds the initiative (None: unchanged) and the initiative track is at
    ``track`` (None: unchanged; + favours the Axis, see the turn plugin's turn_tables.json)."""

    side: str | None = None
    track: int | None = None


def why_not_rig_initiative(state, side, position) -> str | None:
    refusal = lab_refusal(state, "RigInitiative")
    if refusal:
        return refusal
    if side is not None and side not in state.kernel.sides:
        return f"RigInitiative: no side {side!r} in this game ({', '.join(state.kernel.sides)})"
    ini = turn_tables()["initiative"]
    if position is not None and not ini["track_min"] <= position <= ini["track_max"]:
        return f"RigInitiative: the initiative track runs from {ini['track_min']} to {ini['track_max']}, not {position}"
    return None


def rig_initiative_choices(state, actor, step_id):
    if lab_refusal(state, "RigInitiative") or not rig_offered_to(state, actor):
        return None
    ini = turn_tables()["initiative"]
    sides = [Option(s, s) for s in state.kernel.sides] + [Option(None, "the holder stays")]
    return [Field("side", "option", sides, label="holds the initiative"),
            Field("track", "number", min=ini["track_min"], max=ini["track_max"], label="initiative track")]


def rig_initiative_preview(state, cmd: RigInitiative):
    _refuse(why_not_rig_initiative(state, cmd.side, cmd.track))
    return {"side": cmd.side, "track": cmd.track, "before": {"side": core.world(state).initiative,
                                                             "track": track(state).initiative_track}}


@rules.command(RigInitiative, anytime=True, choices=rig_initiative_choices, preview=rig_initiative_preview)
def rig_initiative(ctx, cmd: RigInitiative) -> None:
    _refuse(why_not_rig_initiative(ctx.state, cmd.side, cmd.track))
    if cmd.side is not None:
        ctx.emit(core.InitiativeSet(side=cmd.side))
    if cmd.track is not None:
        ctx.emit(InitiativeTrackMoved(position=cmd.track, reason="rigged (lab game)"))


# ---------------------------------------------------------------- the calendar
class RigCalendar(Command):
    """Lab: the current turn is ``bimonth`` of ``year`` (the turn number stays; the date of
    turn 1 is set so that this turn has this date); ``last_turn``: the scenario's final turn
    (0: open-ended).  Each left out (None) stays as it is."""

    year: int | None = None
    bimonth: str | None = None
    last_turn: int | None = None


def why_not_rig_calendar(state, year, bimonth, last_turn=None) -> str | None:
    refusal = lab_refusal(state, "RigCalendar")
    if refusal:
        return refusal
    if last_turn is not None and last_turn < 0:
        return f"RigCalendar: last turn {last_turn} is below 0"
    if year is None and bimonth is None:
        return None
    if year is None or bimonth is None:
        return "RigCalendar: give both the year and the bimonth (or neither)"
    if bimonth not in BIMONTHS:
        return f"RigCalendar: {bimonth!r} is no turn of the year ({', '.join(BIMONTHS)})"
    if not 1900 <= year <= 2100:
        return f"RigCalendar: year {year} is out of range"
    return None


def first_turn_date(state, year: int, bimonth: str) -> tuple[int, str]:
    """The date of turn 1 that makes the current turn ``bimonth`` ``year``."""
    n = year * 6 + BIMONTHS.index(bimonth) - (max(state.kernel.turn, 1) - 1)
    return n // 6, BIMONTHS[n % 6]


def rig_calendar_choices(state, actor, step_id):
    if lab_refusal(state, "RigCalendar") or not rig_offered_to(state, actor):
        return None
    year, _ = current_date(state)
    turn = max(state.kernel.turn, 1)
    last = [Option(None, "the last turn stays")] + [Option(t, f"turn {t}") for t in range(turn, turn + 8)] + [
        Option(0, "open-ended")]
    return [one_of("year", "option", list(range(year - 2, year + 6)),
                   then=lambda y: [one_of("bimonth", "option", BIMONTHS)]),
            Field("last_turn", "option", last)]


def rig_calendar_preview(state, cmd: RigCalendar):
    _refuse(why_not_rig_calendar(state, cmd.year, cmd.bimonth, cmd.last_turn))
    out = {"turn": state.kernel.turn, "last_turn": cmd.last_turn}
    if cmd.year is not None:
        out |= {"date": f"{cmd.bimonth} {cmd.year}",
                "first_turn": "{1} {0}".format(*first_turn_date(state, cmd.year, cmd.bimonth))}
    return out


@rules.command(RigCalendar, anytime=True, choices=rig_calendar_choices, preview=rig_calendar_preview)
def rig_calendar(ctx, cmd: RigCalendar) -> None:
    _refuse(why_not_rig_calendar(ctx.state, cmd.year, cmd.bimonth, cmd.last_turn))
    if cmd.year is not None:
        year, bimonth = first_turn_date(ctx.state, cmd.year, cmd.bimonth)
        ctx.emit(CalendarSet(year=year, bimonth=bimonth))
    if cmd.last_turn is not None:
        ctx.emit(core.LastTurnSet(turn=cmd.last_turn))


# ---------------------------------------------------------------- activities
class RigActivity(Command):
    """Lab: ``power`` has used ``count`` more activities of ``kind`` this impulse (counted
    as the turn plugin counts them, without its limits: rig a situation at a limit)."""

    power: str
    kind: str
    count: int = 1


def why_not_rig_activity(state, power, kind, count) -> str | None:
    refusal = lab_refusal(state, "RigActivity")
    if refusal:
        return refusal
    if power not in state.kernel.powers():
        return f"RigActivity: {power!r} is not a power of this game ({', '.join(state.kernel.powers())})"
    try:
        canonical_kind(kind)
    except ValueError as exc:
        return f"RigActivity: {exc}"
    if count < 1:
        return f"RigActivity: count {count} is below 1"
    return None


def rig_activity_choices(state, actor, step_id):
    if lab_refusal(state, "RigActivity") or not rig_offered_to(state, actor):
        return None
    return [one_of("power", "option", state.kernel.powers(),
                   then=lambda p: [one_of("kind", "option", KINDS, label=lambda k: KIND_NAMES[k]),
                                   Field("count", "number", min=1, max=10)])]


def rig_activity_preview(state, cmd: RigActivity):
    _refuse(why_not_rig_activity(state, cmd.power, cmd.kind, cmd.count))
    kind = canonical_kind(cmd.kind)
    return {"power": cmd.power, "kind": kind, "used": core.used(state, cmd.power, kind) + cmd.count}


@rules.command(RigActivity, anytime=True, choices=rig_activity_choices, preview=rig_activity_preview)
def rig_activity(ctx, cmd: RigActivity) -> None:
    _refuse(why_not_rig_activity(ctx.state, cmd.power, cmd.kind, cmd.count))
    ctx.emit(core.ActivityUsed(power=cmd.power, kind=canonical_kind(cmd.kind), count=cmd.count))


rules.export(globals())
