"""Situations for the optional-rule tests, built in the lab scenario on the real map.

The land combat situation is the base combat tests' one: a Soviet rifle corps in the clear
hex 207,52 (USSR, next to Minsk), German corps in 206,51 and 206,52 (Poland), kept in supply
by a German HQ at 204,51 (Land Combat Resolution calls off an attack with no in-supply
attacker).  Games are
created as the Start New Game form does (``framework.new_game``), so the rules ON are the
game's ``optional_rules`` and every toggleable built-in rule plugin is loaded.
"""

from __future__ import annotations

from helpers import ok, unit
from plugins.optional.framework import new_game

DECL = "turn.impulse.land.combat.land-combat-declaration"
T = (207, 52)  # clear, USSR


def base_units():
    return [unit("g-arm", "germany", (206, 51), "arm", 6), unit("g-inf", "germany", (206, 52), "inf", 4),
            unit("s-inf", "ussr", T, "inf", 3)]


def supply_hq():
    """The German attackers' supply source (3 hexes from 207,52, out of the combats' way)."""
    return unit("g-supply-hq", "germany", (204, 51), "hq-i", 1, factors={"reorg": 1})


def lab(save, rules=(), units=None, seed=1, actions=None, start_at=DECL, plugins=("combat",), **extra):
    options = {"units": (units if units is not None else base_units()) + [supply_hq()],
               "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
               "actions": actions or {"germany": "land"}, "start_at": start_at, **extra}
    return new_game("lab", save, on=list(rules), options=options, extra_plugins=list(plugins), seed=seed)


def to_roll(save, seed=1, table="blitz", rules=(), units=None, target=T, attackers=("g-arm", "g-inf"), **kw):
    """Declare the attack, finish declaration, choose the table and roll: (game, events)."""
    game = lab(save, rules=rules, units=units, seed=seed, **kw)
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(target), "units": list(attackers)})
    ok(game, {"type": "FinishStep", "actor": "germany"})
    while not game.state.kernel.sequence.current.endswith("assault-or-blitz"):
        ok(game, {"type": "FinishStep", "actor": game.state.kernel.sequence.pending[0]})
    chooser = game.state.kernel.sequence.pending[0]
    ok(game, {"type": "ChooseLandCombatType", "actor": chooser, "table": table})
    events = ok(game, {"type": "ResolveCombat", "actor": chooser})
    return game, events


def resolved(events):
    return next(e for e in events if e.type == "LandCombatResolved")


def seek(tmp_path, want, **kw):
    """The first seed whose combat satisfies ``want(game, events)``: (game, events)."""
    for seed in range(1, 300):
        game, events = to_roll(tmp_path / f"s{seed}.wif", seed=seed, **kw)
        if want(game, events):
            return game, events
        game.close()
    raise AssertionError("no seed gives that situation")
