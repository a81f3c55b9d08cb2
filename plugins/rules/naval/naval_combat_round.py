"""Naval Combat: the rest of a round: combat type, the attacks, the round's end, voluntary
aborts and the next round (see naval_combat.py for the seeds quoted; the surprise points
spent on the way: surprise_points.py)."""

from __future__ import annotations

from kernel.choices import Field, Option, yes_no
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.turn.track import current_date
from plugins.rules.units import units

from .naval_combat_events import NavalCombatEnded, NavalCombatTypeSet, NavalRoundEnded, NavalSideAborted, SurpriseSpent
from .naval_combat import ROUND, RULE, other, sides_at_war_in, sides_in_order, units_in_area
from . import naval_air_combat, naval_air_support
from .naval_combat_abort_queue import merge_into_voluntary, push_if_waiting, queue_aborts
from .naval_combat_results import due_for, flying_planes, results_due
from .naval_units import convoy_points, damaged, is_sub
from .sea_box_section import box_hex
from .state import naval, rules
from .surprise_points import CHOOSE_TYPE_COST


# ---------------------------------------------------------------- Select Naval Combat Type
def naval_air_possible(state) -> bool:
    """Naval air: a side has an undamaged carrier with carrier air units included, and the
    weather is not storm or blizzard ("None [naval air combat] in storm or blizzard")."""
    c = naval(state).combat
    if core.weather_in(state, box_hex(c.area)) in ("storm", "blizzard"):
        return False
    return any(flying_planes(state, c.included.get(side, [])) for side in state.kernel.sides)


def combat_type(state) -> str:
    """The priority list without surprise: naval air when a side can fly carrier air units,
    else submarine when a side's SUBs meet included enemy convoy points, else surface."""
    c = naval(state).combat
    all_units = units(state).units
    if naval_air_possible(state):
        return "naval-air"
    for side in state.kernel.sides:
        subs = [u for u in c.included.get(side, []) if is_sub(all_units[u])]
        convoys = [u for u in c.included.get(other(state, side), []) if convoy_points(all_units[u])]
        if subs and convoys:
            return "submarine"
    return "surface"


@rules.step_rule(f"{ROUND}.end-naval-combat-round")
def end_round(ctx, step_id: str) -> None:
    """End Naval Combat Round: units with A results (and double half-A) go to the abort queue,
    each side's with one number (Naval Combat Abort Queue).  A convoy's aborting point was
    split off and queued when its result was applied; the rest of the convoy stays."""
    state = ctx.state
    c = naval(state).combat
    naval_air_combat.round_over(ctx)  # aircraft aborted by AA fire go home
    if c is None or not c.aborting:
        return
    all_units = units(state).units
    for side in sides_in_order(state):
        mine = [u for u in c.aborting if state.kernel.side_of(all_units[u].power) == side
                and not convoy_points(all_units[u])]
        if mine:
            queue_aborts(ctx, mine, side, "result")


def start_attacks(ctx, kind: str) -> None:
    """Work out both sides' results before any is implemented (the combat is simultaneous)."""
    state = ctx.state
    c = naval(state).combat
    ctx.emit(NavalCombatTypeSet(kind=kind))
    year = current_date(state)[0] if "turn.track" in state.sections else 0
    for side in sides_in_order(state):
        enemy = other(state, side)
        mine, theirs = c.included.get(side, []), c.included.get(enemy, [])
        if not mine or not theirs:
            continue
        shift = c.shifts.get(side, 0)
        if kind == "naval-air":
            continue  # worked out after air-to-air combat and AA fire (naval_air_combat)
        if kind == "surface":
            due_for(ctx, enemy, *results_due(state, mine, theirs, "surface", shift))
        else:
            # two separate combats: this side's SUBs against convoys, its ASW against the SUBs
            if any(is_sub(units(state).units[u]) for u in mine):
                due_for(ctx, enemy, *results_due(state, mine, theirs, "submarine-subs", shift))
            elif any(is_sub(units(state).units[u]) for u in theirs):
                due_for(ctx, enemy, *results_due(state, mine, theirs, "submarine-asw", shift, year))


class ChooseNavalCombatType(Command):
    kind: str  # surface, submarine, naval-air


def type_chooser(state) -> str | None:
    """The side that chooses: one with 4 surprise points left chooses any type; otherwise the
    initiating side takes the type the priority list gives."""
    c = naval(state).combat
    if c is None or c.over or c.kind:
        return None
    rich = next((s for s, p in c.surprise.items() if p >= CHOOSE_TYPE_COST), None)
    return rich or c.initiator


