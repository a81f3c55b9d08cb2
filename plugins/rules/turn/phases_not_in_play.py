"""Why a phase is bypassed: its optional rule is off, or the game holds nothing it could act on.

Every step a game enters either runs its rule or records why it does not apply (the
``skip_step`` hook).  Two kinds of reason live here, both true whatever plugins the game has:

- the phase belongs to an optional rule that is OFF (``data/optional_phases.json``: the seeds
  say, phase by phase, "This is a optional rule and if it has not been selected, the phase
  is skipped");
- the phase acts on something no power has: naval units (the naval phases, "Stay At Sea",
  "Search and Seizure"), an ally to lend to ("Resource Lending"), a major power that is not
  in the game (the USA for "US Entry", France for "Vichy Declaration"), a neutral major power
  to hold a neutrality pact with ("Entry"), or a minor country at war ("Allied Minor
  Support").  "Naval Repair" is the Guadalcanal scenario's.

A scenario's own reasons (what its text leaves out) are the scenario plugin's.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from pathlib import Path

from plugins.optional.framework import is_on
from plugins.rules import core
from plugins.rules.units import units

DATA = Path(__file__).with_name("data") / "optional_phases.json"
T = "wif.turn."


@cache
def optional_phases() -> dict[str, dict]:
    """Step id -> {"rule", "name", "seed"} for the phases of optional rules."""
    return json.loads(DATA.read_text(encoding="utf-8"))["phases"]


def optional_rule_off(state, step_id: str) -> str | None:
    """The phase's optional rule is not in play (or this edition has no such rule)."""
    entry = optional_phases().get(step_id)
    if entry is None:
        return None
    rule = entry["rule"]
    if rule is not None and is_on(state, rule):
        return None
    where = "this edition does not offer it" if rule is None else "it is not in play"
    return (f"{entry['seed']}: the optional rule {entry['name']} is off ({where}); "
            "\"if it has not been selected, the phase is skipped\"")


# ---------------------------------------------------------------- nothing to act on
def _naval_powers(state, powers=None) -> list[str]:
    """Powers (of ``powers``, default all) with a naval unit anywhere on the map or at sea."""
    wanted = set(powers) if powers is not None else None
    return sorted({u.power for u in units(state).units.values()
                   if u.branch == "naval" and u.where == "map" and (wanted is None or u.power in wanted)})


def _phasing(state) -> list[str]:
    k = state.kernel
    return list(k.sides.get(k.active_side, [])) if k.active_side else k.powers()


def _non_phasing(state) -> list[str]:
    k = state.kernel
    return [p for s, powers in k.sides.items() if s != k.active_side for p in powers]


def _no_naval(title: str, whose: str, powers_of, what: str):
    def reason(state) -> str | None:
        if _naval_powers(state, powers_of(state) if powers_of else None):
            return None
        return f"{title}: {whose} no naval units, so {what}"
    return reason


def _no_ally(state) -> str | None:
    # Resource Lending: "Resources ... can be lent to any major power on their side"
    if any(len(powers) > 1 for powers in state.kernel.sides.values()):
        return None
    return "Resource Lending: no major power has another major power on its side to lend to"


def _no_power(power: str, title: str, why: str):
    def reason(state) -> str | None:
        return None if power in state.kernel.powers() else f"{title}: {why}"
    return reason


def _no_pact(state) -> str | None:
    # Entry: "major powers that have existing neutrality pacts get to draw and place entry
    # markers"; a pact is made between major powers not at war (Neutrality Pacts).
    powers = state.kernel.powers()
    if any(not core.enemies(state, a, b) and core.side_of(state, a) != core.side_of(state, b)
           for a, b in combinations(powers, 2)):
        return None
    return ("Entry: no neutrality pact exists, since every major power is at war with every "
            "major power of the other side")


def _no_minor_at_war(state) -> str | None:
    # Allied Minor Support: "the Axis must be at war with the minor country"
    majors = set(state.kernel.powers())
    if any(a not in majors or b not in majors for a, b in core.world(state).at_war):
        return None
    return "Allied Minor Support: no minor country is at war, so none can be supported by the Allies"


