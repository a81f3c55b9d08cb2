"""The bots at sea (app/bot_sea.py) and the greedy bot's objectives (app/bot_land.py), in
Guadalcanal: seeds "Naval Movement" (task forces towards the objectives' sea areas),
"Embark/Debark Units" and "Invasion", naval combat's "Select Naval Combat Type" (carriers strike
when they may), "Stay At Sea", and the Victory section (hold the objectives the enemy threatens,
take back the lost ones).  Built on real games and rigged positions, the bot drawing only from
``Game.choices``, previews and the front end's hooks."""

from __future__ import annotations

import random

from app.bot_land import LandSense
from app.bot_sea import SeaSense, _world, coastal_areas, place_areas, sea_move_candidates, sea_score
from app.bots import Bot, Tally, play_pending
from kernel.engine import NO_RULE_YET
from kernel.game import Game

RABAUL = (332, 126)  # Japan's objective and port at the start (Guadalcanal Special Victory Conditions)


def _greedy_until(game, stop, limit: int = 600) -> Tally:
    bots = {side: Bot("greedy", 7 + i) for i, side in enumerate(sorted(game.state.kernel.sides))}
    tally = Tally()
    while tally.decisions < limit and not stop(game) and play_pending(game, bots, tally):
        pass
    return tally


def _objectives(game, power):
    return [tuple(h) for hexes in game.host.pm.hook.objective_hexes(state=game.state, power=power) if hexes
            for h in hexes]


def test_naval_movement_greedy_task_forces_head_for_the_objectives_sea_areas(tmp_path):
    with Game.new("guadalcanal", tmp_path / "g.wif", seed=3) as game:
        sense = SeaSense(game, "usa", _objectives(game, "usa"))
        assert sense.target_areas, "the Allies have Japanese-held objectives to sail for"
        near = next(iter(sense.target_areas))
        far = max(_world().sea_areas,
                  key=sense.distance)
        toward = {"origin": far, "to": near, "units": ["a", "b"]}
        away = {"origin": near, "to": far, "units": ["a", "b"]}
        assert sense.move_score(toward) > 0 > sense.move_score(away)
        # the whole task force scores above part of it: escorts sail with what they escort
        assert sense.move_score(toward) > sense.move_score({**toward, "units": ["a"]})
        # a port is read as the sea areas it opens on (Wellington: the Tasman Sea and New Zealand)
        wellington = _world().place("Wellington").hex
        assert place_areas(f"{wellington[0]},{wellington[1]}") == {"TS", "NZ"}


def test_invasion_greedy_scores_an_objective_above_any_other_hex_and_above_a_move(tmp_path):
    with Game.new("guadalcanal", tmp_path / "g.wif", seed=3) as game:
        objectives = _objectives(game, "japan")
        sense = SeaSense(game, "japan", objectives)
        onto = sea_score(sense, {}, {"invasion": True, "hex": list(objectives[0])})
        beside = sea_score(sense, {}, {"invasion": True, "hex": [objectives[0][0] + 3, objectives[0][1]]})
        move = sea_score(sense, {"origin": "CO:0", "to": "CO", "units": ["x"] * 12}, {"naval_moves": 1})
        assert onto > beside > move
        assert sea_score(sense, {}, {"land_units": ["jp-south-seas"]}) > 0 == sea_score(sense, {}, {"land_units": []})
        carriers = sea_score(sense, {}, {"kind": "naval-air", "surprise_cost": 0})
        assert carriers > sea_score(sense, {}, {"kind": "surface", "surprise_cost": 0}) > 0
        assert sea_score(sense, {}, {"legal": True, "odds": 2.0}) is None  # not the sea's to judge


