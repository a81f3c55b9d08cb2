"""Optional rule Divisions: breaking corps and armies down into divisions, and reforming them.

Seeds, "Break Down Units" (L761-845) and "Reform Units" (L4810-4846), played in the end-of-turn
phases "Break Down Corps/Armies" (``BreakDownUnit``, each power) and "Reform Corps/Armies"
(``ReformUnits``, each power); both phases are skipped while the rule is OFF.

- Breakdown: a major power's organized corps or army on the map, not in an enemy ZOC, becomes
  1 division of its own type and 1 INF or MOT division (an SS corps: an SS division of its
  type and an SS or normal INF or MOT division), chosen from the force pool, together at most
  half (rounded up) of the corps' combat factors.  An armoured corps may not use the CW 79th
  or US marine divisions.  The corps goes to the Broken Down pool ("Unit Pools").
- Reform: 2 organized divisions of a power stacked outside enemy ZOCs, 1 of them MOT, become a
  corps or army of the other division's type (INF if the pools hold none of that type), drawn
  at random from the force and Broken Down pools among those with combat factors less than
  twice the divisions' ("keep picking until you find one").  The divisions go back to the
  force pool; the corps takes their place, organized.

The division counters are ``data/division_counters.json`` (authored: see its header); one not
yet in play is created when it is chosen.  Unlimited breakdown changes the choices and the
reform through this plugin's hooks (``hooks.py``).
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules.units import Unit, UnitCreated, UnitFlipped, UnitMoved

from .hooks import HOOKSPECS  # noqa: F401  (published hooks)

RULE_ID = "divisions"
RULE = "Divisions"
DATA = Path(__file__).resolve().parent / "data" / "division_counters.json"
BREAK_DOWN_STEP = "wif.turn.end-of-turn.break-down-corps-armies"
REFORM_STEP = "wif.turn.end-of-turn.reform-corps-armies"
BROKEN_DOWN_POOL = "broken-down-pool"  # "Unit Pools": broken-down corps wait here
FORCE_POOL = "force-pool"
SECOND_TYPES = ("inf", "mot")  # "1 INF or MOT division (your choice)"
NO_CORPS_TYPES = ("hq", "hq-i", "hq-a", "hqi", "hqa", "sup", "supply", "partisan", "notional")


@cache
def counters() -> list[dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))["counters"]


# ---------------------------------------------------------------- state
class DivisionsState(BaseModel):
    # division id -> the corps it was broken down from (Unlimited breakdown: only these reform)
    from_breakdown: dict[str, str] = Field(default_factory=dict)
    breakdowns: int = 0  # how many breakdowns so far (numbers generated counters)


def section(state) -> DivisionsState:
    return state["divisions"]


# ---------------------------------------------------------------- events and commands
class UnitBrokenDown(EventData):
    """A corps or army was broken down into divisions (Break Down Units)."""

    unit: str
    hex: tuple[int, int]
    divisions: list[str]


class DivisionsReformed(EventData):
    """Two divisions reformed into a corps or army (Reform Units)."""

    divisions: list[str]
    corps: str
    hex: tuple[int, int]
    candidates: list[str]
    chosen_by: str  # "die" or "player"


class BreakDownUnit(Command):
    unit: str
    first: str | None = None  # the division of the corps' own type (may be left out if only one)
    second: str  # the INF or MOT division


class ReformUnits(Command):
    divisions: list[str]
    corps: str | None = None  # only when the rules let the player choose (Unlimited breakdown)


def _broken_down(state, event):
    d = event.data
    s = section(state)
    s.breakdowns += 1
    for div in d["divisions"]:
        s.from_breakdown[div] = d["unit"]


def _reformed(state, event):
    for div in event.data["divisions"]:
        section(state).from_breakdown.pop(div, None)


# ---------------------------------------------------------------- questions
def _is_major_power_unit(state, unit) -> bool:
    """'Only units from major powers can breakdown and reform' (a minor's counter has its
    nationality)."""
    return unit.power in state.kernel.powers() and unit.nationality in ("", unit.power)


def _in_enemy_zoc(state, unit) -> bool:
    from plugins.rules.land import movement

    return tuple(unit.hex) in movement.enemy_zoc(state, unit.power)


def _name(unit) -> str:
    return unit.name or unit.id


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


def breakdown_options(state, unit, hook=None) -> dict:
    """The divisions ``unit`` may break down into: {"rule", "first", "second", "cap"}."""
    other = hook.division_breakdown(state=state, unit=unit) if hook is not None else None
    if other is not None:
        return other
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
    rule = f"{RULE} (Break Down Units)"
    unit = state["units"].units.get(unit_id)
    if unit is None:
        return f"{rule}: there is no unit {unit_id!r}"
    if unit.power != power:
        return f"{rule}: {_name(unit)} is controlled by {unit.power}, not {power}"
    if not _is_major_power_unit(state, unit):
        return f"{rule}: only units of major powers break down ({_name(unit)} is {unit.nationality}'s)"
    if unit.branch != "land" or unit.size == "division":
        return f"{rule}: only a corps or army breaks down into divisions ({_name(unit)} is not one)"
    if unit.type in NO_CORPS_TYPES:
        return f"{rule}: {_name(unit)} has no divisions to break down into"
    if not unit.on_map:
        return f"{rule}: only a corps or army on the map breaks down ({_name(unit)} is in the {unit.where})"
    if not unit.face_up:
        return f"{rule}: {_name(unit)} is disorganized; only an organized corps or army breaks down"
    if _in_enemy_zoc(state, unit):
        return f"{rule}: {_name(unit)} is in an enemy ZOC and can't break down"
    return None


def _pick(options: list[dict], wanted: str | None, what: str, unit, rule: str) -> dict:
    if not options:
        raise Rejected(f"{rule}: {_name(unit)} has no divisions to break down into: no {what} division "
                       f"is available")
    if wanted is None and len(options) == 1:
        return options[0]
    for o in options:
        if o["choice"] == wanted:
            return o
    listed = ", ".join(o["choice"] for o in options)
    raise Rejected(f"{rule}: {wanted!r} is not one of the {what} divisions {_name(unit)} may break down into "
                   f"({listed})")


def break_down_unit(ctx, cmd: BreakDownUnit) -> None:
    state = ctx.state
    rule = f"{RULE} (Break Down Units)"
    if not is_on(state, RULE_ID):
        raise Rejected(f"{rule}: the optional rule Divisions is not in play")
    reason = breakdown_refusal(state, cmd.unit, cmd.actor)
    if reason:
        raise Rejected(reason)
    unit = state["units"].units[cmd.unit]
    options = breakdown_options(state, unit, ctx.host.pm.hook)
    rule = f"{options['rule']} (Break Down Units)"
    first = _pick(options["first"], cmd.first, f"{unit.type.upper()}", unit, rule)
    second = _pick(options["second"], cmd.second, "INF or MOT", unit, rule)
    if first["id"] == second["id"]:
        raise Rejected(f"{rule}: choose two different divisions")
    total = first["factors"].get("combat", 0) + second["factors"].get("combat", 0)
    cap = math.ceil(unit.factors.get("combat", 0) / 2)
    if options.get("cap", True) and total > cap:
        raise Rejected(f"{rule}: the divisions' combat factors ({total}) can't exceed half of "
                       f"{_name(unit)}'s, rounded up ({cap})")
    hex_ = tuple(unit.hex)
    ctx.emit(UnitBrokenDown(unit=unit.id, hex=hex_, divisions=[first["id"], second["id"]]))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=None, to_where=BROKEN_DOWN_POOL))
    for o in (first, second):
        if o.get("create"):
            fields = {k: v for k, v in o.items() if k in Unit.model_fields}
            ctx.emit(UnitCreated(unit=Unit.model_validate({**fields, "hex": hex_, "where": "map", "face_up": True})))
        else:
            ctx.emit(UnitMoved(unit=o["id"], to_hex=hex_, to_where="map"))
            if not state["units"].units[o["id"]].face_up:
                ctx.emit(UnitFlipped(unit=o["id"], face_up=True))


def reform_refusal(state, division_ids: list[str], power: str) -> str | None:
    """Why ``power`` may not reform these divisions now, or None."""
    rule = f"{RULE} (Reform Units)"
    ids = list(dict.fromkeys(division_ids))
    if len(ids) != 2:
        return f"{rule}: name exactly 2 divisions to reform into a corps or army"
    units = state["units"].units
    divs = []
    for uid in ids:
        u = units.get(uid)
        if u is None:
            return f"{rule}: there is no unit {uid!r}"
        if u.power != power:
            return f"{rule}: {_name(u)} is controlled by {u.power}, not {power}"
        if u.size != "division" or u.branch != "land":
            return f"{rule}: {_name(u)} is not a division"
        if not _is_major_power_unit(state, u):
            return f"{rule}: only divisions of major powers reform ({_name(u)} is {u.nationality}'s)"
        if not u.on_map:
            return f"{rule}: {_name(u)} is not on the map"
        if not u.face_up:
            return f"{rule}: {_name(u)} is disorganized; only organized divisions reform"
        divs.append(u)
    a, b = divs
    if tuple(a.hex) != tuple(b.hex):
        return (f"{rule}: the divisions must be stacked together ({_name(a)} is in {a.hex[0]},{a.hex[1]}, "
                f"{_name(b)} in {b.hex[0]},{b.hex[1]})")
    if _in_enemy_zoc(state, a):
        return f"{rule}: the divisions are in an enemy ZOC and can't reform"
    if "mot" not in (a.type, b.type):
        return f"{rule}: one of the 2 divisions must be a MOT division"
    return None


def reform_candidates(state, divisions) -> tuple[str, list]:
    """The corps type and the corps or armies (sorted by id) the divisions may reform into."""
    a, b = divisions
    wanted = b.type if a.type == "mot" else a.type
    limit = 2 * sum(u.factors.get("combat", 0) for u in divisions)
    pools = [u for u in state["units"].units.values()
             if u.power == a.power and u.branch == "land" and u.size != "division"
             and u.where in (FORCE_POOL, BROKEN_DOWN_POOL) and u.factors.get("combat", 0) < limit]
    of_type = [u for u in pools if u.type == wanted]
    if not of_type:  # "If there are no corps or armies of that type available ... an INF corps or army"
        wanted, of_type = "inf", [u for u in pools if u.type == "inf"]
    return wanted, sorted(of_type, key=lambda u: u.id)


def reform_units(ctx, cmd: ReformUnits) -> None:
    state = ctx.state
    rule = f"{RULE} (Reform Units)"
    if not is_on(state, RULE_ID):
        raise Rejected(f"{rule}: the optional rule Divisions is not in play")
    reason = reform_refusal(state, cmd.divisions, cmd.actor)
    if reason:
        raise Rejected(reason)
    units = state["units"].units
    divisions = [units[u] for u in dict.fromkeys(cmd.divisions)]
    how = ctx.host.pm.hook.division_reform(state=state, divisions=divisions) or {}
    rule = f"{how.get('rule', RULE)} (Reform Units)"
    if how.get("refusal"):
        raise Rejected(how["refusal"])
    wanted, candidates = reform_candidates(state, divisions)
    if not candidates:
        limit = 2 * sum(u.factors.get("combat", 0) for u in divisions)
        raise Rejected(f"{rule}: no {wanted.upper()} corps or army with fewer than {limit} combat factors is in "
                       f"the force or Broken Down pools")
    if how.get("player_chooses"):
        if cmd.corps is None:
            raise Rejected(f"{rule}: choose the corps or army to reform ({', '.join(u.id for u in candidates)})")
        chosen = next((u for u in candidates if u.id == cmd.corps), None)
        if chosen is None:
            raise Rejected(f"{rule}: {cmd.corps!r} is not one the divisions may reform into "
                           f"({', '.join(u.id for u in candidates)})")
        chosen_by = "player"
    else:
        if cmd.corps is not None:
            raise Rejected(f"{rule}: the corps or army is drawn at random from the pools; choosing it needs the "
                           "optional rule Unlimited breakdown")
        chosen_by = "die"
        index = 0
        if len(candidates) > 1:
            (index,) = ctx.roll(f"reform: draw 1 of {len(candidates)} {wanted.upper()} corps/armies", len(candidates))
            index -= 1
        chosen = candidates[index]
    hex_ = tuple(divisions[0].hex)
    ctx.emit(DivisionsReformed(divisions=[u.id for u in divisions], corps=chosen.id, hex=hex_,
                               candidates=[u.id for u in candidates], chosen_by=chosen_by))
    to = how.get("divisions_to", FORCE_POOL)
    for u in divisions:
        ctx.emit(UnitMoved(unit=u.id, to_hex=None, to_where=to))
    ctx.emit(UnitMoved(unit=chosen.id, to_hex=hex_, to_where="map"))
    if not chosen.face_up:
        ctx.emit(UnitFlipped(unit=chosen.id, face_up=True))


# ---------------------------------------------------------------- hooks
@hookimpl
def register_state(register):
    register("divisions", DivisionsState)


@hookimpl
def register_events(register):
    register(UnitBrokenDown)
    register(DivisionsReformed)


@hookimpl
def register_reducers(register):
    register("UnitBrokenDown", _broken_down)
    register("DivisionsReformed", _reformed)


@hookimpl
def register_commands(register):
    register(BreakDownUnit, break_down_unit)
    register(ReformUnits, reform_units)


@hookimpl
def skip_step(state, step_id, spec):
    if step_id not in (BREAK_DOWN_STEP, REFORM_STEP):
        return None
    if not is_on(state, RULE_ID):
        # "This phase only occurs if the optional rule Divisions is in use"
        return "the optional rule Divisions is not in play"
    return None


@hookimpl
def describe_event(event, state):
    d = event.data
    units = state["units"].units
    label = lambda uid: _name(units[uid]) if uid in units else uid  # noqa: E731
    if event.type == "UnitBrokenDown":
        return f"{event.actor}: {label(d['unit'])} breaks down into divisions ({', '.join(d['divisions'])})"
    if event.type == "DivisionsReformed":
        divs = " and ".join(label(u) for u in d["divisions"])
        how = "chosen" if d["chosen_by"] == "player" else f"drawn from {len(d['candidates'])}"
        return f"{event.actor}: {divs} reform into {label(d['corps'])} ({how})"
    return None


@hookimpl
def event_hexes(event, state):
    if event.type in ("UnitBrokenDown", "DivisionsReformed"):
        return [tuple(event.data["hex"])]
    return None
