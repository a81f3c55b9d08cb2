"""Supply and reorganization, each test named after the seed section it checks.

Situations are built in the lab scenario on the real map.  Places used:
- Orenburg (234,55), a Soviet city in the steppe: the nearest other cities are far, so a
  Soviet unit at (236,57) is 3 hexes from its only source and one at (237,58) 4 hexes;
- the Turkestan railway through (241,63), 8+ hexes from any city;
- western USSR handed to Germany (hex control) for German HQ chains in Barbarossa country.
"""

from functools import partial

import helpers
from kernel.game import Game
from plugins.rules import core
from plugins.rules.supply import (
    has_basic_supply_path,
    in_supply,
    out_of_supply,
    supply_map,
    supply_range,
    supply_sources,
    trace,
)

HQ = {"type": "hq", "factors": {"combat": 2, "move": 4, "reorg": 2}}
unit = partial(helpers.unit, move=3)  # an infantry army, 4-3


def every_zone(weather):
    return {str(z): weather for z in range(1, 7)}


def lab(save, units, **options):
    return Game.new("lab", save, seed=3, options={"units": units, **options}, extra_plugins=["supply"])


def rigged(save, units, **options):
    """The same situation in a lab game, which the rig may change (docs/MODDING.md)."""
    return helpers.lab_game(save, seed=3, options={"units": units, **options}, extra_plugins=["supply"])


def west_to_germany():
    """Barbarossa country: Poland and the USSR west of Smolensk under German control."""
    wm = core.world_map()
    west = {core.hex_key(h): "germany" for h in wm.hexes_of_country("SU") if h[0] <= 211 and 44 <= h[1] <= 60}
    return {"countries": {"GE": "germany", "SU": "ussr", "PL": "germany"}, "hex_control": west}


# ---------------------------------------------------------------- Supply Sources and Paths
def test_supply_sources_and_paths_primary_city(save):
    game = lab(save, [unit("s3", "ussr", (236, 57)), unit("s4", "ussr", (237, 58)),
                      unit("far", "ussr", (238, 63))], weather=every_zone("fine"))
    state = game.state
    assert in_supply(state, "s3") and in_supply(state, "s4")  # 3 and 4 hexes from Orenburg
    assert not in_supply(state, "far")  # 8+ hexes from any city, no HQ
    allied = supply_map(state, "allies")
    assert (236, 57) in allied and (234, 55) in allied and (238, 63) not in allied
    assert out_of_supply(state, "allies") == ["far"]
    # the same hexes are not in supply for the Axis: Soviet cities are not German sources
    assert (236, 57) not in supply_map(state, "axis")
    game.close()


def test_supply_sources_and_paths_units_at_sea_and_partisans_always_in_supply(save):
    game = lab(save, [unit("p1", "ussr", (238, 63), type="partisan"),
                      {"id": "n1", "power": "germany", "branch": "naval", "type": "trs", "hex": [180, 50]}])
    assert core.world_map().is_sea((180, 50))
    assert in_supply(game.state, "p1") and in_supply(game.state, "n1")
    game.close()


def test_supply_sources_and_paths_railway_path_from_hq(save):
    """An HQ is a secondary source when it traces a railway path to a primary source: the
    hexes entered along the railway are free, so the HQ 8 hexes from Orenburg qualifies."""
    far = unit("s5", "ussr", (238, 63))
    game = lab(save, [far, unit("hq1", "ussr", (241, 63), name="Turkestan HQ", **HQ)])
    assert supply_sources(game.state, "ussr") == {(241, 63): "secondary"}
    assert in_supply(game.state, "s5")  # 3 hexes from the HQ
    game.close()


def test_supply_sources_and_paths_railway_cut_by_enemy_zoc(tmp_path):
    """Enemy units astride the railway on both sides of the HQ cut its railway path; one
    cut alone is bypassed the other way."""
    base = [unit("s5", "ussr", (238, 63)), unit("hq1", "ussr", (241, 63), **HQ)]
    one = lab(tmp_path / "one.wif", base + [unit("g1", "germany", (238, 59))])
    assert in_supply(one.state, "s5")
    one.close()
    both = lab(tmp_path / "both.wif", base + [unit("g1", "germany", (238, 59)), unit("g2", "germany", (245, 66))])
    assert supply_sources(both.state, "ussr") == {}
    assert not in_supply(both.state, "s5") and not in_supply(both.state, "hq1")
    both.close()