def test_invasion_greedy_japan_lands_from_a_transport_at_sea(tmp_path):
    """Seeds, "Invasion": a Japanese division aboard a transport at sea off Rabaul (New Guinea's
    Allied coast across the strait), Japan's Land action: in the Invasion step the greedy bot
    lands it on an Allied hex (a forced land attack), every offer accepted; the Ignore Notional
    phase's Overrun Check that follows has its rule (no 'no rule yet')."""
    from helpers import go_to, lab_game, place, rig, ship, unit

    g = lab_game(tmp_path / "v.wif", "guadalcanal")
    try:
        _rabaul_held_by(g, unit("jp-guard", "japan", RABAUL, combat=2, move=3))
        place(g, ship("jp-test-trs", "japan", "trs", RABAUL, attack=0, defense=1, aa=0),
              unit("jp-test-landers", "japan", RABAUL, combat=3, move=3, size="division"))
        rig(g, "RigAboard", actor="japan", ship="jp-test-trs", units=["jp-test-landers"])
        rig(g, "RigShipsAtSea", actor="japan", units=["jp-test-trs"], area=sorted(coastal_areas(RABAUL))[0],
            section=0)
        rig(g, "RigAction", power="japan", action="land")
        go_to(g, "turn.impulse.land.movement.invasion", turn=1, active_side="axis")
        start = g.state.kernel.seq
        tally = _greedy_until(g, lambda game: any(r.type == "StepStarted" and "overrun" in str(r.data.get("step"))
                                                  or r.type == "StepSkipped" and "overrun" in str(r.data.get("step"))
                                                  for r in game.history(start)), limit=200)
        assert tally.refused == []
        invaded = [r.data for r in g.history(start) if r.type == "AttackDeclared" and r.data.get("forced") == "invasion"]
        assert [(d["power"], d["units"]) for d in invaded] == [("japan", ["jp-test-landers"])]
        assert [r.data for r in g.history(1) if r.type == "StepSkipped" and r.data["reason"] == NO_RULE_YET] == []
    finally:
        g.close()


def test_stay_at_sea_greedy_japan_keeps_its_convoys_on_the_china_sea_lanes(tmp_path):
    """Seeds, "Stay At Sea": "convoys ... may remain at sea indefinitely"; Victory, Guadalcanal
    Special Victory Conditions: the Allies score the Japanese convoys short of 5 in the China
    Sea and the South China Sea at the end of each turn.  Greedy bots from the end of turn 1:
    Japan keeps its convoys at sea (the Allies score 0 for them), the loaded MO transports
    return to base as they must, and every offer made was accepted."""
    from helpers import go_to, lab_game

    g = lab_game(tmp_path / "s.wif", "guadalcanal")
    try:
        go_to(g, "turn.end-of-turn.stay-at-sea-phasing", turn=1, active_side="axis")
        tally = _greedy_until(g, lambda game: any(r.type == "ConvoyPointsScored" for r in game.history(1)))
        assert tally.refused == []
        assert tally.by_type.get("StayAtSea", 0) >= 1
        scored = next(r.data for r in g.history(1) if r.type == "ConvoyPointsScored")
        assert scored["points"] == {"CS": 0, "SC": 0}
        at_sea = g.state["naval"].at_sea
        assert {u for u in at_sea if u.startswith("jp-convoy")} == {f"jp-convoy-{a}{n}" for a in ("cs", "sc")
                                                                   for n in (1, 2, 3)}
        assert "jp-trs2" not in at_sea  # a transport carrying cargo must return
    finally:
        g.close()


def test_stay_at_sea_and_port_attack_scores_of_the_greedy_bot(tmp_path):
    """The greedy bot's scores: a convoy stays at sea, a warship far from any objective goes
    home; a port attack is worth flying by the enemy ships in the port, carriers first
    ("Port Attack": "Bombers may only fly this mission if there is a viable naval target")."""
    with Game.new("guadalcanal", tmp_path / "g.wif", seed=3) as game:
        japan = SeaSense(game, "japan", _objectives(game, "japan"))
        assert japan.stay_score({"units": ["jp-convoy-cs1"]}) > 0
        stay = sea_score(japan, {"type": "StayAtSea", "units": ["jp-convoy-cs1", "jp-convoy-cs2"]}, {"units": {}})
        assert stay == 2 * japan.stay_score({"units": ["jp-convoy-cs1"]})
        assert japan.convoys(["jp-convoy-sc1", "jp-akagi"]) == {"jp-convoy-sc1"}
        review = game.host.pm.hook.naval_review(state=game.state)
        ports = {loc["name"]: loc for loc in review["locations"] if loc["kind"] == "port"}
        carriers = next(loc for loc in ports.values() if loc["sides"].get("allies", {}).get("carriers"))
        japanese = next(loc for loc in ports.values() if set(loc["sides"]) == {"axis"})
        bombing = {"mission": "Port Attack", "role": "bomber", "hex": carriers["hex"]}
        assert sea_score(japan, {"type": "FlyMission"}, bombing) > 1.0
        assert sea_score(japan, {"type": "FlyMission"}, {**bombing, "hex": japanese["hex"]}) == 0.0
        assert sea_score(japan, {"type": "FlyMission"}, {**bombing, "role": "escort"}) is None


