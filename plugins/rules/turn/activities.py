"""Actions and activity limits: what a major power may do in this impulse.

The one home of action gating and activity counting: land, air and combat import these
(``from plugins.rules.turn.activities import ...``; they list ``turn`` under ``requires``).
Handlers, choices functions and previews ask the same functions:

- ``check_action(state, power, phase_or_kind)``: may ``power`` act in this phase (a step id,
  full or its last part, e.g. ``"land-movement"``) or do this kind of activity
  (``"land-attack"``) under the action it chose?  Raises ``Rejected`` naming the rule.
  ``action_problem(...)`` is the same answer as a reason or None.
- ``activity_problem(state, power, kind, count=1, mission=None)``: why ``use_activity`` would
  refuse (the action does not allow it, or the limit would be exceeded), or None.
- ``use_activity(ctx, power, kind, count=1, mission=None)``: count ``count`` activities of
  ``kind`` against the power's limits; raises ``Rejected`` when they would be exceeded,
  else emits core ``ActivityUsed``.  Returns the count charged (0 for an exempt mission).
- ``charged(kind, mission=None)``: does this activity count against the limits at all?
- ``remaining(state, power) -> dict``: kind -> activities left (None: unlimited).
- ``action_activities(power, action)``: kind -> limit a given action would allow (the
  preview of ``ChooseAction``), ``action_phases(action)``: the phases it allows.
- ``limit(state, power, kind)``: the limit for the power's chosen action (None: unlimited).
- ``rail_moves_for(hexes, factory=False)``: how many rail moves a rail move of that length costs.
- ``allows_phase(state, power, phase)``: the gating answer as a bool (no exception).

Kinds: ``naval-move``, ``air-mission``, ``land-move``, ``land-attack``, ``rail-move``,
``air-rebase`` (aliases: ``attack`` -> ``land-attack``, ``rail`` -> ``rail-move``,
``rebase`` -> ``air-rebase``, ``move`` -> ``land-move``).
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

from kernel.errors import Rejected
from plugins.rules import core

ACTION_RULE = "Action Choice (see RAC 10)"
LIMIT_RULE = "Activity Limits (see RAC 10.2)"

KINDS = ("naval-move", "air-mission", "land-move", "land-attack", "rail-move", "air-rebase")
ALIASES = {
    "attack": "land-attack", "land-combat": "land-attack", "rail": "rail-move",
    "rebase": "air-rebase", "move": "land-move", "naval": "naval-move", "mission": "air-mission",
}
KIND_NAMES = {
    "naval-move": "naval moves", "air-mission": "air missions", "land-move": "land moves",
    "land-attack": "land attacks", "rail-move": "rail moves", "air-rebase": "air rebases",
}

# Activity Limits (see RAC 10.2): "the following do not count against your air mission
# limits: combat air patrol, escort and interception missions, naval air interception,
# and ground support."
EXEMPT_MISSIONS = frozenset({
    "combat-air-patrol", "cap", "escort", "interception", "intercept",
    "naval-air-interception", "ground-support",
})

ALL = frozenset({"naval", "air", "land", "combined"})  # every action but Pass

# Which actions let a phasing major power act in a phase: rules-c section 1.0 table,
# collected from each phase's seed text (line refs are seed 000).  Key: the phase step's id.
PHASE_GATES: dict[str, tuple[frozenset, str]] = {
    # Port Attack: "unless they chose a Pass action" (L10282-10283)
    "port-attack": (ALL, "Port Attack"),
    # Naval Air: "that did not choose a Pass action" (L10312-10313)
    "naval-air": (ALL, "Naval Air"),
    # Naval Movement: "did not choose a Pass, Air, or Land action" (L10336-10337)
    "naval-movement": (frozenset({"naval", "combined"}), "Naval Movement"),
    # Naval Combat by Phasing Side: "did not take a Pass or Land action" (L10375-10376)
    "phasing-side-naval-combat": (frozenset({"naval", "air", "combined"}), "Naval Combat by Phasing Side"),
    # Strategic Bombardment / Carpet Bombing / Ground Strike: not on a Pass action
    # (L10428-10429, L10464-10466, L10496-10497)
    "strategic-bombardment": (ALL, "Strategic Bombardment"),
    "carpet-bombing": (ALL, "Carpet Bombing"),
    "ground-strike": (ALL, "Ground Strike"),
    # Rail Movement: "did not choose a Pass or Naval action" (L10523-10524)
    "rail-movement": (frozenset({"air", "land", "combined"}), "Rail Movement"),
    # Land Movement: Land (unlimited) or Combined (limited) (L10540-10544)
    "land-movement": (frozenset({"land", "combined"}), "Land Movement"),
    # Air Transport: not on a Pass action (L10564-10565)
    "air-transport": (ALL, "Air Transport"),
    # Unload Land Units: "did not choose a Pass or Air action" (L10596-10597)
    "unload-land-units": (frozenset({"naval", "land", "combined"}), "Unload Land Units"),
    # Invasion: Land or Combined (L10612-10613)
    "invasion": (frozenset({"land", "combined"}), "Invasion"),
    # Paradrop: not on a Pass action (L10634)
    "paradrop": (ALL, "Paradrop"),
    # Land Combat Declaration: Land or Combined (L10672-10675); the whole Land Combat
    # group follows from it (no attack can be declared without it)
    "land-combat-declaration": (frozenset({"land", "combined"}), "Land Combat Declaration"),
    "combat": (frozenset({"land", "combined"}), "Land Combat"),
    # Ground Support: the phasing side's powers unless they chose Pass; every non-phasing
    # power may fly it (L10792-10794)
    "ground-support": (ALL, "Ground Support"),
    "ground-support-mission": (ALL, "Ground Support"),
    # Air Rebase: Pass 0 units (L10839-10843)
    "air-rebase": (ALL, "Air Rebase"),
}
# Phases that the non-phasing side's powers take part in whatever happened above.
NON_PHASING_PHASES = frozenset({
    "non-phasing-side-naval-combat",  # "all NPS MPs may act" (L10409-10411)
    "ground-support",  # "every NPS MP may fly" (L10792-10794)
    "ground-support-mission",
})
# Phases whose activity kind must also have some left ("require the major power who flies
# these missions to have air missions available": Independent Air Missions Stage
# L13439-13440, Air Rebase Stage L13461-13462).
PHASE_NEEDS = {
    "strategic-bombardment": "air-mission",
    "carpet-bombing": "air-mission",
    "ground-strike": "air-mission",
    "independent-air": "air-mission",
    "air-rebase": "air-rebase",
}
# The kind of activity each gated phase spends (used for "nothing left to do" checks).
PHASE_KIND = {
    "naval-movement": "naval-move", "rail-movement": "rail-move", "land-movement": "land-move",
    "land-combat-declaration": "land-attack", "combat": "land-attack",
}

ACTION_NAMES = {"pass": "Pass", "naval": "Naval", "air": "Air", "land": "Land", "combined": "Combined"}


@cache
def limits_table() -> dict:
    """The authored per-major-power limits (data/activity_limits.json; see its header)."""
    path = Path(__file__).with_name("data") / "activity_limits.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for power, actions in data["limits"].items():
        for action, row in actions.items():
            missing = [k for k in KINDS if k not in row]
            if missing or action not in ACTION_NAMES:
                raise ValueError(f"{path}: limits[{power}][{action}] is malformed (missing {missing})")
            for kind, value in row.items():
                if value is not None and (not isinstance(value, int) or value < 0):
                    raise ValueError(f"{path}: limits[{power}][{action}][{kind}] = {value!r} is not a count or null")
    return data["limits"]


def canonical_kind(kind: str) -> str:
    kind = ALIASES.get(kind, kind)
    if kind not in KINDS:
        raise ValueError(f"unknown activity kind {kind!r}; kinds: {', '.join(KINDS)}")
    return kind


def _phase_key(phase: str) -> str:
    return phase.rsplit(".", 1)[-1]


def _action(state, power):
    return core.action_of(state, power)


def action_limit(power: str, action: str, kind: str) -> int | None:
    """Activity Limits (see RAC 10.2): the limit on ``kind`` that ``action`` gives ``power``
    (None: unlimited)."""
    table = limits_table()
    return table.get(power, table["default"])[action][canonical_kind(kind)]


def limit(state, power: str, kind: str, action: str | None = None) -> int | None:
    """The limit on ``kind`` for ``power`` under ``action`` (default: its chosen action).

    None means unlimited; no action chosen means 0."""
    action = action or _action(state, power)
    if action is None:
        canonical_kind(kind)
        return 0
    entry = core.world(state).impulses.get(power)
    if action == "combined" and entry is not None and entry.widened:
        # Pick HQ (offensive chit), Combined action: the most a naval, an air or a land action allows
        caps = [action_limit(power, a, kind) for a in ("combined", "naval", "air", "land")]
        return None if None in caps else max(caps)
    return action_limit(power, action, kind)


def remaining(state, power: str) -> dict:
    """Activities left this impulse: kind -> count (None: unlimited)."""
    out = {}
    for kind in KINDS:
        cap = limit(state, power, kind)
        out[kind] = None if cap is None else max(0, cap - core.used(state, power, kind))
    return out


def action_activities(power: str, action: str) -> dict:
    """What ``action`` would allow ``power``: kind -> limit (None: unlimited)."""
    return {kind: action_limit(power, action, kind) for kind in KINDS}


def action_phases(action: str) -> list[str]:
    """The titles of the gated phases ``action`` lets a phasing power act in (rules-c 1.0)."""
    titles = []
    for allowed, title in PHASE_GATES.values():
        if action in allowed and title not in titles:
            titles.append(title)
    return titles


def rail_moves_for(hexes: int, factory: bool = False) -> int:
    """Activity Limits: "Every aircraft or land unit that moves 60 hexes, or portion thereof,
    by rail counts as a rail move; moving a factory costs 2 rail moves for the first 60 hexes"."""
    if hexes <= 0:
        return 0
    moves = math.ceil(hexes / 60)
    return moves + 1 if factory else moves


