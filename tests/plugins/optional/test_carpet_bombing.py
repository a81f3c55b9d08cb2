"""Optional rule Carpet bombing (seeds "Carpet Bombing", "Air Attacks" Carpet bombing missions),
on and off, built with the rig (helpers.lab_game, playback dice).

Map facts: (206,52) is a clear Soviet hex; (203,52), 3 hexes away, is made German."""

from __future__ import annotations

from helpers import air_unit, dice, lab_game, ok, refused, types, unit

from plugins.rules.air.strategic_bombardment import table_result

TARGET, GE_BASE = (206, 52), (203, 52)
CARPET = "turn.impulse.independent-air.carpet-bombing"
HE111 = air_unit("he111", "germany", "lnd", GE_BASE, air=0, tactical=2, factors={"strategic": 4})
STUKA = air_unit("stuka", "germany", "tac", GE_BASE, air=1, tactical=3)


def carpet_lab(save, units, rules=("carpet-bombing",), **options):
    return lab_game(save, options={"units": units, "actions": {"germany": "air"}, "hex_control": {"203,52": "germany"},
                                   "optional_rules": list(rules), "start_at": CARPET, **options},
                    extra_plugins=["air", "carpet-bombing"])


def test_carpet_bombing_off_skips_the_phase_with_the_seeds_reason(save):
    game = carpet_lab(save, [HE111, unit("r1", "ussr", TARGET)], rules=())
    skipped = {e.data["step"]: e.data["reason"] for e in game.store.records() if e.type == "StepSkipped"}
    assert "if it has not been selected, the phase is skipped" in skipped[f"wif.{CARPET}"]


def test_carpet_bombing_off_or_absent_is_skipped_in_the_same_words(save, monkeypatch):
    """The air mission kinds are registered per process: a game without the plugin, played in
    a process that loaded it for another game, must log what it logs in a process that never
    did (a server's game and its local re-decision by `wif verify` differed on this)."""
    from plugins.rules.air import mission_kinds
    from plugins.rules.air.missions import mission_phase_skip

    game = carpet_lab(save, [HE111, unit("r1", "ussr", TARGET)], rules=())
    step = f"wif.{CARPET}"
    loaded = mission_phase_skip(game.state, step)
    monkeypatch.delitem(mission_kinds.KINDS, "carpet-bombing")  # as in a process that never loaded it
    assert mission_phase_skip(game.state, step) == loaded
    assert "is not in play" in loaded


def test_carpet_bombing_each_asterisk_destroys_a_random_enemy_unit(save):
    game = carpet_lab(save, [HE111, STUKA, unit("r1", "ussr", TARGET), unit("r2", "ussr", TARGET),
                             air_unit("sb2", "ussr", "lnd", TARGET, air=0, tactical=2)])
    assert game.state.kernel.sequence.current == "wif.procedures.air-mission.phasing-side-flies-bombers"
    # only a bomber with a strategic factor carpet bombs
    refused(game, None, "no strategic factor", type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    events = ok(game, type="FlyMission", actor="germany", unit="he111", hex=list(TARGET))
    assert {"power": "germany", "kind": "air-mission", "count": 1} in [e.data for e in events if e.type == "ActivityUsed"]
    # 4 factors, die 9 +1 (no air-to-air combat) = 10: the authored table's cell has one asterisk
    points, asterisks = table_result(4, 10)
    assert asterisks == 1
    dice(game, 9, 3)  # the table die, then which of the 3 enemy units (sorted by id: r1, r2, sb2)
    events = ok(game, type="FinishStep", actor="germany")
    resolved = next(e for e in events if e.type == "CarpetBombingResolved")
    assert resolved.data["modified"] == 10 and resolved.data["destroyed"] == ["sb2"]
    assert "AirUnitDestroyed" in types(events)
    units = game.state["units"].units
    assert units["sb2"].hex is None and units["r1"].hex == TARGET and units["r2"].hex == TARGET


def test_carpet_bombing_needs_an_enemy_unit_in_the_hex(save):
    game = carpet_lab(save, [HE111, unit("r1", "ussr", TARGET)])
    refused(game, None, "holds no enemy unit", type="FlyMission", actor="germany", unit="he111", hex=[205, 52])