def test_invasion_random_bot_with_land_units_at_sea_mostly_picks_an_action_that_lands_them(tmp_path):
    """Seeds, "Invasion": only a power that chose a Land or Combined action invades.  The random
    bot finishes a chain it started (land units at sea): with a transport at sea off Rabaul and
    a Japanese division aboard, Japan's first action is Land or Combined for most bot seeds
    (uniform picks: 2 in 5)."""
    from helpers import go_to, lab_game, place, rig, ship, unit

    game = lab_game(tmp_path / "g.wif", "guadalcanal")
    try:
        place(game, ship("jp-test-trs", "japan", "trs", RABAUL, attack=0, defense=1, aa=0),
              unit("jp-test-landers", "japan", RABAUL, combat=2, move=3, size="division"))
        rig(game, "RigAboard", actor="japan", ship="jp-test-trs", units=["jp-test-landers"])
        rig(game, "RigShipsAtSea", actor="japan", units=["jp-test-trs"], area=sorted(coastal_areas(RABAUL))[0],
            section=0)
        go_to(game, "turn.impulse.new-impulse.choose-action", turn=1, active_side="axis")
        decision = next(d for d in game.choices(None).decisions if d.decider == "japan")
        assert "jp-test-trs" in game.state["naval"].at_sea
        actions = [Bot("random", seed).choose(game, decision, None)["action"] for seed in range(20)]
        assert sum(a in ("land", "combined") for a in actions) >= 14, actions
        assert len(set(actions)) > 2, "still random"
    finally:
        game.close()


def test_stay_at_sea_random_bot_mostly_keeps_the_convoys_on_their_lanes(tmp_path):
    """Seeds, "Stay At Sea": "convoys ... may remain at sea indefinitely"; Guadalcanal's Allies
    score the Japanese convoy points short of 5 in the China Sea and the South China Sea.  The
    random bot keeps its convoys at sea most of the time (uniform subsets: about half the
    seeds sent some home on turn 1), still random in what else stays, every offer accepted."""
    from helpers import go_to, lab_game

    kept, stayed_others = 0, set()
    for seed in range(6):
        g = lab_game(tmp_path / f"r{seed}.wif", "guadalcanal")
        try:
            go_to(g, "turn.end-of-turn.stay-at-sea-phasing", turn=1, active_side="axis")
            bots = {side: Bot("random", 10 * seed + i) for i, side in enumerate(sorted(g.state.kernel.sides))}
            tally = Tally()
            while (tally.decisions < 200 and not any(r.type == "ConvoyPointsScored" for r in g.history(1))
                   and play_pending(g, bots, tally)):
                pass
            assert tally.refused == []
            scored = next(r.data for r in g.history(1) if r.type == "ConvoyPointsScored")
            kept += scored["points"] == {"CS": 0, "SC": 0}
            stayed_others |= {u for r in g.history(1) if r.type == "NavalGroupMoved" and r.data["impulse"] == -1
                              for u in r.data["units"] if "convoy" not in u}
        finally:
            g.close()
    assert kept >= 5, kept
    assert stayed_others, "still random: warships stay at sea now and then"


