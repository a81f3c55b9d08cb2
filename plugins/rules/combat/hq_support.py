"""HQ support, optional rule 13 (seeds "Defending HQ Support", "Attacking HQ Support",
"Determination of Whether HQ Support Occurs"): an organized HQ within its reorganization
value of a declared combat announces support (defender first), rolled on 1D10 after ground
support; a success shifts the odds a level in its side's favour.  The values are authored in
data/combat_effects.json ("hq_support")."""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.optional.framework import is_on
from plugins.rules import core

from . import odds as O
from .events import HQSupportDeclared, HQSupportRolled
from .labels import hex_label, unit_label
from .state import COMBAT, cs, declared_this_impulse, open_combats, rules, side_name, units

RULE = "HQ Support (option 13)"


class DeclareHQSupport(Command):
    hq: str
    hex: tuple[int, int]


def hq_support_in_play(state) -> bool:
    """Optional rule HQ support (option 13): ON through the optional-rule framework (so a
    toggle during play counts), or the older game option ``"hq_support": true``."""
    return bool((state.kernel.options or {}).get("hq_support")) or is_on(state, "hq-support")


def _factor(hq, key: str) -> int:
    return int(hq.factors.get(O.effects()["hq_support"][key], hq.factors.get("combat", 0)))


def step_side(step_id: str) -> str:
    """Which side announces its HQ support in this step."""
    return "attacker" if step_id.endswith("attacking-hq-support") else "defender"


def hq_problem(state, power: str, hq_id: str) -> str | None:
    """Why ``hq_id`` can't support any combat now (whatever the hex)."""
    if not hq_support_in_play(state):
        return f"{RULE}: this optional rule is not in play"
    hq = units(state).get(hq_id)
    if hq is None or hq.power != power or not core.is_hq(hq) or not hq.on_map:
        return f"{RULE}: {hq_id} is not an HQ of {power} on the map"
    if not hq.face_up:
        return f"{RULE}: {hq.name or hq.id} is disorganized"
    if hq.id in cs(state).hq_used:
        return f"{RULE}: {hq.name or hq.id} already supports a combat this impulse"
    return None


def hq_support_problem(state, power: str, hq_id: str, hex_, step_id: str) -> str | None:
    """Why ``hq_id`` may not announce support of the combat at ``hex_`` in this step."""
    if not hq_support_in_play(state):
        return f"{RULE}: this optional rule is not in play"
    key = core.hex_key(O.norm(hex_))
    c = cs(state).combats.get(key)
    if c is None or c not in declared_this_impulse(state):
        return f"{RULE}: no land attack is declared against {key}"
    problem = hq_problem(state, power, hq_id)
    if problem:
        return problem
    hq = units(state)[hq_id]
    side = side_name(state, c, power)
    if side != step_side(step_id):
        return (f"{RULE}: the {side} announces its HQ support in the "
                f"{'Attacking' if side == 'attacker' else 'Defending'} HQ Support phase")
    reach = _factor(hq, "range_factor")
    dist = core.world_map().grid.distance(O.norm(hq.hex), c.hex)
    if dist > reach:
        return (f"{RULE}: {hq.name or hq.id} is {dist} hexes from {O.place_name(c.hex)}, "
                f"beyond its reorganization value {reach}")
    return None


def hq_support_choices(state, actor: str, step_id: str) -> list[Field] | None:
    """The actor's HQs that may support, each with the combats it may support."""
    if not hq_support_in_play(state):
        return None
    options = []
    for hq in units(state).values():
        if hq.power != actor or hq_problem(state, actor, hq.id):
            continue
        hexes = [c.hex for c in declared_this_impulse(state)
                 if hq_support_problem(state, actor, hq.id, c.hex, step_id) is None]
        if hexes:
            options.append(Option(hq.id, unit_label(hq), then=[
                Field("hex", "hex", [Option(list(h), hex_label(h)) for h in hexes], label="combat to support")]))
    return [Field("hq", "unit", options, label="supporting HQ")]


def hq_support_preview(state, cmd: DeclareHQSupport) -> dict:
    problem = hq_support_problem(state, cmd.actor, cmd.hq, cmd.hex, state.kernel.sequence.current or "")
    if problem:
        raise Rejected(problem)
    needed = _factor(units(state)[cmd.hq], "success_factor")
    return {"needed": needed, "chance": min(10, max(0, needed)) / 10, "shift": O.effects()["hq_support"]["shift"]}


@rules.command(DeclareHQSupport, choices=hq_support_choices, preview=hq_support_preview)
def declare_hq_support(ctx, cmd: DeclareHQSupport) -> None:
    step = ctx.state.kernel.sequence.current or ""
    problem = hq_support_problem(ctx.state, cmd.actor, cmd.hq, cmd.hex, step)
    if problem:
        raise Rejected(problem)
    ctx.emit(HQSupportDeclared(combat=core.hex_key(O.norm(cmd.hex)), side=step_side(step), hq=cmd.hq))


@rules.step_rule(f"{COMBAT}.ground-support.hq-support-rolls")
def hq_support_rolls(ctx, step_id: str) -> None:
    """Determination of Whether HQ Support Occurs (1D10 Land CRT): rolled after ground support."""
    for c in open_combats(ctx.state):
        for side, hqs in sorted(c.hq.items()):
            for hq_id in hqs:
                hq = units(ctx.state).get(hq_id)
                if hq is None or not hq.on_map:
                    continue
                needed = _factor(hq, "success_factor")
                (roll,) = ctx.roll(f"HQ support by {hq.name or hq.id} at {O.place_name(c.hex)} (combat {c.id})")
                ctx.emit(HQSupportRolled(combat=c.id, side=side, hq=hq_id, roll=roll, needed=needed,
                                         success=roll <= needed))
