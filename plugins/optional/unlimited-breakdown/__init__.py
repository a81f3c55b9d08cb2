"""Optional rule Unlimited breakdown (prerequisite Divisions; seeds, "Break Down Units" and
"Reform Units", Player's Manual 9.3.8).

- Breakdown: "the divisions are created by the program. That is, the divisions in the force pool
  are never used": one first division of the corps' type and a choice of an INF or MOT second
  division ("ss-inf"/"ss-mot" too for an SS corps), their factors from
  ``data/generated_divisions.json`` (authored: see its header).
- Reform: "the only divisions that can be used to reform a corps/army are those that were created
  by breaking down a corps/army", and "you first select a corps/army unit you want to reform";
  the generated divisions leave the game.

It changes the Divisions rule only through the variant it registers with that plugin
(``plugins.optional.divisions.variants``), applied while this rule is ON.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

from plugins.optional.divisions.variants import Variant, register_variant

RULE_ID = "unlimited-breakdown"
RULE = "Unlimited breakdown"
DATA = Path(__file__).resolve().parent / "data" / "generated_divisions.json"


@cache
def formula() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def _division(state, unit, n: int, type_: str, combat: int, move: int, ss: bool) -> dict:
    # Numbered by the breakdowns so far, so a corps broken down twice gets new counters.
    seq = state["divisions"].breakdowns + 1
    return {"id": f"{unit.id}.div{seq}-{n}", "power": unit.power, "nationality": unit.nationality,
            "branch": "land", "type": type_, "size": "division",
            "name": f"{unit.name or unit.id} ({'SS ' if ss else ''}{type_.upper()} division)",
            "factors": {"combat": combat, "move": move}, "year": unit.year,
            "flags": ["generated"] + (["ss"] if ss else []), "create": True}


def generated_divisions(state, unit) -> dict:
    """The first division and the second-division choices the program creates for ``unit``."""
    f = formula()
    total = max(f["min_total_combat"], math.ceil(unit.factors.get("combat", 0) / 2))
    second_cf = f["second_combat"]
    first_cf = max(1, total - second_cf)
    ss = "ss" in unit.flags
    first = _division(state, unit, 1, unit.type, first_cf, unit.factors.get("move", 0), ss)
    first["choice"] = "first"
    second = []
    for type_ in ("inf", "mot"):
        for as_ss in ((False, True) if ss else (False,)):
            option = _division(state, unit, 2, type_, second_cf, f["second_move"][type_], as_ss)
            option["choice"] = f"ss-{type_}" if as_ss else type_
            second.append(option)
    return {"rule": RULE, "first": [first], "second": second, "cap": False}


def reform(state, divisions) -> dict:
    """Reform: only divisions made by a breakdown, the player chooses the corps, the
    divisions leave the game."""
    made = state["divisions"].from_breakdown
    pool = [u.name or u.id for u in divisions if u.id not in made]
    refusal = None
    if pool:
        refusal = (f"{RULE} (Reform Units): only divisions created by breaking down a corps or army can reform "
                   f"({', '.join(pool)} started in the force pool)")
    return {"rule": RULE, "refusal": refusal, "player_chooses": True, "divisions_to": "removed"}


register_variant(Variant(RULE_ID, breakdown=generated_divisions, reform=reform))
