"""Seeds, "Factory Destruction" (end of turn): "This is a optional rule and if it has not been
selected, the phase is skipped."  The rule (Factory construction & destruction, a production
rule) is not implemented, so no Barbarossa game can switch it on, with or without the preset
All: the phase is skipped in every Barbarossa game with that reason, never as "no rule yet"."""

from __future__ import annotations

import pytest
from helpers import ok

from plugins.optional.framework import new_game
from plugins.optional.framework.catalogue import RulesError, build_catalogue
from plugins.optional.framework.presets import choose_rules

STEP = "wif.turn.end-of-turn.factory-destruction"


@pytest.mark.parametrize("preset", ["none", "all"])
def test_factory_destruction_is_skipped_in_barbarossa_with_the_seeds_reason(save, preset):
    game = new_game("barbarossa", save, preset=preset, seed=1, lab=True, extra_plugins=["rig", "rig-turn"])
    # the step before it (skipped in Barbarossa too): the flow runs on through Factory Destruction
    events = ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.end-of-turn.peace.surrender", "turn": 2})
    skipped = {e.data["step"]: e.data["reason"] for e in events if e.type == "StepSkipped"}
    assert "Factory construction & destruction is off" in skipped[STEP]
    assert "if it has not been selected, the phase is skipped" in skipped[STEP]


def test_factory_destruction_cannot_be_switched_on_while_not_implemented():
    catalogue = build_catalogue()
    assert "factory-construction-and-destruction" not in choose_rules(catalogue, "all").rules
    with pytest.raises(RulesError, match="Factory construction & destruction"):
        choose_rules(catalogue, "none", on=["factory-construction-and-destruction"])
