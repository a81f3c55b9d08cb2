"""Rebase Overrun Units Digression, for air units: an air unit in a hex an enemy land unit
enters rebases to a friendly base in range, or is destroyed with none (built with the rig).

Map facts: (204,52) is next to (205,52) and (203,52); (207,52) is a clear Soviet hex."""

from __future__ import annotations

from helpers import air_unit, lab_game, ok, refused, types, unit

DIGRESSION = "wif.digressions.rebase-overrun-units"
SU_AIRFIELD, SU_BASE = (205, 52), (207, 52)


def overrun_lab(save, fighter):
    game = lab_game(save, options={"units": [unit("g1", "germany", (204, 52), combat=4, move=4), fighter],
                                   "actions": {"germany": "land"},
                                   "hex_control": {"204,52": "germany", "205,52": "ussr", "207,52": "ussr"},
                                   "start_at": "turn.impulse.land.movement.land-movement"},
                    extra_plugins=["air"])
    ok(game, type="MoveLandUnit", actor="germany", unit="g1", path=[list(SU_AIRFIELD)])
    return game


def test_an_overrun_air_unit_rebases_to_a_friendly_base_in_range(save):
    game = overrun_lab(save, air_unit("i16", "ussr", "ftr", SU_AIRFIELD, air=3, range_=2))
    assert game.state.kernel.sequence.current == DIGRESSION
    refused(game, None, "rebase", type="FinishStep", actor="ussr")
    refused(game, None, "has a friendly base in reach", type="RebaseAirUnit", actor="ussr", unit="i16", hex=None)
    refused(game, None, "not a land hex controlled by your side", type="RebaseAirUnit", actor="ussr", unit="i16",
            hex=[204, 52])
    choice = next(c for d in game.choices().decisions for c in d.commands if c.type == "RebaseAirUnit")
    assert list(SU_BASE) in [list(h) for h in choice.fields[0].all_options()[0].next_fields()[0].values()]
    events = ok(game, type="RebaseAirUnit", actor="ussr", unit="i16", hex=list(SU_BASE))
    assert "AirUnitRebased" in types(events) and "DigressionEnded" in types(events)
    assert game.state["units"].units["i16"].hex == SU_BASE


def test_an_overrun_air_unit_with_no_base_in_range_is_destroyed(save):
    game = overrun_lab(save, air_unit("i16", "ussr", "ftr", SU_AIRFIELD, air=3, range_=0))
    choice = next(c for d in game.choices().decisions for c in d.commands if c.type == "RebaseAirUnit")
    assert choice.fields[0].all_options()[0].next_fields()[0].values() == [None]
    events = ok(game, type="RebaseAirUnit", actor="ussr", unit="i16", hex=None)
    assert "AirUnitDestroyed" in types(events) and game.state["units"].units["i16"].hex is None
