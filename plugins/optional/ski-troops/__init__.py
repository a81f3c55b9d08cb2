"""Optional rule Ski troops (prerequisite Divisions; seeds, "Weather Report": "If at least half of
your attacking land units are MTN, ski troops (AsA option 65), Swedish, Finnish, Norwegian, or elite
Soviet units, you may lessen the odds reduction in snow or blizzard by 2").

The base land combat rules count MTN, Nordic and elite Soviet units as snow units; this rule adds
ski units (type "ski" or flag "ski") through the combat hook ``snow_unit``.  The first-loss rule
that comes with the benefit then applies to them too (the combat plugin's own check).  Ski
division counters: ``data/ski_counters.json`` (authored: see its header).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on

RULE_ID = "ski-troops"
DATA = Path(__file__).resolve().parent / "data" / "ski_counters.json"


@cache
def counters() -> list[dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))["counters"]


def is_ski_unit(unit) -> bool:
    return unit.branch == "land" and (unit.type.lower() == "ski" or "ski" in unit.flags)


@hookimpl(optionalhook=True)
def snow_unit(state, unit):
    if is_ski_unit(unit) and is_on(state, RULE_ID):
        return True
    return None
