"""Strategic Bombardment: its table (authored, data/strategic_bombardment_table.json) and why the
phase has no target in a game without production (Barbarossa), built with the rig."""

from __future__ import annotations

from helpers import air_unit, lab_game, unit

from plugins.rules.air import strategic_bombardment as sb

GE_BASE, TARGET = (203, 52), (206, 52)
HE111 = air_unit("he111", "germany", "lnd", GE_BASE, air=0, tactical=2, factors={"strategic": 4})


def test_strategic_bombardment_table_grows_with_factors_and_die():
    assert sb.table_result(0, 10) == (0, 0)  # nothing flew through
    for factors in (1, 4, 12, 30):
        results = [sb.table_result(factors, die) for die in range(1, 12)]
        assert results == sorted(results)  # a better die never loses points
    assert [sb.table_result(f, 6) for f in (1, 4, 12, 30)] == sorted(sb.table_result(f, 6) for f in (1, 4, 12, 30))
    assert sb.table_result(30, 11)[1] == 3 and sb.table_result(1, 1) == (0, 0)


def test_without_production_strategic_bombardment_has_no_target(save):
    game = lab_game(save, options={"units": [HE111, unit("r1", "ussr", TARGET)], "actions": {"germany": "air"},
                                   "hex_control": {"203,52": "germany"},
                                   "start_at": "turn.impulse.independent-air.strategic-bombardment"},
                    extra_plugins=["air"])
    reasons = {e.data["step"]: e.data["reason"] for e in game.store.records() if e.type == "StepSkipped"}
    reason = reasons["wif.turn.impulse.independent-air.strategic-bombardment"]
    assert "viable target" in reason and "keeps no production" in reason and "Barbarossa" in reason
    assert sb.strategic_targets(game.state, "germany") == set()