def test_supply_sources_and_paths_tertiary_source(tmp_path):
    """Rain (range 2): HQ 1 on the railway is a secondary source; HQ 2, 3 hexes off the
    railway, is too far for a railway path but 2 hexes from HQ 1: a tertiary source."""
    options = {**west_to_germany(), "weather": every_zone("rain")}
    g_unit = unit("g9", "germany", (210, 60))
    chain = [unit("hq1", "germany", (207, 58), **HQ), unit("hq2", "germany", (208, 60), **HQ)]
    game = lab(tmp_path / "chain.wif", [g_unit, *chain], **options)
    sources = supply_sources(game.state, "germany")
    assert sources[(207, 58)] == "secondary" and sources[(208, 60)] == "tertiary"
    assert sources[(201, 54)] == "secondary"  # Warsaw: capital of a minor Germany controls
    assert in_supply(game.state, "g9")
    game.close()
    alone = lab(tmp_path / "alone.wif", [g_unit, chain[1]], **options)
    assert (208, 60) not in supply_sources(alone.state, "germany")
    assert not in_supply(alone.state, "g9")
    alone.close()


def test_supply_sources_and_paths_blocked_by_enemy_zoc(tmp_path):
    """'You can't trace any supply path into an enemy ZOC (unless the hex contains a
    friendly land unit)'."""
    target = unit("s3", "ussr", (236, 57))
    german = unit("g1", "germany", (235, 56))
    cut = lab(tmp_path / "cut.wif", [target, german])
    assert not in_supply(cut.state, "s3")
    cut.close()
    peace = lab(tmp_path / "peace.wif", [target, german], at_war=[])
    assert in_supply(peace.state, "s3")  # not at war: no enemy ZOC
    peace.close()
    held = [unit("s7", "ussr", (236, 56)), unit("s8", "ussr", (235, 55)), unit("s1", "ussr", (234, 55))]
    friends = lab(tmp_path / "held.wif", [target, german, *held])
    assert in_supply(friends.state, "s3")  # friendly units in every ZOC hex of the path
    friends.close()


def test_supply_sources_and_paths_no_path_into_enemy_or_neutral_hexes(tmp_path):
    ring = core.world_map().grid.neighbours((236, 57))
    game = lab(tmp_path / "a.wif", [unit("s3", "ussr", (236, 57))],
               hex_control={core.hex_key(h): "germany" for h in ring})
    assert not in_supply(game.state, "s3")  # surrounded by German-controlled hexes
    assert not has_basic_supply_path(game.state, "s3")
    game.close()
    neutral = lab(tmp_path / "b.wif", [unit("s3", "ussr", (236, 57))], countries={"GE": "germany"})
    assert not in_supply(neutral.state, "s3")  # the USSR's own hexes neutral: no path, no source
    neutral.close()


# ---------------------------------------------------------------- Weather Report
def test_weather_report_supply_range(tmp_path):
    """'The supply range ... in fine weather is 4 hexes ... in snow only 3 ... in rain,
    storm or blizzard only 2'; desert hexes suffer milder weather."""
    units = [unit("s3", "ussr", (236, 57)), unit("s4", "ussr", (237, 58))]
    expected = {"fine": (True, True), "snow": (True, False), "rain": (False, False),
                "storm": (False, False), "blizzard": (False, False)}
    for weather, (three, four) in expected.items():
        game = lab(tmp_path / f"{weather}.wif", units, weather=every_zone(weather))
        assert (in_supply(game.state, "s3"), in_supply(game.state, "s4")) == (three, four), weather
        assert supply_range(game.state, (236, 57)) == {"fine": 4, "snow": 3}.get(weather, 2)
        if weather in ("rain", "storm"):
            assert has_basic_supply_path(game.state, "s4")  # any length: still a path
        if weather == "blizzard":
            assert supply_range(game.state, (239, 60)) == 3  # desert: blizzard acts as snow
        game.close()


