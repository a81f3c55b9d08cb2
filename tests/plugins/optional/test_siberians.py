"""Optional rule Siberians (seeds, "Swap Siberians"; "Reinforcements": swapping units): while
the USSR places its reinforcements it may swap a Soviet infantry corps or army on the map for a
Siberian unit, which takes its place; the given unit returns to the force pool."""

from __future__ import annotations

import random

from helpers import offered, ok, place, refused, unit

from plugins.optional.framework import new_game

REINFORCING = "wif.procedures.reinforcements.placing-units-on-map"


def _game(save, rules=("siberians",), turn=3):
    game = new_game("barbarossa", save, on=list(rules), seed=2, lab=True, extra_plugins=["rig", "rig-turn"])
    place(game, unit("su-27a", "ussr", (212, 50), "inf", 2, 3))  # the 27th Army, at Smolensk
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.new-turn.reinforcements", "turn": turn})
    assert game.state.kernel.sequence.current == REINFORCING and "ussr" in game.state.kernel.sequence.pending
    return game


def test_swap_siberians_the_siberian_takes_the_given_units_place(save):
    game = _game(save)
    events = ok(game, {"type": "SwapSiberian", "actor": "ussr", "unit": "su-27a", "siberian": "su-sib-1"})
    assert [e.type for e in events] == ["SiberianSwapped", "UnitMoved", "UnitCreated"]
    units = game.state["units"].units
    assert units["su-sib-1"].on_map and tuple(units["su-sib-1"].hex) == (212, 50) and "elite" in units["su-sib-1"].flags
    assert units["su-27a"].where == "force-pool" and not units["su-27a"].on_map
    refused(game, {"type": "SwapSiberian", "actor": "ussr", "unit": "su-sib-1", "siberian": "su-sib-1"},
            "arrived already")


def test_swap_siberians_not_before_their_turn_nor_outside_the_reinforcements(save):
    game = _game(save, turn=2)
    refused(game, {"type": "SwapSiberian", "actor": "ussr", "unit": "su-27a", "siberian": "su-sib-1"},
            "may arrive from turn 3")
    refused(game, {"type": "SwapSiberian", "actor": "germany", "unit": "su-27a", "siberian": "su-sib-1"},
            "only the USSR")


def test_swap_siberians_not_during_setup(save):
    game = new_game("barbarossa", save, on=["siberians"], seed=2, lab=True, extra_plugins=["rig", "rig-turn"])
    place(game, unit("su-27a", "ussr", (212, 50), "inf", 2, 3))
    refused(game, {"type": "SwapSiberian", "actor": "ussr", "unit": "su-27a", "siberian": "su-sib-1"},
            "while the USSR places its reinforcements")
    assert not offered(game, "SwapSiberian")


def test_swap_siberians_every_offered_swap_is_accepted(save):
    game = _game(save, turn=5)
    (choice,) = offered(game, "SwapSiberian")
    cmds = choice.commands(limit=200) + [choice.sample(random.Random(i)) for i in range(20)]
    assert {c["siberian"] for c in cmds} == {"su-sib-1", "su-sib-2", "su-sib-3"}
    for cmd in cmds:
        assert game.dry_run(cmd).accepted, cmd


def test_swap_siberians_off_there_is_no_swap(save):
    game = _game(save, rules=())
    assert not offered(game, "SwapSiberian")
    assert "su-sib-1" not in game.state["units"].units
