"""Optional rule Isolated units (seeds, "End of Turn Reorganization": "if the optional rule for
reorganizing isolated units is in use, then isolated units are not reorganized").

The seeds do not define "isolated"; this rule takes it to be a unit that cannot trace a supply
path (``supply.in_supply`` is False), the one test the supply rules give.  It answers the
supply plugin's hook ``end_of_turn_reorganization_refusal``.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules.supply import in_supply

RULE_ID = "isolated-units"


def isolated(state, unit) -> bool:
    """An isolated unit: on the map and unable to trace a supply path."""
    return unit.on_map and not in_supply(state, unit.id)


@hookimpl(optionalhook=True)
def end_of_turn_reorganization_refusal(state, unit):
    if is_on(state, RULE_ID) and isolated(state, unit):
        return "Isolated units: an isolated (out of supply) unit is not reorganized at the end of the turn"
    return None