# ---------------------------------------------------------------- Reorganization by HQ
def reorg_game(save, units):
    return lab(save, units, active_side="allies", actions={"ussr": "land"},
               start_at="turn.impulse.end-of-impulse.reorganization-by-hq")


def test_reorganization_by_hq(save):
    units = [unit("hq1", "ussr", (236, 57), name="Southern HQ", **HQ),
             unit("s1", "ussr", (236, 56), face_up=False), unit("s2", "ussr", (237, 57), face_up=False),
             unit("s3", "ussr", (235, 57), face_up=False), unit("s4", "ussr", (241, 63), face_up=False)]
    game = reorg_game(save, units)
    assert game.state.kernel.sequence.current == "wif.turn.impulse.end-of-impulse.reorganization-by-hq"
    assert game.state.kernel.sequence.pending == ["ussr"]

    before = game.state.kernel.seq
    bad = game.submit({"type": "HQReorganize", "actor": "ussr", "hq": "hq1", "unit": "s4"})
    assert not bad.accepted and "reorganization range" in bad.reason
    bad = game.submit({"type": "HQReorganize", "actor": "ussr", "hq": "s1", "unit": "s2"})
    assert not bad.accepted and "not an HQ" in bad.reason
    assert game.state.kernel.seq == before  # nothing appended

    first = game.submit({"type": "HQReorganize", "actor": "ussr", "hq": "hq1", "unit": "s1"})
    assert first.accepted, first.reason
    assert [(e.type, e.data) for e in first.events] == [
        ("HQReorganized", {"hq": "hq1", "unit": "s1", "points": 1, "points_left": 1, "organized": True}),
        ("UnitFlipped", {"unit": "s1", "face_up": True}),
        ("UnitFlipped", {"unit": "hq1", "face_up": False}),  # the HQ becomes disorganized
    ]
    assert "Southern HQ reorganizes s1" in game.describe(first.events[0])
    # its second point may still be spent this phase, then it has none
    second = game.submit({"type": "HQReorganize", "actor": "ussr", "hq": "hq1", "unit": "s2"})
    assert [e.type for e in second.events] == ["HQReorganized", "UnitFlipped"]
    third = game.submit({"type": "HQReorganize", "actor": "ussr", "hq": "hq1", "unit": "s3"})
    assert not third.accepted and "no reorganization points left" in third.reason
    again = game.submit({"type": "HQReorganize", "actor": "ussr", "hq": "hq1", "unit": "s1"})
    assert not again.accepted
    units_now = game.state["units"].units
    assert units_now["s1"].face_up and units_now["s2"].face_up and not units_now["s3"].face_up
    assert not units_now["hq1"].face_up
    done = game.submit({"type": "FinishStep", "actor": "ussr"})
    assert done.accepted
    game.close()


def test_reorganization_by_hq_disorganized_hq_cannot(save):
    units = [unit("hq1", "ussr", (236, 57), face_up=False, **HQ), unit("s1", "ussr", (236, 56), face_up=False),
             unit("hq2", "ussr", (241, 63), **HQ)]
    game = reorg_game(save, units)
    # hq2 has nobody in range, hq1 is disorganized: nothing to do, the phase is skipped
    skipped = [e for e in game.history() if e.type == "StepSkipped"
               and e.data["step"].endswith("reorganization-by-hq")]
    assert skipped and "no HQ of the phasing side" in skipped[0].data["reason"]
    game.close()


# ---------------------------------------------------------------- End of Turn Reorganization
def test_end_of_turn_reorganization(save):
    units = [unit("s1", "ussr", (236, 56), face_up=False), unit("g1", "germany", (200, 52), face_up=False),
             unit("s2", "ussr", (236, 57)), unit("pool", "ussr", None, where="force-pool", face_up=False)]
    game = lab(save, units, start_at="turn.end-of-turn.end-of-turn-reorganization")
    events = [e for e in game.history() if e.step == "wif.turn.end-of-turn.end-of-turn-reorganization"
              and e.type in ("UnitFlipped", "EndOfTurnReorganized")]
    assert [(e.type, e.data) for e in events] == [
        ("UnitFlipped", {"unit": "g1", "face_up": True}),
        ("UnitFlipped", {"unit": "s1", "face_up": True}),
        ("EndOfTurnReorganized", {"units": ["g1", "s1"]}),
    ]
    assert game.describe(events[-1]) == "End of Turn Reorganization: 2 disorganized units reorganized"
    assert not game.state["units"].units["pool"].face_up  # only units on the map
    game.close()


