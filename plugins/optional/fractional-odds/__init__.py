"""Optional rule Fractional odds (seeds, "Land Combat", Odds ratios: "round to a whole number in
favor of the defender, then work out how far to the next odds ratio you are.  Round this in
favor of the defender to the next 10%.  Roll a die just before rolling the combat die ... If
you roll the percentage or less, you resolve it on the next higher odds, otherwise on the
lower odds.").  Through the combat hook ``land_odds_roll``.

The percentage is in tens, so the die is a D10: a roll of r succeeds when r x 10 <= the
percentage (the same chance as a percentile roll).
"""

from __future__ import annotations

import math

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules.combat import odds as O

RULE_ID = "fractional-odds"


def fraction_percent(attack: float, defence: float) -> int:
    """How far ``attack`` : ``defence`` is from its rounded odds towards the next higher odds,
    in whole tens of percent, rounded down (the defender's favour)."""
    if attack <= 0 or defence <= 0:
        return 0
    level = O.odds_level(attack, defence)
    ratio = attack / defence
    if ratio >= 1:
        low = {1: 1.0, 2: 1.5}.get(level, float(level - 1))
        high = {1: 1.5, 2: 2.0}.get(level, float(level))
        part = (ratio - low) / (high - low)
    else:
        n = 2 - level  # 1:n; the next higher odds are 1:(n-1)
        part = (n - defence / attack) / 1.0
    return int(math.floor(round(part * 100, 6) / 10)) * 10


@hookimpl(optionalhook=True)
def land_odds_roll(ctx, combat, evaluation):
    if not is_on(ctx.state, RULE_ID) or evaluation.get("automatic"):
        return None
    pct = fraction_percent(evaluation["attack"], evaluation["defence"])
    if pct <= 0:
        return None  # exactly on an odds ratio: nothing to roll for
    (roll,) = ctx.roll(f"fractional odds at {evaluation['place']} (combat {combat.id}): {pct}% for the next odds")
    better = roll * 10 <= pct
    return {"shift": 1 if better else 0,
            "reason": f"fractional odds ({pct}%, rolled {roll}: {'higher' if better else 'lower'} odds)"}
