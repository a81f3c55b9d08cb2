"""Over-Stacked Hex, aircraft unit limits: "Minor port hex: 2 / Major port or city hex: 3 /
Mountain, desert mountain, or swamp hex: 0 / Any other hex: 1 / Hex with HQ: +1"; "If several
limits apply ... the highest of them applies"; "Each ENG (even if it is disorganized) increases
the aircraft stacking limit of a hex by 1".  Built with the rig in the lab scenario."""

from __future__ import annotations

import helpers
from helpers import unit
from plugins.rules import core
from plugins.rules.land.movement import air_limit, stacking_problems

CLEAR = (205, 52)  # clear, no city
SWAMP = (204, 54)  # Pripet marshes (Poland, North temperate zone)
MINSK = (207, 51)  # a city


def _game(save, *counters):
    game = helpers.lab_game(save, options={"countries": {"GE": "germany", "SU": "ussr", "PL": "germany"}},
                            extra_plugins=["land"])
    if counters:
        helpers.place(game, *counters)
    return game


def _air(i, hex_):
    return {"id": f"a{i}", "power": "germany", "branch": "air", "type": "ftr", "hex": list(hex_)}


def test_over_stacked_hex_aircraft_limit_by_terrain_city_and_hq(save):
    game = _game(save)
    assert air_limit(game.state, CLEAR) == 1
    assert air_limit(game.state, SWAMP) == 0
    assert air_limit(game.state, MINSK) == 3
    helpers.place(game, unit("hq", hex_=SWAMP, type_="hq-i"))
    assert air_limit(game.state, SWAMP) == 1  # "Hex with HQ: +1"
    game.close()


def test_over_stacked_hex_each_engineer_even_disorganized_adds_one_aircraft(save):
    game = _game(save, _air(1, CLEAR), _air(2, CLEAR), _air(3, CLEAR))
    assert any("at most 1 aircraft" in p for p in stacking_problems(game.state, CLEAR))
    helpers.place(game, unit("e1", hex_=CLEAR, type_="eng", size="division"),
                  unit("e2", hex_=CLEAR, type_="eng", size="division", face_up=False))
    assert air_limit(game.state, CLEAR) == 3
    assert stacking_problems(game.state, CLEAR) == []
    game.close()


def test_over_stacked_hex_a_swamp_in_snow_is_forest_for_aircraft(save):
    game = _game(save)
    helpers.weather(game, core.world_map().weather_zone(SWAMP), "snow")
    assert air_limit(game.state, SWAMP) == 1  # Weather Report: "Swamp hexes are treated as forest in snow"
    game.close()


def test_over_stacked_hex_after_a_real_retreat_correct_overstacking_before_the_step_ends(save):
    """Stacking: "Stacking applies at the end of every phase ... if it happens ... the owner of
    the hex must destroy enough of the overstacked units".  A Soviet HQ and army hold the clear
    hex T with 2 fighters ("Hex with HQ: +1" makes 2 aircraft legal); Germany's attack gives
    -/R, both retreat, and T's aircraft limit drops back to 1: when the Retreat Units step ends
    the Correct Overstacking digression holds the game until the USSR destroys a fighter."""
    t = (207, 52)  # clear, no city, Soviet
    fighters = [_air(i, t) | {"power": "ussr", "factors": {"air": 2, "tactical": 0, "range": 4}} for i in (1, 2)]
    options = {"units": [unit("g-arm", "germany", (206, 51), "arm", 6), unit("g-inf", "germany", (206, 52), "inf", 4),
                         unit("g-supply-hq", "germany", (204, 51), "hq-i", 1, factors={"reorg": 1}),
                         unit("s-inf", "ussr", t, "inf", 3), unit("s-hq", "ussr", t, "hq-i", 1, factors={"reorg": 1}),
                         *fighters],
               "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"}, "actions": {"germany": "land"},
               "start_at": "turn.impulse.land.combat.land-combat-declaration"}
    game = helpers.lab_game(save, options=options, extra_plugins=["combat"])
    assert air_limit(game.state, t) == 2 and stacking_problems(game.state, t) == []
    helpers.ok(game, type="DeclareAttack", actor="germany", hex=list(t), units=["g-arm", "g-inf"])
    helpers.dice(game, 5)  # 10 against 4 is 2:1 on the Blitz table: a 5 gives -/R
    helpers.ok(game, type="FinishStep", actor="germany")
    helpers.ok(game, type="ChooseLandCombatType", actor="germany", table="blitz")
    resolved = next(e for e in helpers.ok(game, type="ResolveCombat", actor="germany") if e.type == "LandCombatResolved")
    assert resolved.data["result"] == "-/R"
    assert game.state.kernel.sequence.current.endswith("retreat-units")
    events = helpers.ok(game, type="FinishStep", actor="germany")  # both retreat, into the first hex of their priority
    assert helpers.types(events).count("UnitRetreated") == 2
    assert sorted(u.id for u in game.state["units"].in_hex(t)) == ["a1", "a2"]  # only the fighters stay
    k = game.state.kernel.sequence
    assert k.current == "wif.digressions.correct-overstacking" and k.pending == ["ussr"]
    assert stacking_problems(game.state, t) == ["Over-Stacked Hex: at most 1 aircraft in hex 207,52, it holds 2"]
    assert "must first destroy units" in helpers.refused(game, type="FinishStep", actor="ussr")
    (choice,) = helpers.offered(game, "ChooseOverstackLoss")
    assert sorted(c["unit"] for c in choice.commands()) == ["a1", "a2"]
    helpers.ok(game, type="ChooseOverstackLoss", actor="ussr", unit="a2")
    assert stacking_problems(game.state, t) == []
    assert game.state.kernel.sequence.current.endswith("advance-after-combat")  # the digression is over
    game.close()


