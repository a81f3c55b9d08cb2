"""Shore bombardment, and reorganization by naval transport.

Seeds: "Attacking Shore Bombardment" / "Defending Shore Bombardment" (L10732-10756): "If land
combats have been declared, MWIF checks to see if there are any ... major powers which could
provide ... shore bombardment support to attacked hexes"; defending shore bombardment is an
optional rule (the turn plugin skips it when off).  "Reorganziation by Naval Transport"
(L10897-10907): "major powers on the phasing side can use Naval Transports (only) that are at
sea to reorganize disorganized units.  The ability of the naval transport to do something
useful later in the turn is exchanged for the ability of another unit".

Authored (the seeds give no factor or reach): a surface combat ship (or CV) at sea, organized,
bombards a declared combat's hex that is a coastal hex of its sea area; it adds its attack
factor as it counts now (halved when damaged) to its side, in the same way as ground support
(the combat plugin's ``GroundSupportAdded``, capped like it at the land factors), and turns
face down.  A naval transport at sea, organized, reorganizes one disorganized land or air
unit of its side in a coastal hex of its sea area, and turns face down.
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.combat.events import GroundSupportAdded
from plugins.rules.combat.state import declared_this_impulse
from plugins.rules.units import UnitFlipped, units

from .naval_transport import coastal_hexes
from .naval_units import factor, is_convoy, is_sub, kind, label
from .state import IMPULSE, naval, rules

ATTACKING = f"{IMPULSE}.land.combat.attacking-shore-bombardment"
DEFENDING = f"{IMPULSE}.land.combat.defending-shore-bombardment"
REORGANIZATION = f"{IMPULSE}.end-of-impulse.reorganization-by-naval-transport"


# ---------------------------------------------------------------- Shore Bombardment
class ShoreBombard(Command):
    ship: str
    combat: str  # the attacked hex "col,row"


def _bombarding_side(state, power: str, combat) -> str | None:
    """"attacker" or "defender" for ``power`` in ``combat``, or None."""
    if power in combat.powers or any(units(state).units[u].power == power for u in combat.attackers):
        return "attacker"
    owner = core.hex_controller(state, combat.hex)
    if owner is not None and core.side_of(state, owner) == core.side_of(state, power) and power not in combat.powers:
        return "defender"
    return None


def can_bombard(state, ship) -> bool:
    return (ship.branch == "naval" and ship.id in naval(state).at_sea and ship.face_up
            and kind(ship) in ("surface", "carrier") and not is_sub(ship) and not is_convoy(ship))


def why_not_bombard(state, power: str, ship_id: str, combat_id: str, step_id: str | None = None) -> str | None:
    ship = units(state).units.get(ship_id)
    if ship is None or ship.power != power or not can_bombard(state, ship):
        return f"Shore Bombardment: {ship_id!r} is not an organized warship of {power} at sea"
    combat = next((c for c in declared_this_impulse(state) if c.id == combat_id and c.stage == "declared"), None)
    if combat is None:
        return f"Shore Bombardment: no land combat is declared at {combat_id}"
    side = _bombarding_side(state, power, combat)
    want = "defender" if step_id == DEFENDING else "attacker"
    if side is None or (step_id is not None and side != want):
        return f"Shore Bombardment: {power} is not the {want} in the combat at {combat_id}"
    if tuple(combat.hex) not in coastal_hexes(naval(state).at_sea[ship_id].area):
        return f"Shore Bombardment: hex {combat_id} is not a coastal hex of {label(state, ship_id)}'s sea area"
    return None


def bombard_choices(state, actor, step_id):
    options = []
    combats = [c for c in declared_this_impulse(state) if c.stage == "declared"]
    for ship in units(state).units.values():
        if ship.power != actor or not can_bombard(state, ship):
            continue
        fit = [c for c in combats if why_not_bombard(state, actor, ship.id, c.id, step_id) is None]
        if fit:
            options.append(Option(ship.id, label(state, ship.id), [Field("combat", "option", [
                Option(c.id, f"the combat at {c.id}") for c in fit])]))
    return [Field("ship", "unit", options)] if options else None


def bombard_preview(state, cmd: ShoreBombard):
    step = state.kernel.sequence.current
    problem = why_not_bombard(state, cmd.actor, cmd.ship, cmd.combat, step)
    if problem:
        raise Rejected(problem)
    return {"factors": factor(state, units(state).units[cmd.ship], "attack"), "ship_disorganized": True}


@rules.command(ShoreBombard, choices=bombard_choices, preview=bombard_preview)
def shore_bombard(ctx, cmd: ShoreBombard) -> None:
    state = ctx.state
    problem = why_not_bombard(state, cmd.actor, cmd.ship, cmd.combat, state.kernel.sequence.current)
    if problem:
        raise Rejected(problem)
    combat = next(c for c in declared_this_impulse(state) if c.id == cmd.combat)
    side = _bombarding_side(state, cmd.actor, combat)
    ship = units(state).units[cmd.ship]
    ctx.emit(GroundSupportAdded(combat=cmd.combat, side=side, factors=float(factor(state, ship, "attack"))))
    ctx.emit(UnitFlipped(unit=cmd.ship, face_up=False))


def bombard_skip(state, step_id: str) -> str | None:
    if step_id not in (ATTACKING, DEFENDING):
        return None
    k = state.kernel
    side = k.active_side if step_id == ATTACKING else next((s for s in k.sides if s != k.active_side), None)
    for power in k.sides.get(side, []):
        if bombard_choices(state, power, step_id):
            return None
    who = "attacker" if step_id == ATTACKING else "defender"
    return f"Shore Bombardment: no {who}'s organized warship at sea lies off a hex with a declared land combat"


# ---------------------------------------------------------------- Reorganization by Naval Transport
class NavalTransportReorganize(Command):
    ship: str
    unit: str


def why_not_reorganize(state, power: str, ship_id: str, unit_id: str) -> str | None:
    ship = units(state).units.get(ship_id)
    box = naval(state).at_sea.get(ship_id)
    if ship is None or ship.power != power or box is None or kind(ship) != "transport" or not ship.face_up:
        return f"Reorganization by Naval Transport: {ship_id!r} is not an organized naval transport of {power} at sea"
    u = units(state).units.get(unit_id)
    if u is None or not u.on_map or u.face_up or u.branch not in ("land", "air"):
        return f"Reorganization by Naval Transport: {unit_id!r} is not a disorganized land or air unit on the map"
    if core.side_of(state, u.power) != core.side_of(state, power):
        return f"Reorganization by Naval Transport: {label(state, unit_id)} is not of {power}'s side"
    if tuple(u.hex) not in coastal_hexes(box.area):
        return f"Reorganization by Naval Transport: {label(state, unit_id)} is not in a coastal hex of the transport's sea area"
    return None


def reorganize_choices(state, actor, step_id):
    options = []
    for ship_id, box in naval(state).at_sea.items():
        ship = units(state).units[ship_id]
        if ship.power != actor or kind(ship) != "transport" or not ship.face_up:
            continue
        fit = [u for h in sorted(coastal_hexes(box.area)) for u in units(state).in_hex(h)
               if why_not_reorganize(state, actor, ship_id, u.id) is None]
        if fit:
            options.append(Option(ship_id, label(state, ship_id), [Field("unit", "unit", [
                Option(u.id, label(state, u.id)) for u in fit])]))
    return [Field("ship", "unit", options)] if options else None


def reorganize_preview(state, cmd: NavalTransportReorganize):
    problem = why_not_reorganize(state, cmd.actor, cmd.ship, cmd.unit)
    if problem:
        raise Rejected(problem)
    return {"unit": cmd.unit, "organized": True, "transport_disorganized": True}


@rules.command(NavalTransportReorganize, choices=reorganize_choices, preview=reorganize_preview)
def naval_transport_reorganize(ctx, cmd: NavalTransportReorganize) -> None:
    problem = why_not_reorganize(ctx.state, cmd.actor, cmd.ship, cmd.unit)
    if problem:
        raise Rejected(problem)
    ctx.emit(UnitFlipped(unit=cmd.unit, face_up=True))
    ctx.emit(UnitFlipped(unit=cmd.ship, face_up=False))


def reorganize_skip(state, step_id: str) -> str | None:
    if step_id != REORGANIZATION:
        return None
    if any(reorganize_choices(state, p, step_id) for p in state.kernel.sides.get(state.kernel.active_side, [])):
        return None
    return ("Reorganization by Naval Transport: no phasing power's organized naval transport at sea lies off a "
            "disorganized unit of its side")
