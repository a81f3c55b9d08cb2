"""What breakdown and reform share: the plugin's state and data, and the unit questions."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from kernel.registry import Registry
from plugins.rules.land.movement import enemy_zoc

# the plugin's registry (kernel.registry): the other modules add to it, __init__ exports it
rules = Registry()

RULE_ID = "divisions"
RULE = "Divisions"
DATA = Path(__file__).resolve().parent / "data" / "division_counters.json"
BREAK_DOWN_STEP = "wif.turn.end-of-turn.break-down-corps-armies"
REFORM_STEP = "wif.turn.end-of-turn.reform-corps-armies"
BROKEN_DOWN_POOL = "broken-down-pool"  # "Unit Pools": broken-down corps wait here
FORCE_POOL = "force-pool"
SECOND_TYPES = ("inf", "mot")  # "1 INF or MOT division (your choice)"
NO_CORPS_TYPES = ("hq", "hq-i", "hq-a", "hqi", "hqa", "sup", "supply", "partisan", "notional")


@cache
def counters() -> list[dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))["counters"]


@rules.state("divisions")
class DivisionsState(BaseModel):
    # division id -> the corps it was broken down from (Unlimited breakdown: only these reform)
    from_breakdown: dict[str, str] = Field(default_factory=dict)
    breakdowns: int = 0  # how many breakdowns so far (numbers generated counters)


def section(state) -> DivisionsState:
    return state["divisions"]


def is_major_power_unit(state, unit) -> bool:
    """'Only units from major powers can breakdown and reform' (a minor's counter has its
    nationality)."""
    return unit.power in state.kernel.powers() and unit.nationality in ("", unit.power)


def in_enemy_zoc(state, unit) -> bool:
    """The land plugin's zones of control (the one ZOC rule of the game)."""
    return tuple(unit.hex) in enemy_zoc(state, unit.power)


def name(unit) -> str:
    return unit.name or unit.id
