"""Units an optional rule adds to a scenario (seeds, "Optional Rules": "additional units").

A rule that adds counters keeps them in a data file of its own plugin:

    {"source": "...", "approximations": [...], "scenarios": {"barbarossa": [unit, ...]}}

each unit in the scenario's order-of-battle format.  ``scenario_units`` reads the units for
one scenario while the rule is ON; a scenario asks its rules through its own hook (Barbarossa:
``scenario_added_units``).  A file without its header, or naming no list for a scenario, is
refused with the file named.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kernel.errors import WifError

from . import is_on


class AddedUnitsError(WifError):
    """A rule's added-units data file that cannot be used; the message names it."""


@cache
def load(path: Path) -> dict:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise AddedUnitsError(f"{path}: cannot read the added units: {exc}") from exc
    missing = [k for k in ("source", "approximations", "scenarios") if k not in data]
    if missing:
        raise AddedUnitsError(f"{path}: the added-units file needs {', '.join(missing)} (a header saying "
                              "where each value comes from and what is approximated)")
    for scenario, rows in data["scenarios"].items():
        if not isinstance(rows, list) or not all(isinstance(r, dict) and "id" in r for r in rows):
            raise AddedUnitsError(f"{path}: scenario {scenario!r}: a list of units, each with an id")
    return data


def scenario_units(state, rule_id: str, path: Path, scenario: str) -> list[dict] | None:
    """The units ``rule_id`` adds to ``scenario`` (copies), or None while it is OFF."""
    if not is_on(state, rule_id):
        return None
    return [dict(u) for u in load(Path(path))["scenarios"].get(scenario, [])]
