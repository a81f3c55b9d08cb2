"""Naval Air Support by Initiating / Non-Initiating Side (seed 000 L12154-12170): land-based air
units fly into the sea area of a naval combat with half their range ("Sea Box Section" picks the
section), fight in it as aircraft at sea, and go home disorganized when it is over."""

import random

from helpers import air_unit, dice, lab_game, ok, play_by_choices, refused, rig, ship
from plugins.rules.naval import naval_air_support as nas
from test_naval_air_combat import K, KONIGSBERG, LENINGRAD

ROUND = "wif.procedures.naval-combat.round"
SUPPORT_IS = f"{ROUND}.naval-air-support-is"


def of_type(g, type_):
    return [e.data for e in g.store.records() if e.type == type_]


def baltic_with_a_bomber_ashore(tmp_path, range_=8):
    german = [ship("cv", type_="cv", attack=1, defense=4, aa=1, factors={"class": 4}),
              air_unit("p1", type_="cvp", hex_=KONIGSBERG, air=2, factors={"naval": 4, "class": 2}),
              air_unit("ju88", type_="nav", hex_=KONIGSBERG, air=1, factors={"naval": 3, "range": range_})]
    soviet = [ship("r1", power="ussr", hex_=LENINGRAD, attack=4, defense=5, aa=1)]
    g = lab_game(tmp_path / "g.wif", options={"units": german + soviet, "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"},
                 extra_plugins=["naval"])
    rig(g, "RigShipsAtSea", units=["r1"], area="BA", section=2)
    rig(g, "RigAboard", ship="cv", units=["p1"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=2, units=["cv"])
    if g.state.kernel.sequence.current == "wif.digressions.naval-interception.offer-interception":
        ok(g, type="DeclineIntercept", actor="ussr")
    ok(g, type="FinishStep", actor="germany")
    while g.state.kernel.sequence.current.endswith("naval-air") and g.state.kernel.sequence.pending:
        ok(g, type="FinishStep", actor=g.state.kernel.sequence.pending[0])  # no Naval Air flight
    dice(g, 1, 1, then_ordinary=True)  # both searches find everything
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    return g


def test_naval_air_support_by_initiating_side_half_range_picks_the_section(tmp_path):
    g = baltic_with_a_bomber_ashore(tmp_path)
    assert g.state.kernel.sequence.current == SUPPORT_IS and g.state.kernel.sequence.pending == ["germany"]
    ju88 = g.state["units"].units["ju88"]
    top = nas.top_section(g.state, ju88)
    assert top is not None and nas.support_range(ju88) == 4
    offered = [c for c in g.choices(None).commands() if c.type == "FlyNavalAirSupport"][0]
    unit = offered.fields[0].options[0]
    assert unit.value == "ju88" and [o.value for o in unit.next_fields()[0].options] == list(range(top + 1))
    refused(g, {"type": "FlyNavalAirSupport", "actor": "germany", "unit": "ju88", "section": top + 1},
            f"reaches section {top}")
    refused(g, {"type": "FlyNavalAirSupport", "actor": "germany", "unit": "p1", "section": 0},
            "not an organized land-based aircraft")
    assert g.preview({"type": "FlyNavalAirSupport", "actor": "germany", "unit": "ju88", "section": top})["half_range"] == 4
    ok(g, type="FlyNavalAirSupport", actor="germany", unit="ju88", section=top)
    assert g.state["naval"].at_sea["ju88"].area == "BA" and g.state["naval"].combat.air_support == ["ju88"]
    assert g.describe(g.history()[-1]).endswith("flies naval air support")
    ok(g, type="FinishStep", actor="germany")
    # the Soviet side has no aircraft: its support step is skipped with the reason
    skipped = [e.data["reason"] for e in g.history() if e.type == "StepSkipped"
               and e.data["step"] == f"{ROUND}.naval-air-support-nis"]
    assert skipped and "no land-based aircraft of allies" in skipped[0]
    # the bomber searches and is included with its side; it flies in the naval air combat
    assert "ju88" in of_type(g, "NavalSearchResolved")[-1]["included"]["axis"]
    play_by_choices(g, random.Random(6), max_commands=20,
                    until=lambda game: game.state.kernel.sequence.current == f"{ROUND}.select-naval-combat-type")
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="naval-air")
    play_by_choices(g, random.Random(6), max_commands=150, until=lambda game: game.state["naval"].combat is None)
    assert {"ju88", "p1"} <= {f["unit"] for f in of_type(g, "AirUnitFlew")}
    # the combat is over: it is back at Konigsberg, disorganized (or lost on the way)
    u = g.state["units"].units["ju88"]
    assert "ju88" not in g.state["naval"].at_sea
    assert (u.where == "map" and tuple(u.hex) == KONIGSBERG and not u.face_up) or u.where in ("force-pool", "eliminated")


def test_naval_air_support_out_of_half_range_the_step_is_skipped(tmp_path):
    g = baltic_with_a_bomber_ashore(tmp_path, range_=1)
    skipped = [e.data["reason"] for e in g.history() if e.type == "StepSkipped" and e.data["step"] == SUPPORT_IS]
    assert skipped == ["Naval Air Support: no land-based aircraft of axis can reach Baltic Sea with half its range"]
