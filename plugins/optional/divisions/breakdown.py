"""Break Down Units (seeds L761-845; the end-of-turn phase "Break Down Corps/Armies").

A major power's organized corps or army on the map, not in an enemy ZOC, becomes 1 division
of its own type and 1 INF or MOT division (an SS corps: an SS division of its type and an SS
or normal INF or MOT division), chosen from the force pool, together at most half (rounded
up) of the corps' combat factors.  An armoured corps may not use the CW 79th or US marine
divisions.  The corps goes to the Broken Down pool.  Handler, choices and preview ask
``breakdown_problem``; a variant rule (Unlimited breakdown) changes the division options.
"""

from __future__ import annotations

import math

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.events import Command, EventData
from plugins.optional.framework import is_on
from plugins.rules.units import Unit, UnitCreated, UnitFlipped, UnitMoved

from . import variants
from .common import (
    BROKEN_DOWN_POOL,
    FORCE_POOL,
    NO_CORPS_TYPES,
    RULE,
    RULE_ID,
    SECOND_TYPES,
    counters,
    in_enemy_zoc,
    is_major_power_unit,
    name,
    rules,
)

BREAK_RULE = f"{RULE} (Break Down Units)"


@rules.event
class UnitBrokenDown(EventData):
    """A corps or army was broken down into divisions (Break Down Units)."""

    unit: str
    hex: tuple[int, int]
    divisions: list[str]


class BreakDownUnit(Command):
    unit: str
    first: str | None = None  # the division of the corps' own type (may be left out if only one)
    second: str  # the INF or MOT division


def pool_divisions(state, power: str) -> list[dict]:
    """The division counters in ``power``'s force pool: counters in play in the force pool,
    and the data file's counters not yet in play."""
    units = state["units"].units
    out = [{**u.model_dump(), "choice": u.id} for u in units.values()
           if u.power == power and u.size == "division" and u.where == FORCE_POOL]
    for c in counters():
        if c["power"] == power and c["id"] not in units:
            out.append({"id": c["id"], "power": power, "branch": "land", "type": c["type"], "size": "division",
                        "name": c["name"], "factors": {"combat": c["combat"], "move": c["move"]},
                        "flags": list(c["flags"]), "choice": c["id"], "create": True})
    return sorted(out, key=lambda o: o["id"])


def breakdown_options(state, unit) -> dict:
    """The divisions ``unit`` may break down into: {"rule", "first", "second", "cap"}."""
    variant = variants.active(state, "breakdown")
    if variant is not None:
        return variant(state, unit)
    ss = "ss" in unit.flags
    pool = pool_divisions(state, unit.power)
    armoured = unit.type in ("arm", "mech", "hq-a")
    first = [o for o in pool if o["type"] == unit.type and ("ss" in o["flags"]) == ss
             and not (armoured and "no-breakdown" in o["flags"])]
    # SS corps: "1 SS or normal INF or MOT division"; other corps: normal ones only.
    second = [o for o in pool if o["type"] in SECOND_TYPES and (ss or "ss" not in o["flags"])]
    return {"rule": RULE, "first": first, "second": second, "cap": True}


def breakdown_refusal(state, unit_id: str, power: str) -> str | None:
    """Why ``power`` may not break ``unit_id`` down now (before the division choice), or None."""
    if not is_on(state, RULE_ID):
        return f"{BREAK_RULE}: the optional rule Divisions is not in play"
    unit = state["units"].units.get(unit_id)
    if unit is None:
        return f"{BREAK_RULE}: there is no unit {unit_id!r}"
    if unit.power != power:
        return f"{BREAK_RULE}: {name(unit)} is controlled by {unit.power}, not {power}"
    if not is_major_power_unit(state, unit):
        return f"{BREAK_RULE}: only units of major powers break down ({name(unit)} is {unit.nationality}'s)"
    if unit.branch != "land" or unit.size == "division":
        return f"{BREAK_RULE}: only a corps or army breaks down into divisions ({name(unit)} is not one)"
    if unit.type in NO_CORPS_TYPES:
        return f"{BREAK_RULE}: {name(unit)} has no divisions to break down into"
    if not unit.on_map:
        return f"{BREAK_RULE}: only a corps or army on the map breaks down ({name(unit)} is in the {unit.where})"
    if not unit.face_up:
        return f"{BREAK_RULE}: {name(unit)} is disorganized; only an organized corps or army breaks down"
    if in_enemy_zoc(state, unit):
        return f"{BREAK_RULE}: {name(unit)} is in an enemy ZOC and can't break down"
    return None


def _pick(options: list[dict], wanted: str | None, what: str, unit, rule: str) -> tuple[str | None, dict | None]:
    if not options:
        return f"{rule}: {name(unit)} has no divisions to break down into: no {what} division is available", None
    if wanted is None and len(options) == 1:
        return None, options[0]
    for o in options:
        if o["choice"] == wanted:
            return None, o
    listed = ", ".join(o["choice"] for o in options)
    return (f"{rule}: {wanted!r} is not one of the {what} divisions {name(unit)} may break down into "
            f"({listed})"), None


