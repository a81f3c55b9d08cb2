"""Ignore Notional (seed "Ignore Notional"): after an invasion or paradrop the defender
decides, attack by attack, whether its notional unit defends the hex."""

from __future__ import annotations

from kernel.choices import Field, Option, yes_no
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.land import REBASE_DIGRESSION
from plugins.rules.units import UnitMoved

from . import odds as O
from .events import AttackCancelled, NotionalDecided
from .labels import hex_label
from .state import COMBAT, Combat, cs, defenders, defending_leader, living_attackers, open_combats, rules

RULE = "Ignore Notional"


class IncludeNotional(Command):
    hex: tuple[int, int]
    include: bool


def notional_pending(state, power: str | None = None) -> list[Combat]:
    """Invasions and paradrops whose notional unit is still to be decided (by ``power``)."""
    out = []
    for c in open_combats(state):
        if c.forced and c.notional is None:
            if power is None or defending_leader(state, c) == power:
                out.append(c)
    return out


def notional_problem(state, power: str, hex_) -> str | None:
    key = core.hex_key(O.norm(hex_))
    c = cs(state).combats.get(key)
    if c is None or c not in notional_pending(state, power):
        return f"{RULE}: {power} has no invasion or paradrop at {key} to decide on"
    return None


def notional_choices(state, actor: str, step_id: str) -> list[Field] | None:
    pending = notional_pending(state, actor)
    if not pending:
        return None
    return [Field("hex", "hex", [
        Option(list(c.hex), f"{hex_label(c.hex)}: {c.forced}, the notional unit would defend with "
                            f"{O.notional_factors(state, c.hex, defenders(state, c))}",
               then=[yes_no("include", "the notional unit defends")])
        for c in pending], label="invaded or paradropped hex")]


def notional_preview(state, cmd: IncludeNotional) -> dict:
    problem = notional_problem(state, cmd.actor, cmd.hex)
    if problem:
        raise Rejected(problem)
    c = cs(state).combats[core.hex_key(O.norm(cmd.hex))]
    real = defenders(state, c)
    told = {"notional_factors": O.notional_factors(state, c.hex, real) if cmd.include else 0}
    if not cmd.include and not real:
        told["cancelled"] = "no attack: the attacker occupies the hex"
    return told


@rules.command(IncludeNotional, choices=notional_choices, preview=notional_preview)
def include_notional(ctx, cmd: IncludeNotional) -> None:
    problem = notional_problem(ctx.state, cmd.actor, cmd.hex)
    if problem:
        raise Rejected(problem)
    key = core.hex_key(O.norm(cmd.hex))
    c = cs(ctx.state).combats[key]
    ctx.emit(NotionalDecided(combat=key, power=cmd.actor, include=cmd.include))
    if not cmd.include and not defenders(ctx.state, c):
        # "If you do so (and there are no other friendly land units in the hex), then ...
        # there is no attack, and the attacker occupies the hex"
        ctx.emit(AttackCancelled(combat=key, reason="the notional unit is ignored: no attack, the hex is occupied"))
        for u in living_attackers(ctx.state, c):
            if u.hex != c.hex:
                ctx.emit(UnitMoved(unit=u.id, to_hex=c.hex))
        ctx.emit(core.HexControlChanged(hex=c.hex, power=c.powers[0]))
    if not notional_pending(ctx.state, cmd.actor):
        ctx.finish_decision(cmd.actor)


def notional_refusal(state, power: str) -> str | None:
    """The defender answers for every invasion and paradrop before the phase ends."""
    if notional_pending(state, power):
        return f"{RULE}: decide whether the notional unit defends each invaded or paradropped hex"
    return None


@rules.step_rule(f"{COMBAT}.ignore-notional.overrun-check")
def overrun_check_after_notional(ctx, step_id: str) -> None:
    """Ignore Notional: "When all decisions concerning notional units have been made, the game
    checks to see if any naval/air units have been overrun.  If so, a digression is processed
    to rebase those units" - land's Rebase Overrun Units digression, which is skipped with its
    reason when no overrun unit is left."""
    ctx.push(REBASE_DIGRESSION)