def test_over_stacked_hex_organized_first_among_the_owners_units_not_the_enemys(save):
    """Over-Stacked Hex: "You must destroy organized units before disorganized units" - the
    owner's units.  A disorganized German unit shares German-held T with an organized Soviet
    one (units that can't co-operate can't stack together; a Guadalcanal bot game stopped on
    it: Japanese ships back in a port an Allied ship was still in): Germany may destroy its own
    unit though the Soviet one is organized, and not the Soviet one."""
    from plugins.rules.land.over_stacked_hex import overstack_choices, overstack_loss_problem

    t = (207, 52)
    game = _game(save, unit("g-a", "germany", t, face_up=False), unit("s-a", "ussr", t))
    helpers.control(game, t, "germany")
    state = game.state
    units = state["units"].units
    assert overstack_loss_problem(state, "germany", units["g-a"]) is None
    assert overstack_loss_problem(state, "germany", units["s-a"]) is not None
    (field,) = overstack_choices(state, "germany", "digressions.correct-overstacking")
    assert [o.value for o in field.all_options()] == ["g-a"]
    game.close()


def test_over_stacked_hex_checked_at_every_phase_end_never_a_stale_verdict(save):
    """Over-Stacked Hex / Correct Overstacking Digression: "Stacking applies at the end of every
    phase".  The check remembers each hex's verdict while what it reads is unchanged; here the
    same stacks are judged again after what the verdict depends on changed, and every answer is
    the rules' own (``movement.overstacked_hexes``, which remembers nothing)."""
    from plugins.rules.land import movement
    from plugins.rules.land.over_stacked_hex import overstacked_hexes

    def judged():
        fresh = movement.overstacked_hexes(game.state)
        assert overstacked_hexes(game.state) == fresh
        return fresh

    zone = core.world_map().weather_zone(SWAMP)
    game = _game(save, _air(1, SWAMP))
    helpers.weather(game, zone, "snow")
    assert judged() == {}  # a swamp in snow is forest: 1 aircraft may stay
    helpers.weather(game, zone, "fine")  # the same lone aircraft, in a swamp again: limit 0
    assert list(judged()) == [SWAMP]

    helpers.place(game, _air(2, CLEAR), _air(3, CLEAR), unit("hq", hex_=CLEAR, type_="hq-i"))
    assert CLEAR not in judged()  # "Hex with HQ: +1"
    helpers.place(game, unit("hq", hex_=MINSK, type_="hq-i"))  # the HQ leaves: 2 aircraft, limit 1
    assert "at most 1 aircraft" in judged()[CLEAR][0]
    helpers.place(game, _air(3, MINSK))
    assert CLEAR not in judged()

    helpers.place(game, unit("s-inf", "ussr", MINSK))  # a Soviet unit joins the German stack
    assert any("can't co-operate" in p for p in judged()[MINSK])
    helpers.place(game, unit("s-inf", "ussr", (206, 52)))
    assert MINSK not in judged()
    game.close()