def test_naval_movement_random_bot_mostly_leaves_the_convoys_on_their_lanes(tmp_path):
    """Seeds, "Naval Movement" and Guadalcanal's convoy victory points: random Japan sailed its
    South China Sea convoys into port and never back.  A naval move from the China Sea, where
    the Kongo is rigged beside Japan's three convoys: the random bot moves a convoy for few
    seeds (uniform subsets: nearly always), still moves the Kongo, and every command it builds
    is accepted."""
    from dataclasses import replace

    from helpers import go_to, lab_game, rig

    g = lab_game(tmp_path / "m.wif", "guadalcanal")
    try:
        rig(g, "RigAction", power="japan", action="naval")
        rig(g, "RigShipsAtSea", actor="japan", units=["jp-kongo"], area="CS", section=0)
        go_to(g, "turn.impulse.naval.naval-movement", turn=1, active_side="axis")
        decision = next(d for d in g.choices(None).decisions if d.decider == "japan")
        move = decision.find("MoveNavalGroup")[0]
        china_sea = [o for o in move.fields[0].all_options() if o.value == "CS:0"]
        narrowed = replace(move, fields=[replace(move.fields[0], options=china_sea)])
        cmds = [Bot("random", seed).choose(g, replace(decision, commands=[narrowed]), None) for seed in range(20)]
        moved = [set(c["units"]) for c in cmds if c is not None]
        assert all(g.dry_run(c).accepted for c in cmds if c is not None)
        assert sum(any(u.startswith("jp-convoy") for u in units) for units in moved) <= 6, moved
        assert sum("jp-kongo" in units for units in moved) >= 8, moved
    finally:
        g.close()


# ---------------------------------------------------------------- Victory: what a side holds and wants back


def _rabaul_held_by(game, *japanese: dict, allied: tuple = ()):
    """Rabaul garrisoned by ``japanese`` alone (the set-up's land units there sent to Tokyo), with
    ``allied`` land units placed: the lab position of the tests below."""
    from helpers import place, unit

    tokyo = _world().place("Tokyo").hex
    others = [u for u in game.state["units"].units.values()
              if u.branch == "land" and u.where == "map" and u.hex is not None and tuple(u.hex) == RABAUL]
    place(game, *[{**u.model_dump(), "hex": list(tokyo)} for u in others], *japanese, *allied)


def test_victory_greedy_keeps_a_threatened_objective_garrisoned_and_sends_help(tmp_path):
    """Guadalcanal Special Victory Conditions: an objective the enemy takes scores it 5.  An
    American unit lands three hexes from Rabaul, held by one Japanese unit: in Japan's land
    movement the greedy bot does not march that garrison off (towards the Allied objectives, as
    it would elsewhere), and moves the unit next door onto Rabaul; every command it builds is
    accepted."""
    from dataclasses import replace

    from helpers import go_to, lab_game, rig, unit

    g = lab_game(tmp_path / "d.wif", "guadalcanal")
    try:
        _rabaul_held_by(g, unit("jp-guard", "japan", RABAUL, combat=3, move=4),
                        unit("jp-relief", "japan", (331, 126), combat=3, move=4),
                        allied=[unit("us-raiders", "usa", (330, 123), combat=2, move=3)])
        rig(g, "RigAction", power="japan", action="land")
        go_to(g, "turn.impulse.land.movement.land-movement", turn=1, active_side="axis")
        sense = LandSense(g, "japan", _objectives(g, "japan"))
        assert RABAUL in sense.threatened and sense.garrison[RABAUL] == 1
        assert sense.move_score("jp-guard", (333, 125)) < 0 < sense.move_score("jp-relief", RABAUL)
        decision = next(d for d in g.choices(None).decisions if d.decider == "japan")
        move = decision.find("MoveLandUnit")[0]
        ours = [o for o in move.fields[0].all_options() if o.value in ("jp-guard", "jp-relief")]
        narrowed = replace(decision, commands=[replace(move, fields=[replace(move.fields[0], options=ours)])])
        chosen = [Bot("greedy", seed).choose(g, narrowed, None) for seed in range(3)]
        assert all(c["unit"] == "jp-relief" and tuple(c["to"]) == RABAUL for c in chosen), chosen
        assert all(g.dry_run(c).accepted for c in chosen)
        # with no enemy near, the same garrison is free to go: nothing holds it
        far = LandSense(g, "japan", _objectives(g, "japan"))
        far.threatened.clear()
        far.needy.clear()
        assert far.move_score("jp-guard", (333, 125)) > sense.move_score("jp-guard", (333, 125))
    finally:
        g.close()


