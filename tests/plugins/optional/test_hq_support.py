"""Optional rule HQ support (seeds, "Land Combat" steps 4, 5, 7; "Defending HQ Support",
"Attacking HQ Support"): OFF the HQ support phases are skipped; ON (chosen at the start or
toggled in play) an HQ announces support and its roll shifts the odds."""

from __future__ import annotations

from helpers import ok, refused, unit
from optlab import T, base_units, lab

from plugins.rules.combat import odds_preview


def _with_hq():
    return base_units() + [unit("g-hq", "germany", (205, 51), "hq-a", 4, factors={"reorg": 10})]


def test_hq_support_off_skips_the_hq_support_phases(save):
    game = lab(save, units=_with_hq())
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm"]})
    events = ok(game, {"type": "FinishStep", "actor": "germany"})
    skipped = {e.data["step"].rsplit(".", 1)[-1] for e in events if e.type == "StepSkipped"}
    assert {"defending-hq-support", "attacking-hq-support"} <= skipped
    assert odds_preview(game.state, ["g-arm"], T)["shifts"] == {}


def test_hq_support_on_shifts_the_odds(save):
    game = lab(save, rules=["hq-support"], units=_with_hq())
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm"]})
    ok(game, {"type": "FinishStep", "actor": "germany"})
    assert game.state.kernel.sequence.current.endswith("defending-hq-support")
    ok(game, {"type": "FinishStep", "actor": "ussr"})
    ok(game, {"type": "DeclareHQSupport", "actor": "germany", "hq": "g-hq", "hex": list(T)})
    ok(game, {"type": "FinishStep", "actor": "germany"})
    assert odds_preview(game.state, ["g-arm"], T)["shifts"] == {"attacking HQ support": 1}


def test_hq_support_toggled_during_play_counts_from_then_on(save):
    game = lab(save, units=_with_hq(), start_at="turn.impulse.land.movement.land-movement", plugins=("combat", "land"))
    assert "hq-support" in game.plugin_set  # a built-in rule that may be toggled is loaded while OFF
    ok(game, {"type": "ToggleOptionalRule", "actor": "germany", "rule": "hq-support", "on": True})
    from plugins.rules.combat import hq_support_in_play

    assert game.state.kernel.sequence.current.endswith("land-movement") and hq_support_in_play(game.state)


def test_hq_support_may_not_be_toggled_during_land_combat(save):
    game = lab(save, units=_with_hq())
    refused(game, {"type": "ToggleOptionalRule", "actor": "germany", "rule": "hq-support", "on": True},
            "HQ support cannot be switched on or off now")