def pair_problem(unit, options: dict, first: dict, second: dict) -> str | None:
    """Two different divisions within half the corps' combat factors (rounded up)."""
    rule = f"{options['rule']} (Break Down Units)"
    if first["id"] == second["id"]:
        return f"{rule}: choose two different divisions"
    total = first["factors"].get("combat", 0) + second["factors"].get("combat", 0)
    cap = math.ceil(unit.factors.get("combat", 0) / 2)
    if options.get("cap", True) and total > cap:
        return (f"{rule}: the divisions' combat factors ({total}) can't exceed half of "
                f"{name(unit)}'s, rounded up ({cap})")
    return None


def breakdown_problem(state, power: str, unit_id: str, first: str | None, second: str
                      ) -> tuple[str | None, tuple[dict, dict] | None]:
    """(why ``power`` may not break the unit down into these divisions, or None; the two
    division options)."""
    reason = breakdown_refusal(state, unit_id, power)
    if reason:
        return reason, None
    unit = state["units"].units[unit_id]
    options = breakdown_options(state, unit)
    rule = f"{options['rule']} (Break Down Units)"
    reason, one = _pick(options["first"], first, f"{unit.type.upper()}", unit, rule)
    if reason:
        return reason, None
    reason, two = _pick(options["second"], second, "INF or MOT", unit, rule)
    if reason:
        return reason, None
    reason = pair_problem(unit, options, one, two)
    return (reason, None) if reason else (None, (one, two))


def break_down_unit(ctx, cmd: BreakDownUnit) -> None:
    state = ctx.state
    reason, pair = breakdown_problem(state, cmd.actor, cmd.unit, cmd.first, cmd.second)
    if reason:
        raise Rejected(reason)
    unit = state["units"].units[cmd.unit]
    hex_ = tuple(unit.hex)
    ctx.emit(UnitBrokenDown(unit=unit.id, hex=hex_, divisions=[o["id"] for o in pair]))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=None, to_where=BROKEN_DOWN_POOL))
    for o in pair:
        if o.get("create"):
            fields = {k: v for k, v in o.items() if k in Unit.model_fields}
            ctx.emit(UnitCreated(unit=Unit.model_validate({**fields, "hex": hex_, "where": "map", "face_up": True})))
        else:
            ctx.emit(UnitMoved(unit=o["id"], to_hex=hex_, to_where="map"))
            if not state["units"].units[o["id"]].face_up:
                ctx.emit(UnitFlipped(unit=o["id"], face_up=True))


# ---------------------------------------------------------------- choices and preview
def _label(o: dict) -> str:
    return f"{o['name']} ({o['type'].upper()} {o['factors'].get('combat', 0)}-{o['factors'].get('move', 0)})"


def pairs(state, unit) -> list[tuple[dict, dict]]:
    """Every (first, second) division pair the unit may break down into."""
    options = breakdown_options(state, unit)
    return [(a, b) for a in options["first"] for b in options["second"] if pair_problem(unit, options, a, b) is None]


def break_down_choices(state, actor: str, step_id: str):
    """Each corps or army of the actor that may break down, then its first division, then
    the INF or MOT divisions that fit with it."""
    units = state["units"].units
    corps = sorted(u.id for u in units.values() if u.power == actor and u.on_map and u.size != "division"
                   and breakdown_refusal(state, u.id, actor) is None)
    found = {uid: pairs(state, units[uid]) for uid in corps}
    found = {uid: p for uid, p in found.items() if p}
    if not found:
        return None

    def firsts(uid):
        by_first = {}
        for a, b in found[uid]:
            by_first.setdefault(a["choice"], (a, []))[1].append(b)
        return [one_of("first", "option", list(by_first), label=lambda c: _label(by_first[c][0]),
                       then=lambda c: [one_of("second", "option", [b["choice"] for b in by_first[c][1]],
                                              label=lambda s: _label(next(b for b in by_first[c][1]
                                                                          if b["choice"] == s)))])]

    return [one_of("unit", "unit", list(found), label=lambda uid: f"{name(units[uid])} ({units[uid].type.upper()})",
                   then=firsts)]


def break_down_preview(state, cmd: BreakDownUnit) -> dict:
    reason, pair = breakdown_problem(state, cmd.actor, cmd.unit, cmd.first, cmd.second)
    if reason:
        raise Rejected(reason)
    return {"divisions": [{"id": o["id"], "name": o["name"], "type": o["type"], "factors": o["factors"]}
                          for o in pair]}


rules.command(BreakDownUnit, choices=break_down_choices, preview=break_down_preview)(break_down_unit)
