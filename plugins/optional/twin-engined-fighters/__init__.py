"""Optional rule Twin-engined fighters (seeds, "Air-to-air Combat": "all front fighters with an
orange air-to-air rating achieve one result less than normal when the front enemy fighter in
the combat does not have an orange air-to-air rating ... an AX result becomes a DX, a DX
becomes an AA, an AA becomes a DA and so on.  A DC result is unaffected.").  An orange rating
is the unit flag ``twin-engined``.  Every air-to-air combat here is by day (no night rules).
Through the air hook ``air_combat_result``.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on

RULE_ID = "twin-engined-fighters"
FLAG = "twin-engined"
# Results from best to worst for the firing side (the air-to-air table's order).
ONE_LESS = {"AX": "DX", "DX": "AA", "AA": "DA", "DA": "AC", "AC": "DC"}


def _front_fighter(state, line):
    fighters = line.get("fighters") or []
    return state["units"].units[fighters[0]] if fighters else None


@hookimpl(optionalhook=True)
def air_combat_result(state, combat, side, result):
    if not is_on(state, RULE_ID) or result not in ONE_LESS:
        return None
    other = next((s for s in combat.lines if s != side), None)
    mine = _front_fighter(state, combat.lines.get(side, {}))
    theirs = _front_fighter(state, combat.lines.get(other, {})) if other else None
    if mine is None or FLAG not in mine.flags or (theirs is not None and FLAG in theirs.flags):
        return None
    return ONE_LESS[result]