def test_victory_greedy_sails_to_a_threatened_objectives_sea_area(tmp_path):
    """An enemy task force beside an objective the side holds threatens an invasion: the sea
    areas beside that objective become the greedy bot's task forces' targets too (it holds
    them as it sails for the enemy's objectives)."""
    from helpers import lab_game, rig

    g = lab_game(tmp_path / "n.wif", "guadalcanal")
    try:
        _rabaul_held_by(g)
        beside = sorted(coastal_areas(RABAUL))
        quiet = LandSense(g, "japan", _objectives(g, "japan"))
        rig(g, "RigShipsAtSea", actor="usa", units=["us-lexington"], area=beside[0], section=0)
        sense = LandSense(g, "japan", _objectives(g, "japan"))
        assert RABAUL in sense.threatened and RABAUL not in quiet.threatened
        sea = SeaSense(g, "japan", _objectives(g, "japan"), sense.defended())
        assert set(beside) <= sea.target_areas
        without = SeaSense(g, "japan", _objectives(g, "japan"))
        far = max(_world().sea_areas, key=sea.distance)
        assert not set(beside) & without.target_areas, "no Allied objective lies on Rabaul's seas"
        assert sea.move_score({"origin": far, "to": beside[0], "units": ["x"]}) > 0
    finally:
        g.close()


def test_victory_greedy_wants_a_lost_objective_back_first(tmp_path):
    """An objective the enemy took from the side (the Victory form's row credits the enemy
    with it) is worth more to march on than one of the enemy's own: the same step towards
    each, the lost one scores higher."""
    from helpers import control, lab_game, unit

    g = lab_game(tmp_path / "l.wif", "guadalcanal")
    try:
        _rabaul_held_by(g, unit("jp-back", "japan", (330, 123), combat=3, move=4))
        control(g, RABAUL, "usa")
        sense = LandSense(g, "japan", _objectives(g, "japan"))
        assert RABAUL in sense.lost
        toward = sense.move_score("jp-back", (331, 126))
        assert toward > 1.0 >= sense.move_score("jp-back", (329, 127)), toward
    finally:
        g.close()


def test_invasion_greedy_lands_where_few_defend(tmp_path):
    """Seeds, "Invasion": the invading units attack the hex they land in.  The greedy bot
    scores an invasion less for each enemy land combat factor on the map there (Japan's
    landings on a garrisoned Sydney never held): an undefended objective first, a weakly held
    one above a hex near it, a strongly held one not at all."""
    from helpers import lab_game, place, unit

    g = lab_game(tmp_path / "i.wif", "guadalcanal")
    try:
        canberra, sydney = _world().place("Canberra").hex, (330, 161)
        place(g, unit("us-test-guard", "usa", sydney, combat=12, move=3))
        land = LandSense(g, "japan", _objectives(g, "japan"))
        sense = SeaSense(g, "japan", _objectives(g, "japan"), enemy_combat=land.enemy_combat)
        assert land.enemy_combat[sydney] >= 12
        assert sydney in sense.objectives or sydney in land.wanted
        assert sense.invade_score(sydney) <= 0
        weakly = {**land.enemy_combat, tuple(canberra): 2.0}
        held = SeaSense(g, "japan", _objectives(g, "japan"), enemy_combat=weakly)
        empty = SeaSense(g, "japan", _objectives(g, "japan"), enemy_combat={})
        assert empty.invade_score(canberra) > held.invade_score(canberra) > held.invade_score((canberra[0] + 2,
                                                                                                canberra[1]))
        # a division of 1 does not invade a hex 3 defend; a corps of 2 does
        weak = SeaSense(g, "japan", _objectives(g, "japan"), enemy_combat={tuple(canberra): 3.0},
                        combat={"div": 1, "corps": 2})
        assert weak.invade_score(canberra, "div") == 0 < weak.invade_score(canberra, "corps")
    finally:
        g.close()


