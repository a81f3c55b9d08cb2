"""Issue 12's done-when, cheap: Barbarossa played by the bots with a random subset of the
implemented optional rules (drawn as `wif autoplay --rules all --random-rules` draws it), for the
first few hundred decisions: no step skipped for want of a rule ("no rule yet"), every offered
command accepted, and the save verifies.  The whole measure (20 seeds x no rules / all / random
subsets, to the end) is `wif autoplay barbarossa --seeds 1-20 --skips ...` (docs/BENCHMARKS.md,
"Skipped steps in Barbarossa")."""

from __future__ import annotations

import pytest

from app.bots import autoplay
from app.cli_bots import random_rules
from kernel.engine import NO_RULE_YET
from kernel.verify import verify
from plugins.optional.framework import new_game

ALL = {"preset": "all", "rules_on": [], "rules_off": []}


@pytest.mark.parametrize("seed", [5, 24])  # subsets with Artillery and Offensive chits among them (64 rules listed)
def test_sequence_of_play_barbarossa_with_random_optional_rules_skips_no_step_for_want_of_a_rule(
        tmp_path, monkeypatch, seed):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    rules = random_rules(ALL, seed, "barbarossa")["rules_on"]
    # Kamikaze needs Japan in play, which Barbarossa has not: never drawn (framework/scope.py)
    assert {"artillery", "offensive-chits"} <= set(rules) and "kamikaze" not in rules
    save = tmp_path / f"barbarossa-{seed}.wif"
    game = new_game("barbarossa", save, on=rules, seed=seed)
    try:
        tally = autoplay(game, {"axis": "random", "allies": "random"}, seed=seed, limit=250)
        missing = sorted({r.data["step"] for r in game.history(1)
                          if r.type == "StepSkipped" and r.data["reason"] == NO_RULE_YET})
        assert tally.decisions >= 250 or game.state.kernel.sequence.finished
        assert game.state.kernel.turn >= 1 and tally.refused == [] and missing == []
    finally:
        game.close()
    report = verify(save)
    assert report.ok, report.problems
