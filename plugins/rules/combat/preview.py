"""What a player sees of a land combat before committing to it: the odds after every modifier
(as a number for bots and in words), the table and the column the die will read, the
modifiers, and who chooses the table.  Every number comes from ``odds``."""

from __future__ import annotations

from plugins.rules import core

from . import odds as O


def odds_summary(ev: dict, table: str | None = None) -> dict:
    """What a preview tells of an evaluation: the odds as a number (100 for an automatic
    result) and in words, the table and the column the die will read (each table's while
    the table is still to be chosen), the modifiers and who chooses the table."""
    table = table or ev.get("table")
    out = {
        "odds": 100.0 if ev["automatic"] else O.odds_ratio(ev["level"]), "odds_text": ev["odds"],
        "base_odds": ev["base_odds"], "attack": ev["attack"], "defence": ev["defence"],
        "automatic": ev["automatic"], "table": table, "chooser": ev["chooser"],
        "chooser_reasons": ev["chooser_reasons"], "terrain": ev["terrain"], "weather": ev["weather"],
        "modifiers": {"odds_shifts": dict(ev["shifts"]), "die": dict(ev["drm"])},
    }
    tables = [table] if table else ["blitz", "assault"]
    out["columns"] = {t: ("automatic" if ev["automatic"] else O.column(t, ev["level"])) for t in tables}
    if table:
        out["column"] = out["columns"][table]
    return out


def odds_preview(state, attackers, defender_hex, host=None) -> dict:
    """What the GUI shows before committing an attack: the odds, who chooses the table, and
    the die modifiers, for ``attackers`` (unit ids) against ``defender_hex``.

    Returns {"odds", "base_odds", "attack", "defence", "shifts", "drm", "chooser",
    "table_options", "weather", "terrain", ...}.  Pass the game's ``host`` to include the
    optional rules' odds shifts and die modifiers."""
    hex_ = O.norm(defender_hex)
    combat = state["combat"].combats.get(core.hex_key(hex_))
    hook = host.pm.hook if host is not None else None
    if combat is not None:
        out = O.evaluate_combat(state, combat, hook=hook, attackers=attackers)
    else:
        out = O.evaluate(state, list(attackers), hex_, hook=hook)
    out["table_options"] = ["blitz", "assault"]
    out["modifiers"] = {"odds_shifts": out["shifts"], "die": out["drm"]}
    return out
