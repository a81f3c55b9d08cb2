"""Which naval combat step applies now, who decides it, and when its decider may finish:
the answers the sequence of play asks of the naval plugin (skip_step, resolve_deciders,
finish_step_refusal, repeat_step), from the seeds' skip notes for each subphase."""

from __future__ import annotations

from plugins.optional.framework import is_on
from plugins.rules import core
from plugins.rules.units import units

from . import naval_air_combat, naval_air_support
from .naval_combat import PROC, ROUND, SELECT_AREA, eligible_areas, other, side_dm, subs_in, units_in_area
from .naval_combat_results import eligible_targets, target_side_for
from .naval_combat_round import type_chooser
from .surprise_points import naval_air_spender, spender_dm, surprise_side, target_spender_dm
from .naval_units import is_sub
from .state import naval

IS, NIS = "is", "nis"
# attack step -> (the attacking side, the attack)
ATTACK_STEPS = {
    f"{ROUND}.naval-air-attack-is": (IS, "air"), f"{ROUND}.naval-air-attack-nis": (NIS, "air"),
    f"{ROUND}.surface-attack-is": (IS, "surface"), f"{ROUND}.surface-attack-nis": (NIS, "surface"),
    f"{ROUND}.submarine-attack-is": (IS, "subs"), f"{ROUND}.asw-attack-is": (IS, "asw"),
    f"{ROUND}.submarine-attack-nis": (NIS, "subs"), f"{ROUND}.asw-attack-nis": (NIS, "asw"),
}
NAVAL_AIR_STEPS = (f"{ROUND}.naval-air-to-air-combat", f"{ROUND}.kamikaze", f"{ROUND}.aa-by-nis", f"{ROUND}.aa-by-is")
COMMIT_STEPS = {f"{ROUND}.commit-submarines.commit-submarines-is": IS,
                f"{ROUND}.commit-submarines.commit-submarines-nis": NIS}
ABORT_STEPS = {f"{ROUND}.voluntary-side-abort-is": IS, f"{ROUND}.voluntary-side-abort-nis": NIS}
AIR_SUPPORT_STEPS = tuple(naval_air_support.SUPPORT_STEPS)


def _side(state, who: str) -> str:
    c = naval(state).combat
    return c.initiator if who == IS else other(state, c.initiator)


def attack_target(state, step_id: str) -> str | None:
    """The side whose units take this attack step's results, if the step applies now."""
    c = naval(state).combat
    attacker_role, attack = ATTACK_STEPS[step_id]
    attacker = _side(state, attacker_role)
    target = other(state, attacker)
    if not c.due.get(target) or not eligible_targets(state, target):
        return None
    if attack == "air":
        return target if c.kind == "naval-air" else None
    if attack == "surface":
        return target if c.kind == "surface" else None
    if c.kind != "submarine":
        return None
    has_subs = any(is_sub(units(state).units[u]) for u in c.included.get(attacker, []))
    return target if (attack == "subs") == has_subs else None


def skip(state, step_id: str) -> str | None:
    if not step_id.startswith(PROC + "."):
        return None
    n = naval(state)
    c = n.combat
    if step_id == SELECT_AREA:
        return "Select Sea Area for Naval Combat: pushed by a naval interception, the area is the interception's" \
            if c is not None else None
    if step_id == ROUND:
        return None if c is not None else f"Naval Combat: no sea area was chosen ({n.phase_initiator} declined)"
    if c is None:
        return "Naval Combat: no combat is being fought"
    if c.over and not step_id.endswith("next-naval-combat-round"):
        return f"Naval Combat: the combat in this round is over ({c.over})"
    if step_id in AIR_SUPPORT_STEPS:
        return naval_air_support.skip(state, step_id)
    if step_id == f"{ROUND}.commit-submarines":
        return None if any(subs_in(state, s) for s in state.kernel.sides) else "Commit Subs: no SUB in the sea area"
    if step_id in COMMIT_STEPS:
        side = _side(state, COMMIT_STEPS[step_id])
        if side in c.subs:
            return f"Commit Subs: {side} announced its SUBs when it intercepted"
        return None if subs_in(state, side) else f"Commit Subs: {side} has no SUB in the sea area"
    if step_id == f"{ROUND}.walther-abort":
        return "Voluntary Abort by Walther Submarines: the optional rule Convoys in Flames is not in play"
    if step_id == f"{ROUND}.us-includes-units":
        usa_here = any(u.power == "usa" for s in state.kernel.sides for u in units_in_area(state, c.area, s))
        if not usa_here or any(core.enemies(state, "usa", p) for p in state.kernel.powers()):
            return "US Naval Combat: no neutral US unit is in the sea area"
        return None
    if step_id == f"{ROUND}.select-included-sea-boxes":
        found = [s for s, f in c.found.items() if f]
        return None if len(found) == 1 else "Select Included Sea Boxes: automatic, both searches succeeded"
    if step_id == f"{ROUND}.naval-combat-surprise":
        return None if surprise_side(state) else "Naval Combat Surprise: neither side has 2 surprise points to spend"
    if step_id == f"{ROUND}.select-naval-combat-type":
        if not all(c.included.get(s) for s in state.kernel.sides):
            return "Select Naval Combat Type: only one side has units included, so there is no combat this round"
        return None
    if step_id in NAVAL_AIR_STEPS or step_id.startswith(f"{ROUND}.naval-air-to-air-combat."):
        if c.kind != "naval-air":
            return f"Naval air combat only; this round's combat is {c.kind or 'not fought'}"
        if step_id == naval_air_combat.KAMIKAZE_STEP:
            if not is_on(state, "kamikaze"):
                return "Kamikaze Attacks by Japan: the optional rule Kamikaze is not in play"
            return None if c.air_stage == naval_air_combat.KAMIKAZE_STAGE else \
                "Kamikaze Attacks by Japan: no Japanese bomber came through the air-to-air combat"
        if step_id == naval_air_combat.PLANE_ROLES and naval_air_spender(state):
            return None  # the side with surprise points left may spend them (surprise_points)
        return naval_air_combat.skip(state, step_id)
    if step_id in (f"{ROUND}.asw-prefire-nis", f"{ROUND}.asw-prefire-is"):
        return "ASW Pre-fire: the optional rule Convoys in Flames is not in play"
    if step_id in ATTACK_STEPS:
        return None if attack_target(state, step_id) else "no result of this attack is due (another combat type, or no target)"
    if step_id in ABORT_STEPS:
        side = _side(state, ABORT_STEPS[step_id])
        return None if units_in_area(state, c.area, side) else f"Voluntary Side Abort: {side} has no unit left in the area"
    return None