def test_supply_is_recomputed_after_every_event(save):
    """The cache is per state and event: a move that cuts a path shows at once."""
    game = rigged(save, [unit("s3", "ussr", (236, 57)), unit("g1", "germany", (200, 52))])
    assert in_supply(game.state, "s3")
    assert helpers.types(helpers.place(game, unit("g1", "germany", (235, 56)))) == ["UnitMoved"]
    assert not in_supply(game.state, "s3")
    trace.clear_cache()
    assert not in_supply(game.state, "s3")
    game.close()


# ---------------------------------------------------------------- Supply Sources and Paths: cities lost this turn, conquest
ORENBURG = (234, 55)


def test_supply_sources_and_paths_city_controlled_by_the_other_side_this_turn(save):
    """"A city can only be a supply source for a unit if it has not been controlled by the
    other side at any time in the turn": Orenburg taken and retaken this turn supplies nobody
    until the next turn."""
    game = rigged(save, [unit("s3", "ussr", (236, 57))], weather=every_zone("fine"))
    assert in_supply(game.state, "s3")
    helpers.control(game, ORENBURG, "germany")
    helpers.control(game, ORENBURG, None)
    state = game.state
    assert core.hex_controller(state, ORENBURG) == "ussr"
    assert core.controllers_this_turn(state, ORENBURG) == ["germany", "ussr"]
    assert not in_supply(state, "s3")
    # a new turn: only this turn's changes count
    helpers.go_to(game, "turn.impulse.land.movement.land-movement", turn=2)
    assert game.state.kernel.turn == 2
    assert core.controllers_this_turn(game.state, ORENBURG) == []
    assert in_supply(game.state, "s3")
    game.close()


def test_supply_sources_and_paths_unconquered_home_country(save):
    """Primary sources are friendly cities in an *unconquered* home country; the capital of a
    country conquered by the unit's side is a secondary source instead."""
    game = rigged(save, [unit("s3", "ussr", (236, 57))], weather=every_zone("fine"))

    moscow = core.world_map().city(core.world_map().countries["SU"].capital).hex
    helpers.control(game, moscow, "germany")
    helpers.rig(game, "RigConquest", country="SU", conqueror="germany")
    assert core.conquered_by(game.state, "SU") == "germany"
    assert not in_supply(game.state, "s3")
    assert trace.Tracer(game.state, "germany").secondary_candidates().get(moscow) == "capital of conquered SU"
    helpers.rig(game, "RigConquest", country="SU", conqueror=None)  # liberated
    assert in_supply(game.state, "s3")
    game.close()


def test_ignore_notional_minus_one_without_a_basic_supply_path(save):
    """Ignore Notional: the notional unit has "-1 if it cannot trace a basic supply path of
    any length" — a Soviet hex cut off from every Soviet city by Axis control."""
    from plugins.rules.combat.odds import notional_factors
    from plugins.rules.supply import hex_has_basic_supply_path

    game = lab(save, [])
    state = game.state
    assert hex_has_basic_supply_path(state, "ussr", (236, 57))
    with_path = notional_factors(state, (236, 57), [])
    game.close()
    cut = {core.hex_key(h): "germany" for h in core.world_map().grid.neighbours((236, 57))}
    game = Game.new("lab", save.with_name("cut.wif"), seed=3, options={"units": [], "hex_control": cut},
                    extra_plugins=["supply", "combat"])
    assert not hex_has_basic_supply_path(game.state, "ussr", (236, 57))
    assert notional_factors(game.state, (236, 57), []) == with_path - 1
    game.close()