def _phasing(state, power: str) -> bool:
    active = state.kernel.active_side
    return active is None or state.kernel.side_of(power) == active


def allows_phase(state, power: str, phase: str) -> bool:
    return action_problem(state, power, phase) is None


def check_action(state, power: str, phase_or_kind: str) -> None:
    """Raise Rejected (naming the rule) unless ``power``'s action lets it act here."""
    problem = action_problem(state, power, phase_or_kind)
    if problem:
        raise Rejected(problem)


def action_problem(state, power: str, phase_or_kind: str) -> str | None:
    """Why ``power``'s action does not let it act in this phase or do this kind of activity
    (a reason naming the rule), or None."""
    key = _phase_key(phase_or_kind)
    if key in NON_PHASING_PHASES and not _phasing(state, power):
        return None
    gate = PHASE_GATES.get(key)
    kind = None
    if gate is None:
        try:
            kind = canonical_kind(key)
        except ValueError:
            return None  # a phase without an action restriction (e.g. the reorganization phases)
    if not _phasing(state, power):
        what = gate[1] if gate else KIND_NAMES[kind]
        return (f"{ACTION_RULE}: only the phasing side's major powers choose actions and act in "
                f"{what}; {power} is not on the phasing side this impulse")
    action = _action(state, power)
    if action is None:
        return f"Choose Action: {power} has not chosen an action this impulse"
    if gate is not None:
        allowed, title = gate
        if action not in allowed:
            names = " or ".join(ACTION_NAMES[a] for a in ("naval", "air", "land", "combined") if a in allowed)
            return (f"{ACTION_RULE}: {power} chose a {ACTION_NAMES[action]} action, which does not "
                    f"allow {title} ({names} action only)")
        need = PHASE_NEEDS.get(key)
        if need is not None and remaining(state, power)[need] == 0:
            return (f"{LIMIT_RULE}: {title} needs {KIND_NAMES[need]} available and {power}'s "
                    f"{ACTION_NAMES[action]} action has none left")
        return None
    if limit(state, power, kind) == 0:
        if action == "pass":
            return f"{LIMIT_RULE}: {power} chose a Pass action and can't do any further activities this impulse"
        return f"{LIMIT_RULE}: a {ACTION_NAMES[action]} action allows {power} no {KIND_NAMES[kind]}"
    return None