def test_victory_greedy_the_last_unit_on_an_objective_stays(tmp_path):
    """An objective left empty is the enemy's for the walking in (or the landing): the last
    land unit of the side on an objective it holds is not embarked, and marching it off scores
    below the same march by a unit that is not the last (Guadalcanal: greedy Japan embarked the
    Truk garrison to invade Sydney)."""
    from helpers import lab_game, unit

    g = lab_game(tmp_path / "k.wif", "guadalcanal")
    try:
        _rabaul_held_by(g, unit("jp-guard", "japan", RABAUL, combat=1, move=3))
        land = LandSense(g, "japan", _objectives(g, "japan"))
        assert "jp-guard" in land.last_guards and RABAUL not in land.threatened
        sea = SeaSense(g, "japan", _objectives(g, "japan"), keep=land.last_guards)
        assert sea.embark_score({"land_units": ["jp-guard"]}) == 0 < sea.embark_score({"land_units": ["jp-other"]})
        _rabaul_held_by(g, unit("jp-guard", "japan", RABAUL, combat=1, move=3),
                        unit("jp-second", "japan", RABAUL, combat=1, move=3))
        two = LandSense(g, "japan", _objectives(g, "japan"))
        assert not two.last_guards & {"jp-guard", "jp-second"}
        assert land.move_score("jp-guard", (333, 125)) < two.move_score("jp-guard", (333, 125))
    finally:
        g.close()


# ---------------------------------------------------------------- Air Rebase: carrier planes waiting ashore


def test_air_rebase_greedy_sails_an_empty_carrier_to_a_carrier_plane_ashore_and_boards_it(tmp_path):
    """Ships in Flames 8.5: a carrier plane ashore rebases onto a carrier "up to double its
    range".  The USA's Jul/Aug carrier plane arrives at San Diego (no carrier there has room);
    Enterprise, in Honolulu, has lost her air group.  In a naval impulse the greedy bot sails
    Enterprise alone (the Honolulu task force leaves without her) to where the plane reaches,
    and in that impulse's Air Rebase it puts the plane aboard her; every command accepted."""
    from dataclasses import replace

    from helpers import go_to, lab_game, ok, place, rig

    g = lab_game(tmp_path / "f.wif", "guadalcanal")
    try:
        go_to(g, "turn.new-turn.reinforcements", turn=2)
        rig(g, "RigAction", actor="usa", power="usa", action="air")
        go_to(g, "turn.impulse.air-rebase.air-rebase", turn=2, active_side="allies")
        honolulu, san_diego = _world().port("Honolulu").hex, _world().port("San Diego").hex
        ok(g, type="RebaseCarrierAirUnit", actor="usa", unit="us-enterprise-air", to="{},{}".format(*honolulu))
        lost = g.state["units"].units["us-enterprise-air"]
        place(g, {**lost.model_dump(), "where": "eliminated", "hex": None})
        assert tuple(g.state["units"].units["us-cvp-julaug"].hex) == tuple(san_diego)
        rig(g, "RigAction", actor="usa", power="usa", action="naval")
        go_to(g, "turn.impulse.naval.naval-movement", turn=2, active_side="allies")
        sense = SeaSense(g, "usa", _objectives(g, "usa"))
        planes, empty = sense.ferry()
        assert (tuple(san_diego), 8) in planes and empty == {"us-enterprise": "{},{}".format(*honolulu)}
        decision = next(d for d in g.choices(None).decisions if d.decider == "usa")
        move = decision.find("MoveNavalGroup")[0]
        cmd = Bot("greedy", 1).choose(g, replace(decision, commands=[move]), None)
        assert cmd["units"] == ["us-enterprise"], cmd
        assert sense.ferry_distance(cmd["to"]) == 0 < sense.ferry_distance(cmd["origin"]), cmd
        assert "," in cmd["to"], "into a port the plane reaches, where the carrier waits for it"
        for fleet in sea_move_candidates(move, random.Random(1), sense):
            assert fleet["units"] == ["us-enterprise"] or "us-enterprise" not in fleet["units"], fleet
        ok(g, cmd)
        go_to(g, "turn.impulse.air-rebase.air-rebase", turn=2, active_side="allies")
        decision = next(d for d in g.choices(None).decisions if d.find("RebaseCarrierAirUnit"))
        board = Bot("greedy", 1).choose(g, decision, None)
        assert board == {**board, "type": "RebaseCarrierAirUnit", "unit": "us-cvp-julaug", "to": "us-enterprise"}, board
        ok(g, board)
    finally:
        g.close()


