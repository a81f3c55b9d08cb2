"""Where the land combat steps stand in the sequence of play: which are skipped now, who
decides each, which decisions must be made before a step may end, and what ending one
without deciding does.  Tables keyed by step (the leaf of the land combat resolution
sub-machine), each entry a function of the state."""

from __future__ import annotations

from . import odds as O
from .hq_support import hq_support_in_play
from .losses import loss_choosers, shatter_result
from .notional import notional_pending, notional_refusal
from .resolution import chooser_power, prune, select_refusal, snow_eligible, table_refusal
from .retreat import retreat_step_ended
from .state import (
    COMBAT,
    PROC,
    attacking_leader,
    current_combat,
    declared_this_impulse,
    defending_leader,
    team_leader,
)

HQ_STEPS = (f"{COMBAT}.defending-hq-support", f"{COMBAT}.attacking-hq-support", f"{COMBAT}.ground-support.hq-support-rolls")
NOTIONAL_STEP = f"{COMBAT}.ignore-notional.include-notional-units"


# ---------------------------------------------------------------- skip
def _skip_notional(state) -> str | None:
    if not any(c.forced for c in declared_this_impulse(state)):
        return "no invasion or paradrop was made"
    return None


def _skip_hq(state, step_id) -> str | None:
    if not hq_support_in_play(state):
        return "optional rule HQ support (option 13) is not in play"
    declared = declared_this_impulse(state)
    if not declared:
        return "no land attack was declared"
    if step_id.endswith("hq-support-rolls") and not any(c.hq for c in declared):
        return "no HQ support was declared"
    return None


def _stage(stage: str, past: str):
    """Skip unless the combat is at ``stage``; ``past`` says why."""
    return lambda state, c: None if c.stage == stage else past


PROC_SKIPS = {
    "select-land-combat": lambda state, c: f"the combat at {O.place_name(c.hex)} is chosen",
    "non-phasing-snow-decision":
        lambda state, c: "snow units give the defending side no benefit in land combat (Weather Report)",
    "phasing-snow-decision": lambda state, c: (
        None if c.stage == "selected" and snow_eligible(state, c)
        else "no benefit from snow units in this combat"),
    "choose-combat-type": _stage("selected", "the combat type is chosen"),
    "choose-combat-type.assault-or-blitz": _stage("selected", "the combat type is chosen"),
    "choose-combat-type.resolve-combat": _stage("typed", "the combat is resolved"),
    "land-combat-die-rolls": _stage("typed", "the combat is resolved"),
    "convert-shattered-results": lambda state, c: (
        None if shatter_result(c) else "the result is not Shattered or Breakthrough"),
    "assign-losses": _stage("rolled", "losses are applied"),
    "assign-losses.apply-losses": _stage("rolled", "losses are applied"),
    "change-hex-control": lambda state, c: "no invasion or paradrop succeeded in this combat",
    "retreat-units": lambda state, c: None if c.stage == "applied" and c.retreating else "no unit to retreat",
    "advance-after-combat": lambda state, c: (
        None if c.stage == "applied" and c.advance else "the attacked hex still holds enemy land units"),
}


def skip_reason(state, step_id: str) -> str | None:
    if step_id == f"{COMBAT}.ignore-notional":
        return _skip_notional(state)
    if step_id in HQ_STEPS:
        return _skip_hq(state, step_id)
    if not step_id.startswith(PROC + "."):
        return None
    leaf = step_id[len(PROC) + 1:]
    c = current_combat(state)
    if c is None:
        return None if leaf == "select-land-combat" else "no land combat left to resolve"
    skip = PROC_SKIPS.get(leaf)
    return skip(state, c) if skip else None


# ---------------------------------------------------------------- deciders
def _one(power):
    return [power] if power else []


PROC_DECIDERS = {
    "rule:phasing-team-leader": lambda state, c: _one(attacking_leader(state, c)),
    "rule:phasing-dm": lambda state, c: _one(attacking_leader(state, c)),
    "rule:non-phasing-dm": lambda state, c: _one(defending_leader(state, c)),
    "rule:land-combat-type-chooser": lambda state, c: _one(chooser_power(state, c)),
    "rule:land-combat-type-team-leader": lambda state, c: _one(chooser_power(state, c)),
    "rule:team-leaders": lambda state, c: sorted(set(loss_choosers(state, c).values())),
}


def deciders(state, step_id: str, kind: str) -> list[str] | None:
    if step_id == NOTIONAL_STEP:
        return sorted({p for c in notional_pending(state) if (p := defending_leader(state, c))})
    if not step_id.startswith(PROC + "."):
        return None
    c = current_combat(state)
    if c is None:
        if kind == "rule:phasing-team-leader":
            return _one(team_leader(state, state.kernel.active_side))
        return []
    find = PROC_DECIDERS.get(kind)
    return find(state, c) if find else None


# ---------------------------------------------------------------- ending a step
def finish_refusal(state, step_id: str, power: str) -> str | None:
    """Decisions without which the step may not end (the others have a default, below)."""
    if step_id == NOTIONAL_STEP:
        return notional_refusal(state, power)
    if step_id == f"{PROC}.select-land-combat" and current_combat(state) is None:
        return select_refusal(state)
    if step_id == f"{PROC}.choose-combat-type.assault-or-blitz":
        c = current_combat(state)
        return table_refusal(state) if c is not None and c.stage == "selected" else None
    return None


def step_ended(ctx, step_id: str) -> None:
    """A step ended without every decision made: Select Land Combat cancels the attacks left
    without in-supply attackers; Retreat Units retreats the units still to retreat.  (Losses
    left unchosen are taken by Apply Losses; an unanswered snow decision keeps the benefit.)"""
    if step_id == f"{PROC}.select-land-combat":
        prune(ctx)
    elif step_id == f"{PROC}.retreat-units":
        retreat_step_ended(ctx)
