"""Land's ``overrun_odds`` hook answered by the land combat rules: an overrun needs final
odds (Land Movement, overruns: "the final odds for the overrun or land combat") worked out
as a land combat's, from the hex the unit overruns from."""

from __future__ import annotations

from kernel.hookspecs import hookimpl

from . import odds as O


@hookimpl
def overrun_odds(state, unit, hex_, min_odds, hook):
    """``state`` has ``unit`` standing next to ``hex_`` (land's scratch copy); ``hook`` lets
    optional rules change the factors as in a land combat (Offensive chits: "double the combat
    factors ... when you calculate the final odds for the overrun or land combat")."""
    ev = O.evaluate(state, [unit.id], hex_, hook=hook)
    if ev["automatic"]:
        return {"enough": True, "ratio": float(min_odds), "odds": "no defending factors"}
    level = ev["level"]
    return {"enough": level >= O.odds_level(min_odds, 1), "ratio": O.odds_ratio(level), "odds": ev["odds"]}
