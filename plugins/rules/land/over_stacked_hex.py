"""Over-Stacked Hex and the Correct Overstacking Digression: "Stacking applies at the end of
every phase ... if it happens (e.g., due to liberation), the owner of the hex must destroy
enough of the overstacked units to comply with the stacking limits.  You must destroy
organized units before disorganized units."

``overstack_loss_problem`` is the one judgement of a loss: the handler, the choices and the
preview ask it; ``overstack_refusal`` keeps the digression's deciders from finishing early.
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.units import UnitMoved

from .events import OverstackLossChosen, rules
from .labels import unit_label
from .movement import norm, stacking_breaches, stacking_problems

OVERSTACK_DIGRESSION = "digressions.correct-overstacking"

# Over-Stacked Hex: "Stacking applies at the end of every phase", so the whole map is checked at
# every step's end (hundreds of times a game, a hundred occupied hexes each).  Most stacks have
# not changed since the last check: each hex's answer is remembered under everything
# ``stacking_breaches`` (with ``air_limit``) reads for it, so a changed stack, a unit changing
# hands, a new alliance or new weather is a new key and is judged afresh, never a stale answer.
# The terrain and cities are the map's, fixed for a map (the map object is in the key).
_STACK_VERDICTS: dict[tuple, list[str]] = {}
_MAX_VERDICTS = 50_000  # a server's many games share it; emptied past this


def _stack_key(stack) -> tuple:
    """What the stacking rules read of the units in one hex: who controls each unit (its side),
    its kind and size (land limit, divisions, artillery, supply), its type and flags (HQ, ENG)."""
    return tuple((u.id, u.power, u.nationality, u.branch, u.type, u.size, tuple(u.flags), u.face_up)
                 for u in stack)


def overstacked_hexes(state) -> dict[tuple[int, int], list[str]]:
    """Over-Stacked Hex: every overstacked hex with what it breaks ({hex: [reason, ...]}), as
    ``movement.overstacked_hexes`` answers, from the remembered verdicts of unchanged stacks."""
    units = state["units"]
    world = core.world(state)
    around = (core.world_map(), tuple((side, tuple(p)) for side, p in state.kernel.sides.items()),
              tuple(sorted(world.weather.items())))
    if len(_STACK_VERDICTS) > _MAX_VERDICTS:
        _STACK_VERDICTS.clear()
    out = {}
    for key, ids in units.at_hex.items():
        stack = [units.units[u] for u in ids]
        memo_key = (key, _stack_key(stack), around)
        problems = _STACK_VERDICTS.get(memo_key)
        if problems is None:
            problems = _STACK_VERDICTS[memo_key] = stacking_problems(state, core.key_hex(key))
        if problems:
            out[core.key_hex(key)] = list(problems)
    return out


class ChooseOverstackLoss(Command):
    """Over-Stacked Hex: destroy this unit to bring its hex within the stacking limits."""

    unit: str


def overstack_owner(state, hex_) -> str | None:
    """Who chooses the losses in an overstacked hex: the power controlling it, or (when that
    power has no unit there) the power of the first unit in it."""
    owner = core.hex_controller(state, hex_)
    units = state["units"].in_hex(hex_)
    if owner is None or all(u.power != owner for u in units):
        owner = units[0].power if units else owner
    return owner


def overstack_deciders(state) -> list[str]:
    """The owners of the overstacked hexes (Correct Overstacking Digression)."""
    out = []
    for hex_ in overstacked_hexes(state):
        owner = overstack_owner(state, hex_)
        if owner and owner not in out:
            out.append(owner)
    return out


def check_overstacking(ctx) -> bool:
    """Over-Stacked Hex: "Stacking applies at the end of every phase".  Pushes the Correct
    Overstacking digression when any hex is overstacked; returns whether it did."""
    if overstacked_hexes(ctx.state):
        ctx.push(OVERSTACK_DIGRESSION)
        return True
    return False


def overstack_loss_problem(state, actor: str, unit) -> str | None:
    """Why ``actor`` may not destroy ``unit`` to correct an overstacked hex now, or None."""
    if not unit.on_map:
        return f"Over-Stacked Hex: {unit.name or unit.id} is not on the map"
    hex_ = norm(unit.hex)
    breaches = stacking_breaches(state, hex_)
    if not breaches:
        return f"Over-Stacked Hex: hex {hex_[0]},{hex_[1]} is not overstacked"
    owner = overstack_owner(state, hex_)
    if actor != owner:
        return f"Over-Stacked Hex: the owner of hex {hex_[0]},{hex_[1]} ({owner}) chooses its losses, not {actor}"
    # "Stacking limits for land, aircraft, and naval units are independent": a unit of a kind
    # within its limit is not overstacked; where units that can't co-operate share the hex, the
    # owner's own side's units are
    own_side = "sides" in breaches and core.side_of(state, unit.power) == core.side_of(state, owner)
    if unit.branch not in breaches and not own_side:
        return f"Over-Stacked Hex: the {unit.branch} units in hex {hex_[0]},{hex_[1]} are within their limit"
    # "organized before disorganized" among the units the owner may destroy (not an enemy's)
    peers = [u for u in state["units"].in_hex(hex_) if u.branch == unit.branch
             and (u.branch in breaches or ("sides" in breaches
                                           and core.side_of(state, u.power) == core.side_of(state, owner)))]
    if not unit.face_up and any(p.face_up for p in peers):
        return "Over-Stacked Hex: you must destroy organized units before disorganized units"
    return None


def choose_overstack_loss(ctx, cmd: ChooseOverstackLoss) -> None:
    state = ctx.state
    unit = state["units"].units.get(cmd.unit)
    if unit is None:
        raise Rejected(f"Over-Stacked Hex: there is no unit {cmd.unit!r}")
    problem = overstack_loss_problem(state, cmd.actor, unit)
    if problem:
        raise Rejected(problem)
    hex_ = norm(unit.hex)
    ctx.emit(OverstackLossChosen(unit=unit.id, hex=hex_))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=None, to_where="eliminated"))
    if cmd.actor not in overstack_deciders(ctx.state):
        ctx.finish_decision(cmd.actor)  # its hexes are within the limits now


def overstack_choices(state, actor: str, step_id: str) -> list[Field] | None:
    """The units ``actor`` may destroy now, in the overstacked hexes it owns."""
    options = []
    for hex_ in overstacked_hexes(state):
        for unit in state["units"].in_hex(hex_):
            if overstack_loss_problem(state, actor, unit) is None:
                options.append(Option(unit.id, unit_label(unit)))
    if not options:
        return None
    return [Field("unit", "unit", options, label="unit to destroy")]


def preview_overstack_loss(state, cmd: ChooseOverstackLoss) -> dict:
    unit = state["units"].units.get(cmd.unit)
    if unit is None:
        raise Rejected(f"Over-Stacked Hex: there is no unit {cmd.unit!r}")
    problem = overstack_loss_problem(state, cmd.actor, unit)
    if problem:
        raise Rejected(problem)
    hex_ = norm(unit.hex)
    gone = [unit.id]
    return {"unit": unit.id, "hex": list(hex_), "problems": list(stacking_breaches(state, hex_).values()),
            "still_overstacked": bool(stacking_breaches(state, hex_, leaving=gone))}


def overstack_refusal(state, step_id: str, power: str) -> str | None:
    """The Correct Overstacking digression "is over once no overstacked hexes remain": the
    owner of one may not finish before destroying enough units there."""
    if not step_id.endswith(OVERSTACK_DIGRESSION.split(".")[-1]):
        return None
    hexes = [h for h in overstacked_hexes(state) if overstack_owner(state, h) == power]
    if not hexes:
        return None
    where = ", ".join(f"{h[0]},{h[1]}" for h in hexes)
    return f"Over-Stacked Hex: {power} must first destroy units in the overstacked hex(es) it owns: {where}"


rules.command(ChooseOverstackLoss, choices=overstack_choices, preview=preview_overstack_loss)(choose_overstack_loss)
