"""Reform Units (seeds L4810-4846; the end-of-turn phase "Reform Corps/Armies").

Two organized divisions of a power stacked outside enemy ZOCs, one of them MOT, become a corps
or army of the other division's type (INF if the pools hold none of that type), drawn at
random from the force and Broken Down pools among those with combat factors less than twice
the divisions' ("keep picking until you find one").  The divisions go back to the force pool;
the corps takes their place, organized.  Handler, choices and preview ask ``reform_problem``;
a variant rule (Unlimited breakdown) may let the player choose the corps.
"""

from __future__ import annotations

from itertools import combinations

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.events import Command, EventData
from plugins.optional.framework import is_on
from plugins.rules.units import UnitFlipped, UnitMoved

from . import variants
from .common import BROKEN_DOWN_POOL, FORCE_POOL, RULE, RULE_ID, in_enemy_zoc, is_major_power_unit, name, rules

REFORM_RULE = f"{RULE} (Reform Units)"


@rules.event
class DivisionsReformed(EventData):
    """Two divisions reformed into a corps or army (Reform Units)."""

    divisions: list[str]
    corps: str
    hex: tuple[int, int]
    candidates: list[str]
    chosen_by: str  # "die" or "player"


class ReformUnits(Command):
    divisions: list[str]
    corps: str | None = None  # only when the rules let the player choose (Unlimited breakdown)


def reform_refusal(state, division_ids: list[str], power: str) -> str | None:
    """Why ``power`` may not reform these divisions now (before the corps), or None."""
    if not is_on(state, RULE_ID):
        return f"{REFORM_RULE}: the optional rule Divisions is not in play"
    ids = list(dict.fromkeys(division_ids))
    if len(ids) != 2:
        return f"{REFORM_RULE}: name exactly 2 divisions to reform into a corps or army"
    units = state["units"].units
    divs = []
    for uid in ids:
        u = units.get(uid)
        if u is None:
            return f"{REFORM_RULE}: there is no unit {uid!r}"
        if u.power != power:
            return f"{REFORM_RULE}: {name(u)} is controlled by {u.power}, not {power}"
        if u.size != "division" or u.branch != "land":
            return f"{REFORM_RULE}: {name(u)} is not a division"
        if not is_major_power_unit(state, u):
            return f"{REFORM_RULE}: only divisions of major powers reform ({name(u)} is {u.nationality}'s)"
        if not u.on_map:
            return f"{REFORM_RULE}: {name(u)} is not on the map"
        if not u.face_up:
            return f"{REFORM_RULE}: {name(u)} is disorganized; only organized divisions reform"
        divs.append(u)
    a, b = divs
    if tuple(a.hex) != tuple(b.hex):
        return (f"{REFORM_RULE}: the divisions must be stacked together ({name(a)} is in {a.hex[0]},{a.hex[1]}, "
                f"{name(b)} in {b.hex[0]},{b.hex[1]})")
    if in_enemy_zoc(state, a):
        return f"{REFORM_RULE}: the divisions are in an enemy ZOC and can't reform"
    if "mot" not in (a.type, b.type):
        return f"{REFORM_RULE}: one of the 2 divisions must be a MOT division"
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


def how_to_reform(state, divisions) -> dict:
    variant = variants.active(state, "reform")
    return (variant(state, divisions) if variant is not None else None) or {}