def _impulse_begun(save, units):
    """A lab game with the air plugin played to the end of its first action choice: the
    ImpulseSupplyRecorded events (if any) and the game."""
    game = Game.new("lab", save, seed=3, extra_plugins=["supply", "turn", "air"], options={
        "units": units, "start_at": "turn", "active_side": None})
    for _ in range(40):
        seq = game.state.kernel.sequence
        if seq.current.endswith("choose-action") and game.state.kernel.active_side:
            out = game.submit({"type": "ChooseAction", "actor": seq.pending[0], "action": "land"})
            assert out.accepted, out.reason
            break
        who = seq.pending[0]
        if seq.current.endswith("move-first-decision"):
            cmd = {"type": "ChooseFirstMover", "actor": who, "side": "allies"}
        else:
            cmd = {"type": "FinishStep", "actor": who}
        out = game.submit(cmd)
        assert out.accepted, out.reason
    return [r for r in game.history(1) if r.type == "ImpulseSupplyRecorded"], game


def test_air_transport_landing_cargo_that_commenced_the_impulse_out_of_supply(save):
    """Air Transport Landing: cargo "only becomes disorganized if it commenced the impulse
    out of supply" — once the actions are chosen, before anything moves, the land units out of
    supply are recorded for the phasing side when one of its powers may fly an air transport
    (an ATR on the map, an action allowing Air Transport)."""
    from plugins.rules.supply import began_impulse_out_of_supply

    recorded, game = _impulse_begun(save, [unit("city", "ussr", ORENBURG), unit("far", "ussr", (238, 63)),
                                           helpers.air_unit("atr", "ussr", type_="atr", hex_=ORENBURG, range_=6)])
    assert game.state.kernel.active_side == "allies"
    assert len(recorded) == 1
    assert recorded[0].data["out_of_supply"] == ["far"]  # whatever the weather rolled, the city is a source
    then = game.state_at(recorded[0].seq)  # that impulse (the game has played on since)
    assert began_impulse_out_of_supply(then, "far") and not began_impulse_out_of_supply(then, "city")
    game.close()


def test_air_transport_landing_supply_not_traced_without_an_air_transport(save):
    """Air Transport Landing: with no ATR of the phasing side on the map no cargo can fly, so
    the impulse's start traces no supply for it (a whole-map trace per power) and records
    nothing; the cargo rule then finds no unit that commenced the impulse out of supply."""
    from plugins.rules.supply import began_impulse_out_of_supply

    recorded, game = _impulse_begun(save, [unit("city", "ussr", ORENBURG), unit("far", "ussr", (238, 63))])
    assert game.state.kernel.active_side == "allies"
    assert recorded == []
    assert not began_impulse_out_of_supply(game.state, "far")
    game.close()


