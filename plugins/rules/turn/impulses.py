"""The impulse loop: the weather roll, phase gating by action and the End of Turn Check
(seeds "Weather" L10192, "Weather Report" L7651, "End of Turn Check" L10914, rules-c 1.0)."""

from __future__ import annotations

from plugins.rules import core

from . import activities
from .track import (
    BIMONTHS,
    CODES,
    END_CHECK,
    IMPULSE,
    WEATHER,
    EndOfTurnRolled,
    InitiativeTrackMoved,
    WeatherRolled,
    current_date,
    date_name,
    other_side,
    rules,
    track,
    turn_tables,
    weather_chart,
)

INDEPENDENT_AIR = "independent-air"
INDEPENDENT_AIR_PHASES = ("strategic-bombardment", "carpet-bombing", "ground-strike")


@rules.step_rule(WEATHER)
def weather_step(ctx, step_id: str) -> None:
    """Weather Report: one die for the pair of impulses, +1..+3 for the last roll's
    asterisks, read on the weather chart for this turn, per zone."""
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
    ctx.emit(core.WeatherSet(weather=weather, roll=roll))


@rules.step_rule(END_CHECK)
def end_of_turn_check(ctx, step_id: str) -> None:
    """End of Turn Check: a random number plus the impulse number; high enough ends the
    turn, else the impulse number advances and the phasing and non-phasing sides switch."""
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
    ctx.emit(core.ImpulseReset())


def gate_reason(state, step_id: str) -> str | None:
    """Why no phasing power may act in this impulse phase (rules-c section 1.0), or None."""
    if not step_id.startswith(IMPULSE + "."):
        return None
    key = step_id.rsplit(".", 1)[-1]
    if key not in activities.PHASE_GATES and key != INDEPENDENT_AIR:
        return None
    active = state.kernel.active_side
    powers = state.kernel.sides.get(active, []) if active else state.kernel.powers()
    if key == INDEPENDENT_AIR:
        if any(activities.allows_phase(state, p, k) for p in powers for k in INDEPENDENT_AIR_PHASES):
            return None
        return ("Independent Air Missions Stage: no phasing major power has air missions available "
                "(a Pass action allows none)")
    if any(activities.allows_phase(state, p, key) for p in powers):
        return None
    allowed, title = activities.PHASE_GATES[key]
    names = " or ".join(activities.ACTION_NAMES[a] for a in ("naval", "air", "land", "combined") if a in allowed)
    chosen = ", ".join(f"{p}: {core.action_of(state, p) or 'none'}" for p in powers) or "no phasing power"
    need = activities.PHASE_NEEDS.get(key)
    extra = f" with {activities.KIND_NAMES[need]} left" if need else ""
    return f"{activities.ACTION_RULE}: {title} needs a {names} action{extra} ({chosen})"