def reform_problem(state, power: str, division_ids: list[str], corps: str | None
                   ) -> tuple[str | None, dict]:
    """(why ``power`` may not reform the divisions now, or None; what the reform would be:
    divisions, wanted type, candidates, chosen corps (None: drawn), where the divisions go)."""
    reason = reform_refusal(state, division_ids, power)
    if reason:
        return reason, {}
    units = state["units"].units
    divisions = [units[u] for u in dict.fromkeys(division_ids)]
    how = how_to_reform(state, divisions)
    rule = f"{how.get('rule', RULE)} (Reform Units)"
    if how.get("refusal"):
        return how["refusal"], {}
    wanted, candidates = reform_candidates(state, divisions)
    if not candidates:
        limit = 2 * sum(u.factors.get("combat", 0) for u in divisions)
        return (f"{rule}: no {wanted.upper()} corps or army with fewer than {limit} combat factors is in "
                f"the force or Broken Down pools"), {}
    chosen = None
    if how.get("player_chooses"):
        if corps is None:
            return f"{rule}: choose the corps or army to reform ({', '.join(u.id for u in candidates)})", {}
        chosen = next((u for u in candidates if u.id == corps), None)
        if chosen is None:
            return (f"{rule}: {corps!r} is not one the divisions may reform into "
                    f"({', '.join(u.id for u in candidates)})"), {}
    elif corps is not None:
        return (f"{rule}: the corps or army is drawn at random from the pools; choosing it needs the "
                "optional rule Unlimited breakdown"), {}
    return None, {"divisions": divisions, "wanted": wanted, "candidates": candidates, "chosen": chosen,
                  "divisions_to": how.get("divisions_to", FORCE_POOL)}


def reform_units(ctx, cmd: ReformUnits) -> None:
    reason, plan = reform_problem(ctx.state, cmd.actor, cmd.divisions, cmd.corps)
    if reason:
        raise Rejected(reason)
    divisions, candidates, chosen = plan["divisions"], plan["candidates"], plan["chosen"]
    chosen_by = "player"
    if chosen is None:
        chosen_by = "die"
        index = 0
        if len(candidates) > 1:
            (index,) = ctx.roll(f"reform: draw 1 of {len(candidates)} {plan['wanted'].upper()} corps/armies",
                                len(candidates))
            index -= 1
        chosen = candidates[index]
    hex_ = tuple(divisions[0].hex)
    ctx.emit(DivisionsReformed(divisions=[u.id for u in divisions], corps=chosen.id, hex=hex_,
                               candidates=[u.id for u in candidates], chosen_by=chosen_by))
    for u in divisions:
        ctx.emit(UnitMoved(unit=u.id, to_hex=None, to_where=plan["divisions_to"]))
    ctx.emit(UnitMoved(unit=chosen.id, to_hex=hex_, to_where="map"))
    if not chosen.face_up:
        ctx.emit(UnitFlipped(unit=chosen.id, face_up=True))


# ---------------------------------------------------------------- choices and preview
def reform_choices(state, actor: str, step_id: str):
    """Each pair of the actor's divisions that may reform (stacked, one MOT), then the corps
    when the rules let the player choose it."""
    units = state["units"].units
    divisions = sorted(u.id for u in units.values() if u.power == actor and u.size == "division" and u.on_map)
    found = {}
    for pair in combinations(divisions, 2):
        if tuple(units[pair[0]].hex) != tuple(units[pair[1]].hex):
            continue
        reason, plan = reform_problem(state, actor, list(pair), None)
        if reason is None:
            found[pair] = []
        elif how_to_reform(state, [units[u] for u in pair]).get("player_chooses") and \
                reform_refusal(state, list(pair), actor) is None:
            _, candidates = reform_candidates(state, [units[u] for u in pair])
            found[pair] = [u.id for u in candidates if reform_problem(state, actor, list(pair), u.id)[0] is None]
            if not found[pair]:
                del found[pair]
    if not found:
        return None

    def label(pair):
        return " and ".join(name(units[u]) for u in pair)

    def corps(pair):
        ids = found[tuple(pair)]
        return [one_of("corps", "unit", ids, label=lambda c: name(units[c]))] if ids else []

    return [one_of("divisions", "option", [list(p) for p in found], label=label, then=corps)]


def reform_preview(state, cmd: ReformUnits) -> dict:
    reason, plan = reform_problem(state, cmd.actor, cmd.divisions, cmd.corps)
    if reason:
        raise Rejected(reason)
    return {"corps": plan["chosen"].id if plan["chosen"] else None,
            "candidates": [u.id for u in plan["candidates"]], "drawn": plan["chosen"] is None}


rules.command(ReformUnits, choices=reform_choices, preview=reform_preview)(reform_units)
