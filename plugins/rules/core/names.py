"""A power as a player reads it in event texts and choice labels: "USSR", "Germany",
"Commonwealth" (never its id). One home for every rules plugin (land.labels re-exports it)."""

from __future__ import annotations

POWER_NAMES = {"ussr": "USSR", "usa": "USA", "cw": "Commonwealth", "china": "China"}


def power_name(power: str | None) -> str:
    if not power:
        return ""
    return POWER_NAMES.get(power, " ".join(w.capitalize() for w in power.replace("-", " ").split()))
