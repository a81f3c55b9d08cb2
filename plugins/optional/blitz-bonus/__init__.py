"""Optional rule Blitz bonus (seeds, "Land Combat", Rolling dice: "When using the optional rule
Blitz bonus, add 1 to the die roll for each two attacking ARM, MECH and HQ-A units conducting a
blitz attack against a clear or desert (non-city) hex in fine weather.  Subtract one from the
roll per defending ARM, MECH and HQ-A in a (non-city) clear or desert hex in fine weather.  Add
1 to the roll for each paradropping unit").  Through the combat hook ``land_combat_modifiers``.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules.combat import odds as O

RULE_ID = "blitz-bonus"
ARMOUR = O.ARM_TYPES | O.MECH_TYPES  # ARM and HQ-A, MECH


@hookimpl(optionalhook=True)
def land_combat_modifiers(state, attackers, defenders, evaluation):
    if not is_on(state, RULE_ID):
        return None
    out = []
    hex_ = O.norm(evaluation["hex"])
    open_fine = (O.core.world_map().city_at(hex_) is None and evaluation["terrain"] in ("clear", "desert")
                 and evaluation["weather"] == "fine")
    if open_fine:
        if evaluation.get("table") == "blitz":
            pairs = sum(1 for u in attackers if O.unit_type(u) in ARMOUR) // 2
            if pairs:
                out.append((pairs, "blitz bonus: attacking ARM/MECH/HQ-A"))
        armour = sum(1 for u in defenders if O.unit_type(u) in ARMOUR)
        if armour:
            out.append((-armour, "blitz bonus: defending ARM/MECH/HQ-A"))
    # a paradropping unit has landed in the hex it attacks
    dropped = sum(1 for u in attackers if u.hex is not None and O.norm(u.hex) == hex_)
    if dropped:
        out.append((dropped, "blitz bonus: paradropping units"))
    return out