def deciders(state, step_id: str, kind: str) -> list[str] | None:
    c = naval(state).combat
    if step_id == SELECT_AREA and kind == "rule:naval-area-dm":
        side = naval(state).phase_initiator
        return [side_dm(state, side)] if side else []
    if c is None or not step_id.startswith(PROC):
        return None
    if step_id in ATTACK_STEPS:
        target = attack_target(state, step_id)
        if not target:
            return []
        # the side with 3 surprise points may buy the pick of the next target (surprise_points)
        buyer = target_spender_dm(state, step_id)
        if ATTACK_STEPS[step_id][1] == "air":  # both sides pick targets in turn
            pickers = [side_dm(state, other(state, target), c.area), side_dm(state, target, c.area)]
        else:
            pickers = [side_dm(state, target, c.area)]
        return pickers + [p for p in buyer if p not in pickers]
    if step_id in AIR_SUPPORT_STEPS:
        return naval_air_support.deciders(state, step_id)
    if step_id in COMMIT_STEPS:
        return [side_dm(state, _side(state, COMMIT_STEPS[step_id]), c.area)]
    if step_id in ABORT_STEPS:
        return [side_dm(state, _side(state, ABORT_STEPS[step_id]), c.area)]
    if kind == "rule:search-winner-dm":
        found = [s for s, f in c.found.items() if f]
        return [side_dm(state, found[0], c.area)] if len(found) == 1 else []
    if kind == "rule:surprise-dm":
        side = surprise_side(state)
        return [side_dm(state, side, c.area)] if side else []
    if kind == "rule:japan":  # Kamikaze Attacks by Japan
        return ["japan"] if "japan" in state.kernel.powers() else []
    if kind == "rule:plane-role-owners":
        # the owners of planes that may choose their role, and the side that may spend
        # surprise points at the start of the naval air combat
        return sorted({u.power for u in naval_air_combat.flexible_planes(state)} | set(spender_dm(state)))
    if kind == "rule:naval-combat-type-chooser":
        side = type_chooser(state)
        return [side_dm(state, side, c.area)] if side else []
    return None


def finish_refusal(state, step_id: str, power: str) -> str | None:
    n = naval(state)
    c = n.combat
    if step_id == SELECT_AREA and c is None and n.phase_initiator and not n.phase_declined:
        return "Select Sea Area for Naval Combat: choose a sea area (SelectNavalCombatArea) or decline (DeclineNavalCombatArea)"
    if c is None:
        return None
    side = state.kernel.side_of(power)
    if step_id in COMMIT_STEPS and side not in c.subs:
        return "Commit Subs: commit your SUBs or not (CommitSubs)"
    if step_id == f"{ROUND}.select-included-sea-boxes" and not c.included.get(other(state, side)):
        return "Select Included Sea Boxes: choose at least one section of enemy units (IncludeSeaBoxSections)"
    if step_id == f"{ROUND}.select-naval-combat-type" and not c.kind:
        return "Select Naval Combat Type: choose the combat type (ChooseNavalCombatType)"
    if step_id in ATTACK_STEPS and target_side_for(state, power) is not None:
        return "Naval Combat Results Table: choose the unit that suffers the next result due (ChooseNavalTarget)"
    return None


def repeat(state, step_id: str) -> bool | None:
    n = naval(state)
    if step_id == ROUND:
        return n.combat is not None and not n.combat.over
    if step_id == PROC:
        # another sea area, unless the phase was declined or none is left
        return (not n.phase_declined and n.phase_initiator is not None
                and bool(eligible_areas(state, n.phase_initiator)))
    return None

