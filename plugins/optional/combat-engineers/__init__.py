"""Optional rule Combat engineers (prerequisite Divisions; seeds, "Weather Report": an attacker that
used its snow units to lessen the snow or blizzard odds reduction takes its first loss from those
units, "exception: optional rule for combat engineers, see RAC 22.4.1").

With the rule ON an engineer unit (type "eng" or flag "engineer") may be that first loss instead,
through the combat hook ``first_loss_eligible``.  Engineer division counters:
``data/engineer_counters.json`` (authored: see its header).  Engineers' help against fortified
hexsides and fortresses is not modelled: the land combat rules have no fortifications yet.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules.land.movement import is_engineer  # what an engineer unit is: one home, land's stacking

RULE_ID = "combat-engineers"
DATA = Path(__file__).resolve().parent / "data" / "engineer_counters.json"


@cache
def counters() -> list[dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))["counters"]


@hookimpl(optionalhook=True)
def first_loss_eligible(state, unit, combat):
    if is_engineer(unit) and is_on(state, RULE_ID):
        return True
    return None