def charged(kind: str, mission: str | None = None) -> bool:
    """Activity Limits: does this activity count against the limits?  CAP, escort,
    interception, naval air interception and ground support missions do not."""
    return not (canonical_kind(kind) == "air-mission" and mission is not None
                and mission.lower() in EXEMPT_MISSIONS)


def activity_problem(state, power: str, kind: str, count: int = 1, mission: str | None = None) -> str | None:
    """Why charging ``count`` activities of ``kind`` to ``power`` would be refused now, or None."""
    kind = canonical_kind(kind)
    if count < 1:
        raise ValueError(f"activity count must be at least 1 (got {count})")
    if not charged(kind, mission):
        return None
    problem = action_problem(state, power, kind)
    if problem:
        return problem
    cap = limit(state, power, kind)
    if cap is not None:
        done = core.used(state, power, kind)
        if done + count > cap:
            action = ACTION_NAMES[_action(state, power)]
            return (f"{LIMIT_RULE}: {power}'s {action} action allows {cap} {KIND_NAMES[kind]} this "
                    f"impulse; {done} used, {count} more asked")
    return None


def use_activity(ctx, power: str, kind: str, count: int = 1, mission: str | None = None) -> int:
    """Charge ``count`` activities of ``kind`` to ``power``; Rejected if over its limit.

    ``mission`` (for air missions) names the mission; CAP, escort, interception, naval air
    interception and ground support do not count (Activity Limits) and charge nothing."""
    problem = activity_problem(ctx.state, power, kind, count, mission)
    if problem:
        raise Rejected(problem)
    if not charged(kind, mission):
        return 0
    ctx.emit(core.ActivityUsed(power=power, kind=canonical_kind(kind), count=count))
    return count