def allowed_types(state) -> list[str]:
    c = naval(state).combat
    if c.surprise.get(type_chooser(state), 0) >= CHOOSE_TYPE_COST:
        return ["surface", "submarine", "naval-air"]
    return [combat_type(state)]


def type_choices(state, actor, step_id):
    if type_chooser(state) != state.kernel.side_of(actor):
        return None
    return [Field("kind", "option", [Option(k, k) for k in allowed_types(state)])]


def why_not_type(state, actor, kind: str) -> str | None:
    if type_chooser(state) != state.kernel.side_of(actor):
        return "Select Naval Combat Type: the other side chooses the combat type"
    if kind not in allowed_types(state):
        return (f"Select Naval Combat Type: {kind!r} is not allowed now ({', '.join(allowed_types(state))}; "
                "4 surprise points choose any type)")
    return None


def type_preview(state, cmd):
    problem = why_not_type(state, cmd.actor, cmd.kind)
    if problem:
        raise Rejected(problem)
    return {"kind": cmd.kind, "surprise_cost": 4 if len(allowed_types(state)) > 1 and cmd.kind != combat_type(state) else 0}


@rules.command(ChooseNavalCombatType, choices=type_choices, preview=type_preview)
def choose_naval_combat_type(ctx, cmd: ChooseNavalCombatType) -> None:
    problem = why_not_type(ctx.state, cmd.actor, cmd.kind)
    if problem:
        raise Rejected(problem)
    side = ctx.state.kernel.side_of(cmd.actor)
    if cmd.kind != combat_type(ctx.state):
        ctx.emit(SurpriseSpent(side=side, benefit="choose-type", points=CHOOSE_TYPE_COST))
    start_attacks(ctx, cmd.kind)
    ctx.finish_decision(cmd.actor)


# ---------------------------------------------------------------- Voluntary Side Abort
class NavalSideAbort(Command):
    abort: bool


def abort_choices(state, actor, step_id):
    c = naval(state).combat
    side = state.kernel.side_of(actor)
    if c is None or c.over or side in c.voluntary or not units_in_area(state, c.area, side):
        return None
    return [yes_no("abort", "abort all your units from the sea area")]


@rules.command(NavalSideAbort, choices=abort_choices,
               preview=lambda state, cmd: {"units": [u.id for u in units_in_area(
                   state, naval(state).combat.area, state.kernel.side_of(cmd.actor))] if naval(state).combat else []})
def naval_side_abort(ctx, cmd: NavalSideAbort) -> None:
    if abort_choices(ctx.state, cmd.actor, None) is None:
        raise Rejected(f"Voluntary Side Abort: {cmd.actor}'s side has no units to abort now, or has decided")
    side = ctx.state.kernel.side_of(cmd.actor)
    if cmd.abort:
        c = naval(ctx.state).combat
        ctx.emit(NavalSideAborted(side=side))
        merge_into_voluntary(ctx, side, [u.id for u in units_in_area(ctx.state, c.area, side)])
    ctx.finish_decision(cmd.actor)


# ---------------------------------------------------------------- Next Naval Combat Round
@rules.step_rule(f"{ROUND}.next-naval-combat-round")
def next_round(ctx, step_id: str) -> None:
    state = ctx.state
    c = naval(state).combat
    over = c.over
    if not over and not sides_at_war_in(state, c.area):
        over = "one side has no units left in the sea area"
    if not over and c.voluntary:
        over = f"{', '.join(c.voluntary)} aborted"
    ctx.emit(NavalRoundEnded(round=c.round, over=over))
    if over:
        end_combat(ctx, over)


def end_combat(ctx, reason: str) -> None:
    """At the end of combat in the area all damaged units must abort; then the abort queue is
    processed (the Naval Combat Abort Digression) before play goes back where it was."""
    state = ctx.state
    c = naval(state).combat
    area = c.area
    for side in sides_in_order(state):
        hurt = [u.id for u in units_in_area(state, area, side) if damaged(state, u.id)]
        if hurt:
            queue_aborts(ctx, hurt, side, "damaged")
    naval_air_support.return_support(ctx)
    ctx.emit(NavalCombatEnded(area=area, reason=reason))
    push_if_waiting(ctx)


def repeat_round(state) -> bool:
    c = naval(state).combat
    return c is not None and not c.over
