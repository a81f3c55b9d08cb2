"""Carrier planes rebase onto and off their carriers in the Air Rebase phase
(``RebaseCarrierAirUnit {unit, to}``: ``to`` a carrier's unit id or a hex "col,row").

Seeds: Ships in Flames 8.5, Flying Missions: "You can rebase a carrier plane, up to double its
range, from its CV to a hex or vice versa (including the cost to get into or out of the sea-box
section).  You can also rebase a carrier plane from a CV to another CV in the same sea-box section
or port.  Each of these counts as a rebase for activities limits."  Ships in Flames 4 (transport):
"Aircraft units land during the aircraft rebase phase".  Ships in Flames 2, Stacking: "A CV can
only carry planes of its own major power"; what fits by class is embark.carrier_air_problem
("Carrier Classes").  Ships in Flames 3.6.7, 'D': "A carrier plane can land on a damaged CV but
can't fly off it."  Seed 000 "Air Rebase": rebasing planes "are not disorganized", and the
phase's activity limits (the turn plugin's ``air-rebase``).

Authored: the cost to get into or out of a sea-box section is the range the "Sea Box Section"
rule asks an air unit to have left to reach that section (naval_air.THRESHOLDS: 0, 1, 3, 6, 10
for sections 0-4), added to the hexes between the hex and the sea area's nearest all-sea hex
(naval_air.hexes_to_sea); a carrier in port is reached over the hexes to its port.  The
choices offer the carriers and the friendly cities in reach; the rule (and so the command)
also takes any other friendly land hex in reach.  "Turn the aircraft face-down if it is one of
the excess rebases in a combined action" is not modelled: the activity limits refuse any
rebase beyond them.
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command, EventData
from plugins.rules import core
from plugins.rules.air.aircraft import friendly_base, reach
from plugins.rules.turn.activities import activity_problem, use_activity
from plugins.rules.units import UnitMoved, units

from .embark import carrier_air_problem
from .events import UnitsLoaded, UnitsUnloaded
from .naval_air import THRESHOLDS, hexes_to_sea
from .naval_units import at_sea, carrier_of, damaged, is_carrier_air, kind, label, where_label
from .state import IMPULSE, rules

AIR_REBASE = f"{IMPULSE}.air-rebase.air-rebase"
RULE = "Air Rebase (carrier planes)"


class RebaseCarrierAirUnit(Command):
    unit: str
    to: str  # a carrier's unit id, or a hex "col,row"


@rules.event
class CarrierAirUnitRebased(EventData):
    """A carrier plane rebased: ``origin`` and ``to`` are each a carrier's id or a hex "col,row"."""

    unit: str
    power: str
    origin: str
    to: str


@rules.describe("CarrierAirUnitRebased")
def _describe(event, state):
    d = event.data

    def place(text: str) -> str:
        return label(state, text) if text in units(state).units else f"hex {text}"
    return f"{label(state, d['unit'])} rebases from {place(d['origin'])} to {place(d['to'])}"


def section_cost(section: int) -> int:
    """The range an air unit needs left to reach ``section`` of a sea box ("Sea Box Section")."""
    return min(need for need, highest in THRESHOLDS if highest >= section)


def carrier_distance(state, carrier, hex_) -> int:
    """Hexes of rebase flight between ``hex_`` and the carrier ``carrier`` (in port or at sea)."""
    box = at_sea(state, carrier.id)
    if box is None:
        return core.world_map().grid.distance(tuple(carrier.hex), tuple(hex_))
    return hexes_to_sea(tuple(hex_), box.area) + section_cost(box.section)


def _place(state, to: str):
    """``to`` read as ("carrier", unit) or ("hex", hex), or None."""
    target = units(state).units.get(to)
    if target is not None:
        return ("carrier", target)
    try:
        hex_ = tuple(core.key_hex(to))
    except (ValueError, TypeError):
        return None
    return ("hex", hex_) if core.world_map().grid.contains(hex_) else None  # off the map: bad input


def why_not_plane(state, actor: str, unit_id: str) -> str | None:
    """May ``actor`` rebase its carrier plane ``unit_id`` now (before where to)?"""
    if state.kernel.sequence.current != AIR_REBASE:
        return f"{RULE}: carrier planes rebase in the Air Rebase phase"
    problem = activity_problem(state, actor, "air-rebase")
    if problem:
        return problem
    u = units(state).units.get(unit_id)
    if u is None or u.power != actor or not is_carrier_air(u):
        return f"{RULE}: {unit_id!r} is not a carrier air unit of {actor}"
    carrier = carrier_of(state, unit_id)
    if carrier is not None:
        if units(state).units[carrier].where != "map":
            return f"{RULE}: {label(state, carrier)} is not on the map"
        if damaged(state, carrier):
            return f"{RULE}: {label(state, carrier)} is damaged: a carrier plane \"can land on a damaged CV but can't fly off it\""
        return None
    if u.where != "map" or u.hex is None:
        return f"{RULE}: {label(state, unit_id)} is neither aboard a carrier nor based in a hex"
    return None