def _not_guadalcanal(state) -> str | None:
    if state.kernel.scenario == "guadalcanal":
        return None
    return "Naval Repair: \"This phase only occurs when playing the Guadalcanal scenario\""


NOTHING_TO_ACT_ON = {
    f"{T}impulse.naval.port-attack": _no_naval(
        "Port Attack", "the non-phasing side has", _non_phasing,
        "no port holds a viable naval target (\"Bombers may only fly this mission if there is a viable naval target\")"),
    f"{T}impulse.naval.naval-air": _no_naval(
        "Naval Air", "the non-phasing side has", _non_phasing,
        "air units in a sea area would have no naval movement to intercept and no naval combat to join"),
    f"{T}impulse.naval.naval-movement": _no_naval("Naval Movement", "the phasing side has", _phasing,
                                                  "nothing moves to sea"),
    f"{T}impulse.naval.phasing-side-naval-combat": _no_naval("Naval Combat", "the game has", None,
                                                             "no unit is at sea to fight"),
    f"{T}impulse.naval.non-phasing-side-naval-combat": _no_naval("Naval Combat", "the game has", None,
                                                                 "no unit is at sea to fight"),
    f"{T}impulse.land.movement.unload-land-units": _no_naval(
        "Unload Land Units", "the phasing side has", _phasing, "no land unit is aboard a ship to unload"),
    f"{T}impulse.land.movement.invasion": _no_naval(
        "Invasion", "the phasing side has", _phasing, "no land unit is at sea to invade from"),
    f"{T}impulse.land.combat.defending-shore-bombardment": _no_naval(
        "Defending Shore Bombardment", "the non-phasing side has", _non_phasing, "no ship can bombard"),
    f"{T}impulse.land.combat.attacking-shore-bombardment": _no_naval(
        "Attacking Shore Bombardment", "the phasing side has", _phasing, "no ship can bombard"),
    f"{T}impulse.end-of-impulse.reorganization-by-naval-transport": _no_naval(
        "Reorganization by Naval Transport", "the phasing side has", _phasing, "no naval transport is at sea"),
    f"{T}end-of-turn.stay-at-sea-phasing": _no_naval("Stay At Sea", "the game has", None, "no unit is at sea"),
    f"{T}end-of-turn.stay-at-sea-non-phasing": _no_naval("Stay At Sea", "the game has", None, "no unit is at sea"),
    f"{T}end-of-turn.search-and-seizure": _no_naval("Search and Seizure", "the game has", None,
                                                    "no sea area can be searched"),
    "wif.procedures.reinforcements.replacements": _no_naval(
        "Replacements", "the game has", None,
        "no naval unit may be replaced (\"There are a few naval units that may be replaced in the game\")"),
    f"{T}new-turn.resource-lending": _no_ally,
    f"{T}end-of-turn.entry.entry-initiative-side": _no_pact,
    f"{T}end-of-turn.entry.entry-other-side": _no_pact,
    f"{T}end-of-turn.us-entry.us-entry-markers": _no_power("usa", "US Entry", "the USA is not a major power of this game"),
    f"{T}end-of-turn.us-entry.us-entry-option": _no_power("usa", "US Entry", "the USA is not a major power of this game"),
    f"{T}end-of-turn.peace.vichy-declaration": _no_power(
        "france", "Vichy Declaration", "France is not a major power of this game, so no Axis power can install Vichy"),
    f"{T}end-of-turn.peace.allied-minor-support": _no_minor_at_war,
    f"{T}end-of-turn.naval-repair": _not_guadalcanal,
}


def nothing_to_act_on(state, step_id: str) -> str | None:
    reason = NOTHING_TO_ACT_ON.get(step_id)
    return reason(state) if reason is not None else None


def not_in_play(state, step_id: str) -> str | None:
    """Why the phase ``step_id`` does not apply now, or None (the one question skip_step asks)."""
    return optional_rule_off(state, step_id) or nothing_to_act_on(state, step_id)