def test_supply_sources_and_paths_checked_immediately_before_an_overrun(save):
    """Supply: the program checks supply "immediately before resolving an overrun"; an
    out-of-supply unit may not overrun (authored effect, land's data/overrun.json).  Land asks
    through its overrun_refusal hook; supply answers it."""
    target = (207, 52)
    weak = unit("r1", "ussr", target, size="division", factors={"combat": 1, "move": 3})
    tank = unit("g1", "germany", (205, 52), type="arm", size="army", factors={"combat": 24, "move": 6})
    game = helpers.lab_game(save, seed=7, extra_plugins=["land", "supply", "combat"], options={
        "units": [tank, weak], "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
        "actions": {"germany": "land"}, "start_at": "turn.impulse.land.movement.land-movement"})
    assert not in_supply(game.state, "g1")  # no German home-country city within reach
    move = {"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "to": list(target)}
    out = game.submit(move)
    assert not out.accepted and "Overrun" in out.reason and "out of supply" in out.reason
    helpers.event(game, "ImpulseSupplyGranted", units=["g1"], source="test", rule="test")  # as Emergency HQ supply grants it
    out = game.submit(move)
    assert out.accepted, out.reason
    assert game.state["units"].units["r1"].where == "eliminated"
    game.close()


def test_supply_sources_and_paths_a_minor_countrys_units_trace_to_its_home_cities(save):
    """ "A primary supply source for a unit is any friendly city in the unit's unconquered home
    country": a Rumanian army (nationality "romania", the map's Rumania) next to Cluj is in
    supply although Germany, its controller, has no source within reach; a German army in
    the same hex is not (Rumanian cities are not German primary sources)."""
    assert trace.country_of_nationality("romania") == "RM" == trace.country_of_nationality("Rumania")
    assert trace.country_of_nationality("hungary") == "HU" and trace.country_of_nationality("") is None
    game = lab(save, [unit("rm-inf", "germany", (204, 62), nationality="romania"), unit("ge-inf", "germany", (204, 62))],
               countries={"RM": "germany", "SU": "ussr"}, weather=every_zone("fine"))
    assert in_supply(game.state, "rm-inf") and not in_supply(game.state, "ge-inf")
    game.close()


# ---------------------------------------------------------------- Supply Sources and Paths: Overseas supply paths
SIBERIA_HQ = (290, 17)  # far from every railway and city of the USSR (8+ hexes of path)


def test_supply_sources_and_paths_overseas_supply_paths_once_for_each_unit(save, monkeypatch):
    """ "You may only trace supply overseas once for each unit attempting to trace supply,
    regardless of how many secondary/tertiary supply sources are used between the tracing unit
    and the primary supply source": an HQ in Siberia whose railway path goes overseas from
    Orenburg (a stand-in sea route, so the test is the chain's rule alone) supplies a unit
    beside it over land, but not a unit whose own path would go overseas to it again."""
    landing, beside, port, far_coast = (291, 17), (289, 17), (290, 18), (290, 10)

    def sea_route(tracer, dist, railway):
        ports = {landing: dist[ORENBURG] + 1} if ORENBURG in dist else {}
        coast = {far_coast: dist[port] + 1} if dist.get(port, trace.UNLIMITED) < trace.MAX_RANGE else {}
        return ports, coast

    monkeypatch.setattr(trace, "OVERSEAS_LINKS", [trace.OverseasRule(links=sea_route, inputs=lambda tracer: "test route")])
    trace.clear_cache()
    game = lab(save, [unit("hq1", "ussr", SIBERIA_HQ, name="Siberian HQ", **HQ), unit("beside", "ussr", beside),
                      unit("over-sea", "ussr", far_coast)], weather=every_zone("fine"))
    state = game.state
    assert supply_sources(state, "ussr") == {SIBERIA_HQ: "secondary"}  # its railway path went overseas
    assert trace.result_for(state, "ussr").by_sea == {SIBERIA_HQ}
    assert in_supply(state, "beside")  # over land to the HQ: the chain went overseas once
    # its path would go overseas to the HQ (cost 2), a second time in the chain
    assert trace.tracer_for(state, "ussr").reach({SIBERIA_HQ}, railway=False)[far_coast] == 2
    assert not in_supply(state, "over-sea")
    game.close()
    trace.clear_cache()


def _from_scratch(state, power):
    """The trace with nothing kept (a thread's store of its own, nothing published)."""
    import threading
    from collections import OrderedDict

    from plugins.rules.supply import reuse

    saved = reuse._kept, trace._caches, reuse._published
    reuse._kept, trace._caches, reuse._published = threading.local(), threading.local(), OrderedDict()
    try:
        return trace.Tracer(state, power).trace()
    finally:
        reuse._kept, trace._caches, reuse._published = saved


def test_supply_sources_and_paths_kept_searches_answer_as_a_trace_from_scratch(save):
    """Searches are kept and brought up to date from one position to the next (reuse.py,
    repair.py): after each move, which cuts, restores or re-routes paths of the Turkestan HQ's
    rail net and of Orenburg, the answer is the one a trace from scratch gives."""
    trace.clear_cache()
    game = rigged(save, [unit("s3", "ussr", (236, 57)), unit("s5", "ussr", (238, 63)),
                         unit("hq1", "ussr", (241, 63), name="Turkestan HQ", **HQ), unit("g1", "germany", (200, 52))])
    moves = [(235, 56), (240, 63), (239, 62), (200, 52), (236, 58)]
    seen = set()
    for hex_ in [None, *moves]:
        if hex_ is not None:
            helpers.place(game, unit("g1", "germany", hex_))
        kept, fresh = trace.result_for(game.state, "ussr"), _from_scratch(game.state, "ussr")
        assert (kept.dist, kept.supplied, kept.active) == (fresh.dist, fresh.supplied, fresh.active), hex_
        seen.add((in_supply(game.state, "s3"), in_supply(game.state, "s5")))
    assert len(seen) > 1  # the moves did change who is in supply
    game.close()
    trace.clear_cache()
