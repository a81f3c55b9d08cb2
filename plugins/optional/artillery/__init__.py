"""Optional rule Artillery (prerequisite Divisions; RAC 22.4.2 as the seeds cite it).

Artillery units are divisions of three kinds, ART, AT and AA (``data/artillery_counters.json``,
authored: see its header).  What the base rules do not already give any land unit:

- "Land Combat", choosing combat tables: "Each defending anti-tank unit counts as an ARM corps.
  AA units which have a combat factor circled in red or pink are treated as AT units for the
  choice of land combat."  Without the rule a division-sized AT unit would count as half a
  unit like any division; with it a whole ARM corps (combat hook ``table_choice_weight``).

Stacking as the third unit in a hex ("Over-Stacked Hex") is the land rules' own, and so is AA
fire: the air rules' anti-aircraft fire ("Anti-Air Fire") fires every organized, in-supply land
unit with an ``aa`` factor, which the AA counters here carry.  Field artillery gives ground support
to a combat in an adjacent hex ("Air Attacks": "ART units can also provide ground support into
adjacent hexes"): ``ground_support.py``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on

from .ground_support import (  # noqa: F401 - the field artillery's ground support
    ART_TYPES,
    ArtilleryGroundSupport,
    ArtilleryGroundSupportGiven,
    is_field_artillery,
    rules,
    support_problem,
    supporters,
)

RULE_ID = "artillery"
DATA = Path(__file__).resolve().parent / "data" / "artillery_counters.json"
AT_TYPES = frozenset({"at", "anti-tank"})
AA_TYPES = frozenset({"aa", "aart"})


@cache
def counters() -> list[dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))["counters"]


def artillery_counter(counter_id: str) -> dict:
    """A unit dict (``plugins.rules.units.Unit`` fields) for one artillery counter of the data."""
    c = next(c for c in counters() if c["id"] == counter_id)
    factors = {"combat": c["combat"], "move": c["move"], **({"aa": c["aa"]} if "aa" in c else {})}
    return {"id": c["id"], "power": c["power"], "branch": "land", "type": c["type"], "size": "division",
            "name": c["name"], "factors": factors, "flags": list(c["flags"])}


def counts_as_anti_tank(unit) -> bool:
    t = unit.type.lower()
    return t in AT_TYPES or (t in AA_TYPES and "anti-tank" in unit.flags)


@hookimpl(optionalhook=True)
def table_choice_weight(state, unit, side, kind):
    if side != "defender" or kind != "arm" or not counts_as_anti_tank(unit) or not is_on(state, RULE_ID):
        return None
    return 1  # "counts as an ARM corps", although it is a division


rules.export(globals())
