"""Choose Action: each phasing major power chooses a Pass, Naval, Air, Land or Combined
action for the impulse (seeds "Choose Action" L10258, "Action Choice (see RAC 10)" L1).

Mandatory: a phasing power may not finish the step without an action (Pass is one).
Handler, choices and preview ask ``action_problem``; what an action allows is
``activities.py``'s (the one home of action gating and activity limits).
"""

from __future__ import annotations

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core

from . import activities
from .track import BIMONTHS, current_date, rules, side_of_actor

RULE = "Action Choice (see RAC 10)"


class ChooseAction(Command):
    """Choose Action: a phasing major power's action for this impulse."""

    action: str  # pass, naval, air, land, combined
    power: str | None = None  # default: the actor


def _neutral_exception(state, power: str, action: str) -> bool:
    """Germany's first impulse of Sep/Oct 1939 may be a Land action though it is not yet at war."""
    year, bim = current_date(state)
    return (power == "germany" and action == "land" and (year, BIMONTHS[bim]) == (1939, "sep-oct")
            and state.kernel.impulse == 1)


def power_problem(state, actor: str, power: str) -> str | None:
    """Why ``actor`` may not choose ``power``'s action now (any action), or None."""
    k = state.kernel
    if power not in k.powers():
        return f"Choose Action: {power!r} is not a major power of this game"
    if actor != power and side_of_actor(state, actor) != k.side_of(power):
        return f"Choose Action: {actor} cannot choose {power}'s action"
    if k.side_of(power) != k.active_side:
        return f"Choose Action: each major power on the phasing side chooses; {power} is not phasing"
    return None


def action_problem(state, actor: str, power: str, action: str) -> str | None:
    """Why ``actor`` may not choose ``action`` for ``power`` now (a reason naming the rule)."""
    if action not in core.ACTIONS:
        return f"{RULE}: {action!r} is not an action; choose one of " + ", ".join(core.ACTIONS)
    problem = power_problem(state, actor, power)
    if problem:
        return problem
    at_war = any(power in pair for pair in core.world(state).at_war)
    if not at_war and action not in ("pass", "combined") and not _neutral_exception(state, power, action):
        return (f"{RULE}: {power} is a neutral major power and must choose "
                "either a Pass or a Combined action")
    return None


def choose_action(ctx, cmd: ChooseAction) -> None:
    state = ctx.state
    power = cmd.power or cmd.actor
    problem = action_problem(state, cmd.actor, power, cmd.action)
    if problem:
        raise Rejected(problem)
    ctx.emit(core.ActionChosen(power=power, action=cmd.action))
    ctx.finish_decision(power if power in state.kernel.sequence.pending else cmd.actor)


def action_label(power: str, action: str) -> str:
    """"Land: unlimited land moves, 1 land attack..." - what a player reads on the button."""
    name = activities.ACTION_NAMES[action]
    parts = []
    for kind, cap in activities.action_activities(power, action).items():
        if cap == 0:
            continue
        parts.append(f"{'unlimited' if cap is None else cap} {activities.KIND_NAMES[kind]}")
    return f"{name}: " + ", ".join(parts) if parts else f"{name}: no activities this impulse"


def choose_action_choices(state, actor: str, step_id: str):
    """The actions the seeds allow ``actor`` now (for itself: the power defaults to the actor)."""
    if power_problem(state, actor, actor) is not None or core.action_of(state, actor) is not None:
        return None
    allowed = [a for a in core.ACTIONS if action_problem(state, actor, actor, a) is None]
    return [one_of("action", "option", allowed, label=lambda a: action_label(actor, a))]


def choose_action_preview(state, cmd: ChooseAction) -> dict:
    power = cmd.power or cmd.actor
    problem = action_problem(state, cmd.actor, power, cmd.action)
    if problem:
        raise Rejected(problem)
    return {"power": power, "action": cmd.action,
            "activities": activities.action_activities(power, cmd.action),
            "phases": activities.action_phases(cmd.action)}


def choose_action_refusal(state, power: str) -> str | None:
    """Choose Action: every phasing major power chooses an action; Pass is one of them."""
    if core.action_of(state, power) is None:
        return (f"{RULE}: {power} must choose an action "
                "(Pass, Naval, Air, Land or Combined) before the phase ends")
    return None


rules.command(ChooseAction, choices=choose_action_choices, preview=choose_action_preview)(choose_action)