def why_not_rebase(state, actor: str, unit_id: str, to: str) -> str | None:
    """The rule of ``RebaseCarrierAirUnit``: its handler, choices and preview all ask it."""
    problem = why_not_plane(state, actor, unit_id)
    if problem:
        return problem
    u = units(state).units[unit_id]
    limit = reach(u, "rebase")
    origin = carrier_of(state, unit_id)
    place = _place(state, to)
    if place is None:
        return f"{RULE}: {to!r} is neither a carrier nor a hex \"col,row\" of the map"
    what, target = place
    if what == "carrier":
        if target.branch != "naval" or kind(target) != "carrier" or target.where != "map":
            return f"{RULE}: {label(state, target.id)} is not a carrier on the map"
        if target.id == origin:
            return f"{RULE}: {label(state, unit_id)} is already aboard {label(state, target.id)}"
        problem = carrier_air_problem(state, target.id, [unit_id])
        if problem:
            return f"{RULE}: {problem}"
        if origin is not None:
            ship = units(state).units[origin]
            here, there = at_sea(state, origin), at_sea(state, target.id)
            same = (here == there) if here is not None or there is not None else ship.hex == target.hex
            if not same:
                return (f"{RULE}: from a CV a carrier plane rebases only to another CV \"in the same sea-box section or "
                        f"port\" ({label(state, origin)} is in {where_label(state, ship)}, "
                        f"{label(state, target.id)} in {where_label(state, target)})")
            return None
        dist = carrier_distance(state, target, u.hex)
        if dist > limit:
            return (f"{RULE}: {label(state, unit_id)} rebases up to {limit} hexes (double its range); "
                    f"{label(state, target.id)} in {where_label(state, target)} is {dist} away")
        return None
    hex_ = target
    if origin is None:
        return f"{RULE}: {label(state, unit_id)} is based in a hex: it rebases between hexes with RebaseAir"
    if not friendly_base(state, actor, hex_):
        return f"{RULE}: hex {hex_} is not a land hex controlled by your side"
    ship = units(state).units[origin]
    dist = carrier_distance(state, ship, hex_)
    if dist > limit:
        return (f"{RULE}: {label(state, unit_id)} rebases up to {limit} hexes (double its range); hex {hex_} is "
                f"{dist} from {label(state, origin)} in {where_label(state, ship)}")
    return None


def _hex_key(hex_) -> str:
    return f"{hex_[0]},{hex_[1]}"


def _destinations(state, actor: str, u) -> list[Option]:
    out = []
    for ship in sorted(units(state).units.values(), key=lambda s: s.id):
        if ship.power == actor and ship.branch == "naval" and kind(ship) == "carrier" \
                and why_not_rebase(state, actor, u.id, ship.id) is None:
            out.append(Option(ship.id, f"aboard {label(state, ship.id)}, {where_label(state, ship)}"))
    if carrier_of(state, u.id) is not None:
        for city in sorted(core.world_map().cities.values(), key=lambda c: c.name):
            key = _hex_key(city.hex)
            if why_not_rebase(state, actor, u.id, key) is None:
                out.append(Option(key, f"{city.name} ({key})"))
    return out


def rebase_choices(state, actor, step_id):
    if step_id != AIR_REBASE or activity_problem(state, actor, "air-rebase"):
        return None
    planes = [u for u in sorted(units(state).units.values(), key=lambda u: u.id)
              if u.power == actor and is_carrier_air(u) and why_not_plane(state, actor, u.id) is None]
    if not planes:
        return None

    def options() -> list[Option]:
        out = []
        for u in planes:
            dests = _destinations(state, actor, u)
            if dests:
                origin = carrier_of(state, u.id)
                now = f"aboard {label(state, origin)}" if origin else f"at {where_label(state, u)}"
                out.append(Option(u.id, f"{label(state, u.id)} {now}, range {u.factors.get('range', 0)}",
                                  [Field("to", "option", dests, label="carrier or base")]))
        return out
    return [Field("unit", "unit", options, label="carrier plane to rebase")]


def _accepted(state, cmd: RebaseCarrierAirUnit) -> tuple:
    """The command checked by its rule (Rejected with the rule's reason): the plane, the carrier
    it leaves (None: a hex), and where it goes as ``_place`` reads it."""
    problem = why_not_rebase(state, cmd.actor, cmd.unit, cmd.to)
    if problem:
        raise Rejected(problem)
    return (units(state).units[cmd.unit], carrier_of(state, cmd.unit), *_place(state, cmd.to))


def rebase_preview(state, cmd: RebaseCarrierAirUnit) -> dict:
    u, origin, what, target = _accepted(state, cmd)
    # "ashore": the plane starts in a hex (boarding brings it back to sea)
    out = {"unit": cmd.unit, "from": origin or _hex_key(u.hex), "to": cmd.to, "reach": reach(u, "rebase"),
           "activities": {"air-rebase": 1}, "disorganized": False, "ashore": origin is None}
    if what == "carrier":
        out["boards"] = target.id
        if origin is None:
            out["distance"] = carrier_distance(state, target, u.hex)
    else:
        out["distance"] = carrier_distance(state, units(state).units[origin], target)
    return out


@rules.command(RebaseCarrierAirUnit, choices=rebase_choices, preview=rebase_preview)
def rebase_carrier_air_unit(ctx, cmd: RebaseCarrierAirUnit) -> None:
    u, origin, what, target = _accepted(ctx.state, cmd)
    use_activity(ctx, cmd.actor, "air-rebase")
    ctx.emit(CarrierAirUnitRebased(unit=cmd.unit, power=cmd.actor, origin=origin or _hex_key(u.hex), to=cmd.to))
    if origin is not None:
        ctx.emit(UnitsUnloaded(ship=origin, units=[cmd.unit]))
    if what == "carrier":
        if origin is None:
            ctx.emit(UnitMoved(unit=cmd.unit, to_hex=None, to_where="aboard"))
        ctx.emit(UnitsLoaded(ship=target.id, units=[cmd.unit]))
    else:
        ctx.emit(UnitMoved(unit=cmd.unit, to_hex=tuple(target), to_where="map"))
