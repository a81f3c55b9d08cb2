"""Initiative and the Move First Decision (seeds "Initiative" L2220, "Move First Decision"
L2818, rules-c "Initiative" L10172).

Each side rolls a die with the initiative track's modifier; the loser may demand one re-roll
(the track moves one step in the other side's favour, the re-roll stands); the winner then
decides which side has the first impulse (``ChooseFirstMover``, mandatory: FinishStep is
refused until it is decided).  Handler, choices and preview ask the same ``*_problem``
functions.
"""

from __future__ import annotations

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core

from .track import (
    DETERMINE,
    MOVE_FIRST,
    FirstSideChosen,
    InitiativeRolled,
    InitiativeTrackMoved,
    NewTurnBegun,
    date_name,
    rules,
    side_label,
    side_of_actor,
    track,
    turn_tables,
)


class ChooseFirstMover(Command):
    """Move First Decision: the initiative side says which side has the first impulse."""

    side: str


class DemandInitiativeReroll(Command):
    """Initiative: the side that lost the initiative roll demands a re-roll."""


# ---------------------------------------------------------------- Move First Decision
def first_mover_problem(state, actor: str, side: str | None = None) -> str | None:
    """Why ``actor`` may not decide now that ``side`` moves first (any side: ``side`` None)."""
    holder = core.world(state).initiative
    if state.kernel.sequence.current != MOVE_FIRST:
        return "Move First Decision: the side with the initiative decides after the initiative roll"
    if side_of_actor(state, actor) != holder:
        return f"Move First Decision: the side that won the initiative ({holder}) decides who moves first"
    if side is not None and side not in state.kernel.sides:
        return (f"Move First Decision: {side!r} is not a side of this game "
                f"({', '.join(state.kernel.sides)})")
    return None


def first_mover_offered_to(state, actor: str) -> bool:
    """Move First Decision: the decision is the side's, so ``Game.choices`` offers it once,
    through the side's first power (a side of several powers, e.g. Guadalcanal's USA and
    Commonwealth, would otherwise show the same buttons twice).  Any power of the side may
    still submit it (as ``kernel.lab.rig_offered_to`` does for a player's rig commands)."""
    side = side_of_actor(state, actor)
    powers = state.kernel.sides.get(side) or [actor]
    return actor in (side, powers[0])


def choose_first_mover(ctx, cmd: ChooseFirstMover) -> None:
    problem = first_mover_problem(ctx.state, cmd.actor, cmd.side)
    if problem:
        raise Rejected(problem)
    ctx.emit(FirstSideChosen(side=cmd.side, chosen_by=cmd.actor))
    # Initiative: the first side is phasing in the 1st, 3rd, 5th... impulses.
    ctx.set_active_side(cmd.side)
    ctx.emit(core.ImpulseReset())
    ctx.finish_decision(cmd.actor)


def first_mover_choices(state, actor: str, step_id: str):
    if first_mover_problem(state, actor) is not None or not first_mover_offered_to(state, actor):
        return None
    holder = side_of_actor(state, actor)

    def label(side: str) -> str:
        return f"{side_label(side)} moves first" + (" (us)" if side == holder else "")

    return [one_of("side", "option", list(state.kernel.sides), label=label)]


def first_mover_preview(state, cmd: ChooseFirstMover) -> dict:
    problem = first_mover_problem(state, cmd.actor, cmd.side)
    if problem:
        raise Rejected(problem)
    return {"first_side": cmd.side, "phasing": "impulses 1, 3, 5... of this turn"}


def first_mover_refusal(state, power: str) -> str | None:
    """Move First Decision: the initiative side must decide before the game goes on."""
    if track(state).first_side is None and first_mover_problem(state, power) is None:
        return "Move First Decision: decide which side has the first impulse of the turn"
    return None


# ---------------------------------------------------------------- Initiative re-roll
def reroll_position(state) -> int:
    """Where the track goes on a re-roll: one step in the other side's favour."""
    ini = turn_tables()["initiative"]
    holder = core.world(state).initiative
    return track(state).initiative_track + (1 if holder == ini["positive_side"] else -1)


def reroll_problem(state, actor: str) -> str | None:
    """Why ``actor`` may not demand an initiative re-roll now (Initiative), or None."""
    if state.kernel.sequence.current != MOVE_FIRST:
        return ("Initiative: a re-roll can only be demanded after the initiative roll, "
                "before the winner decides who moves first")
    t = track(state)
    holder = core.world(state).initiative
    side = side_of_actor(state, actor)
    if t.rerolled:
        return "Initiative: the re-roll stands - there can be no further re-rolls"
    if side == holder:
        return f"Initiative: {side} won the initiative; only the other side may demand a re-roll"
    ini = turn_tables()["initiative"]
    if not ini["track_min"] <= reroll_position(state) <= ini["track_max"]:
        label = ini["labels"][str(t.initiative_track)]
        return f"Initiative: the initiative track is at {label}, so {side} can't demand a re-roll"
    return None


def demand_reroll(ctx, cmd: DemandInitiativeReroll) -> None:
    problem = reroll_problem(ctx.state, cmd.actor)
    if problem:
        raise Rejected(problem)
    ctx.emit(InitiativeTrackMoved(position=reroll_position(ctx.state), reason=f"{cmd.actor} demanded a re-roll"))
    roll_initiative(ctx, reroll=True)
    ctx.enter(MOVE_FIRST)  # the (possibly new) winner decides


def reroll_choices(state, actor: str, step_id: str):
    return None if reroll_problem(state, actor) else []


def reroll_preview(state, cmd: DemandInitiativeReroll) -> dict:
    problem = reroll_problem(state, cmd.actor)
    if problem:
        raise Rejected(problem)
    position = reroll_position(state)
    label = turn_tables()["initiative"]["labels"].get(str(position), str(position))
    return {"track": position, "track_label": label, "stands": True}


# ---------------------------------------------------------------- the roll
def roll_initiative(ctx, reroll: bool = False) -> str:
    """Initiative: each side rolls a die, the track's modifier to one side; ties go against
    last turn's holder (first turn: roll again)."""
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
        ctx.emit(core.InitiativeSet(side=winner))
        return winner


@rules.step_rule(DETERMINE)
def determine_initiative(ctx, step_id: str) -> None:
    ctx.emit(NewTurnBegun(turn=ctx.state.kernel.turn, date=date_name(ctx.state)))
    roll_initiative(ctx)


rules.command(ChooseFirstMover, choices=first_mover_choices, preview=first_mover_preview)(choose_first_mover)
rules.command(DemandInitiativeReroll, anytime=True, choices=reroll_choices, preview=reroll_preview)(demand_reroll)
