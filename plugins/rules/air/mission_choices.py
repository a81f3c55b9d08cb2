"""What a power may fly in an Air Mission subphase (choices) and what a flight would do
(previews), from the same checks the handlers use (see missions.py)."""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected

from .aircraft import (
    check_activity,
    check_can_fly,
    distance,
    hex_label,
    name,
    reach,
    tactical_factor,
    units_of,
)
from .missions import (
    PURPOSE,
    cap_hexes,
    check_cap_flyer,
    check_cap_target,
    check_intercept_flyer,
    check_intercept_target,
    check_mission_flyer,
    check_mission_target,
    intercept_hexes,
    mission_hexes,
    mission_running,
    strike_targets,
    target_hexes,
)
from .mission_kinds import KINDS
from .state import MISSION_NAME, air

ROLE_LABEL = {"bomber": "as a bomber", "escort": "as an escort"}


def hex_field(hexes) -> Field:
    return Field("hex", "hex", [Option(h, hex_label(h)) for h in hexes], label="target hex")


def _flyers(state, actor: str, check) -> list:
    """``actor``'s air units that ``check(unit_id)`` lets fly, by id."""
    out = []
    for u in sorted(units_of(state).values(), key=lambda u: u.id):
        if u.power != actor or u.branch != "air":
            continue
        try:
            check(u.id)
        except Rejected:
            continue
        out.append(u)
    return out


def _unit_label(state, unit) -> str:
    return f"{name(state, unit.id)}, range {unit.factors.get('range', 0)}"


def _running(state) -> bool:
    try:
        mission_running(state, "Air missions")
    except Rejected:
        return False
    return True


# ---------------------------------------------------------------- choices
def _fighter_then_hex(state, actor, check, hexes_of, label: str):
    """A fighter that passes ``check``, then one of the hexes ``hexes_of(unit)`` (CAP, interception)."""
    if not _running(state):
        return None

    def units():
        out = []
        for u in _flyers(state, actor, lambda uid: check(state, actor, uid)):
            hexes = hexes_of(state, u)
            if hexes:
                out.append(Option(u.id, _unit_label(state, u), [hex_field(hexes)]))
        return out
    return [Field("unit", "unit", units, label=label)]


def fly_cap_choices(state, actor, step_id):
    return _fighter_then_hex(state, actor, check_cap_flyer, cap_hexes, "fighter to fly CAP")


def fly_mission_choices(state, actor, step_id):
    if not _running(state):
        return None

    kind = KINDS[air(state).mission.kind]

    def bomber_fields(unit) -> list[Field]:
        """The target hex; for a transport also its cargo (before the hex, or after it for
        the unit to organize there)."""
        if kind.cargo is None:
            hexes = mission_hexes(state, unit, "bomber")
            return [hex_field(hexes)] if hexes else []
        if kind.cargo_at_target:
            def organizable(h) -> list[Option]:
                out = []
                for c in kind.cargo(state, unit, h):
                    try:
                        check_mission_target(state, unit, h, "bomber", c.id)
                    except Rejected:
                        continue
                    out.append(Option(c.id, name(state, c.id), further(h, c.id)))
                return out

            def further(h, cargo) -> list[Field]:
                """More units to organize with the flight's further reorganization points."""
                if kind.further_cargo is None:
                    return []
                units, how_many = kind.further_cargo(state, unit, h, cargo)
                if how_many <= 0 or not units:
                    return []
                return [Field("also_organize", "units", [Option(u.id, name(state, u.id)) for u in units],
                              min=0, max=how_many, label="further units to organize")]
            hexes = []
            for h in sorted(target_hexes(state, unit.power, kind.id), key=lambda h: (distance(unit.hex, h), h)):
                cargo = organizable(h) if distance(unit.hex, h) <= reach(unit, "mission") else []
                if cargo:
                    hexes.append(Option(h, hex_label(h), [Field("cargo", "unit", cargo, label="unit to organize")]))
            return [Field("hex", "hex", hexes, label="target hex")] if hexes else []
        cargo = []
        for c in kind.cargo(state, unit, None):
            hexes = mission_hexes(state, unit, "bomber", c.id)
            if hexes:
                cargo.append(Option(c.id, name(state, c.id), [hex_field(hexes)]))
        return [Field("cargo", "unit", cargo, label="land unit carried")] if cargo else []

    def roles(unit) -> list[Option]:
        out = []
        for role in ("bomber", "escort"):
            try:
                check_mission_flyer(state, actor, unit.id, role)
            except Rejected:
                continue
            fields = bomber_fields(unit) if role == "bomber" else (
                [hex_field(h)] if (h := mission_hexes(state, unit, role)) else [])
            if fields:
                label = "as the air transport" if role == "bomber" and kind.cargo else ROLE_LABEL[role]
                out.append(Option(role, label, fields))
        return out

    def units():
        out = []
        for u in _flyers(state, actor, lambda uid: check_can_fly(state, actor, uid)):
            options = roles(u)
            if options:
                out.append(Option(u.id, _unit_label(state, u), [Field("role", "option", options, label="role")]))
        return out
    return [Field("unit", "unit", units, label="bomber or escort to fly")]


def fly_intercept_choices(state, actor, step_id):
    return _fighter_then_hex(state, actor, check_intercept_flyer, intercept_hexes, "fighter to intercept")


# ---------------------------------------------------------------- previews
def _flight(state, unit, hex_, role: str) -> dict:
    return {"unit": unit.id, "hex": list(hex_), "role": role, "distance": distance(unit.hex, hex_),
            "reach": reach(unit, PURPOSE[role]), "mission": MISSION_NAME[air(state).mission.kind]}


def fly_cap_preview(state, cmd) -> dict:
    unit = check_cap_flyer(state, cmd.actor, cmd.unit)
    check_cap_target(state, unit, cmd.hex)
    return {**_flight(state, unit, cmd.hex, "cap"), "activities": {}}


def fly_mission_preview(state, cmd) -> dict:
    unit = check_mission_flyer(state, cmd.actor, cmd.unit, cmd.role)
    check_mission_target(state, unit, cmd.hex, cmd.role, cmd.cargo, cmd.also_organize)
    out = _flight(state, unit, cmd.hex, cmd.role)
    m = air(state).mission
    kind = KINDS[m.kind]
    charged = check_activity(state, cmd.actor, "air-mission", mission=m.kind) if cmd.role == "bomber" else 0
    out["activities"] = {"air-mission": charged} if charged else {}
    if cmd.role == "bomber" and kind.activities:
        for activity, count in kind.activities(state, unit, cmd.hex, cmd.cargo):
            out["activities"][activity] = out["activities"].get(activity, 0) + count
    if cmd.cargo is not None:
        out["cargo"] = cmd.cargo
    if cmd.also_organize:
        out["also_organize"] = list(cmd.also_organize)
    if cmd.role == "bomber":
        out["tactical"] = tactical_factor(state, unit, cmd.hex)  # after the target hex's weather and terrain
        if m.kind == "ground-strike":
            out["targets"] = [u.id for u in strike_targets(state, cmd.actor, cmd.hex)]
    return out


def fly_intercept_preview(state, cmd) -> dict:
    unit = check_intercept_flyer(state, cmd.actor, cmd.unit)
    check_intercept_target(state, unit, cmd.hex)
    return {**_flight(state, unit, cmd.hex, "interceptor"), "activities": {}}