# ---------------------------------------------------------------- Victory: holding what the invasion took


def test_victory_greedy_lands_a_garrison_on_a_threatened_objective_it_holds(tmp_path):
    """Guadalcanal Special Victory Conditions: a captured objective scores only while held, and
    a lone invader is easily taken back (greedy Japan's Calcutta, held by the 25th Army HQ, fell
    to a 4:1 attack).  Rabaul held by one weak unit, an American unit three hexes off: in the
    Unload Land Units step ("Embark/Debark Units": organized land units from a TRS at sea) the
    greedy bot lands the division aboard a transport beside Rabaul on Rabaul; accepted."""
    from helpers import go_to, lab_game, place, rig, ship, unit

    g = lab_game(tmp_path / "u.wif", "guadalcanal")
    try:
        _rabaul_held_by(g, unit("jp-guard", "japan", RABAUL, combat=1, move=3),
                        allied=[unit("us-raiders", "usa", (330, 123), combat=2, move=3)])
        place(g, ship("jp-test-trs", "japan", "trs", RABAUL, attack=0, defense=1, aa=0),
              unit("jp-test-landers", "japan", RABAUL, combat=3, move=3, size="division"))
        rig(g, "RigAboard", actor="japan", ship="jp-test-trs", units=["jp-test-landers"])
        rig(g, "RigShipsAtSea", actor="japan", units=["jp-test-trs"], area=sorted(coastal_areas(RABAUL))[0],
            section=0)
        rig(g, "RigAction", power="japan", action="land")
        go_to(g, "turn.impulse.land.movement.unload-land-units", turn=1, active_side="axis")
        land = LandSense(g, "japan", _objectives(g, "japan"))
        assert land.needs_garrison(RABAUL)
        decision = next(d for d in g.choices(None).decisions if d.decider == "japan")
        assert decision.find("DebarkUnit"), [c.type for c in decision.commands]
        cmd = Bot("greedy", 1).choose(g, decision, None)
        assert cmd["type"] == "DebarkUnit" and tuple(cmd["hex"]) == RABAUL, cmd
        assert g.dry_run(cmd).accepted
        # not where nothing needs holding
        sea = SeaSense(g, "japan", _objectives(g, "japan"), needy=land.needy)
        assert sea.landing_score(RABAUL) > 0 == sea.landing_score((RABAUL[0] + 2, RABAUL[1]))
    finally:
        g.close()


def test_invasion_greedy_embarks_the_strongest_and_sails_the_cargo_for_an_objective(tmp_path):
    """The invader becomes the captured objective's garrison: the greedy bot embarks its
    strongest land unit first (a corps before an HQ), and its loaded transports may sail on
    their own for the sea areas beside the objectives to invade (the rest of the fleet may be
    wanted elsewhere): nearer scores, away does not."""
    from helpers import lab_game

    g = lab_game(tmp_path / "c.wif", "guadalcanal")
    try:
        objectives = _objectives(g, "japan")
        sense = SeaSense(g, "japan", objectives, cargo=["jp-test-trs"], unit_hex={"jp-test-trs": RABAUL},
                         combat={"jp-hq": 1, "jp-corps": 4})
        assert sense.embark_score({"land_units": ["jp-corps"]}) > sense.embark_score({"land_units": ["jp-hq"]}) > 0
        near = min(sense.invade_areas, key=lambda a: _distances_from(a, RABAUL))
        far = max(_world().sea_areas, key=sense.cargo_distance)
        assert sense.cargo_distance(near) == 0 < sense.cargo_distance(far)
        port = "{},{}".format(*RABAUL)
        toward = sense.move_score({"origin": port, "to": near, "units": ["jp-test-trs"]})
        away = sense.move_score({"origin": port, "to": far, "units": ["jp-test-trs"]})
        assert toward > 0 > away
    finally:
        g.close()


def _distances_from(area: str, hex_) -> int:
    return min(_world().grid.distance(tuple(hex_), tuple(h)) for h in _world().hexes_of_sea_area(area))
