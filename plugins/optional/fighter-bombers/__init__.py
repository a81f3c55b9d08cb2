"""Optional rule Fighter-bombers (seeds, "Air-to-air Combat": "Reduce the air-to-air rating of
the front bomber by 1 if it is a FTR").  Through the air hook ``air_to_air_modifiers``.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules.air import is_fighter

RULE_ID = "fighter-bombers"


@hookimpl(optionalhook=True)
def air_to_air_modifiers(state, unit, role):
    if role == "front-bomber" and is_on(state, RULE_ID) and is_fighter(unit):
        return [(-1, "fighter-bombers: a FTR flying as the front bomber")]
    return None
