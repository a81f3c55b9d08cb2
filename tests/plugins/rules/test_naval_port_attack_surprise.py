"""Surprise Points in Port Attack (seed 000 "Surprise Points Used" L11924-11936, "Surprise Points"
L6925-6950): each side's search roll; the attacker's bombers count as section 3, the defender as
section 5 in a major port; the side with more spends the difference on the AA columns, the air-to-
sea attack's chart column, the air-to-air values.  German bombers over Leningrad (a major port)."""

import random

from helpers import air_unit, dice, lab_game, ok, play_by_choices, refused, ship
from plugins.rules.air import anti_aircraft as aa
from plugins.rules.core import world_map
from plugins.rules.naval import port_attack_surprise as pas

LENINGRAD = world_map().port("Leningrad").hex
PORT = f"{LENINGRAD[0]},{LENINGRAD[1]}"
AIRFIELD = (205, 44)
AM = "wif.procedures.air-mission"


def of_type(g, type_):
    return [e.data for e in g.store.records() if e.type == type_]


def bombers_over_leningrad(tmp_path, attacker_roll: int, defender_roll: int):
    g = lab_game(tmp_path / "g.wif", options={
        "units": [air_unit("ju88", type_="lnd", hex_=AIRFIELD, range_=8, factors={"naval": 12}),
                  ship("r1", power="ussr", type_="bb", hex_=LENINGRAD, attack=6, defense=6, aa=10)],
        "hex_control": {f"{AIRFIELD[0]},{AIRFIELD[1]}": "germany"},
        "actions": {"germany": "air"}, "start_at": "turn.impulse.naval.port-attack"}, extra_plugins=["naval"])
    ok(g, type="FlyMission", actor="germany", unit="ju88", hex=list(LENINGRAD))
    dice(g, attacker_roll, defender_roll, then_ordinary=True)
    for _ in range(10):
        if g.state.kernel.sequence.current in (pas.SPEND_STEP,) or of_type(g, "PortSurpriseRolled")[-1]["ports"]:
            break
        ok(g, type="FinishStep", actor=g.state.kernel.sequence.pending[0])
    return g


def benefits(g, actor):
    found = [c for c in g.choices(None).commands() if c.type == "SpendSurprise" and c.actor == actor]
    if not found:
        return []
    port = found[0].fields[0].options[0]
    assert port.value == PORT
    return [o.value for o in port.next_fields()[0].options]


def test_port_attack_surprise_roll_defender_in_a_major_port_counts_section_5(tmp_path):
    g = bombers_over_leningrad(tmp_path, 9, 1)
    rolled = of_type(g, "PortSurpriseRolled")[-1]["ports"][PORT]
    # the Axis: section 3 + the Soviet roll 1 = 4; the Allies: section 5 + the German roll 9 = 14
    assert rolled == {"rolls": {"axis": 9, "allies": 1}, "surprise": {"axis": 0, "allies": 10}}
    assert g.state.kernel.sequence.current == pas.SPEND_STEP and g.state.kernel.sequence.pending == ["ussr"]
    assert benefits(g, "ussr") == ["enemy-column", "own-aa-column"]
    refused(g, {"type": "SpendSurprise", "actor": "ussr", "benefit": "avoid-combat", "port": PORT}, "does not apply")
    refused(g, {"type": "SpendSurprise", "actor": "ussr", "benefit": "own-aa-column", "port": "1,1"}, "not a port attacked")
    assert g.preview({"type": "SpendSurprise", "actor": "ussr", "benefit": "own-aa-column", "port": PORT})["left"] == 8
    for benefit in ("own-aa-column", "own-aa-column", "enemy-column"):
        ok(g, type="SpendSurprise", actor="ussr", benefit=benefit, port=PORT)
    record = g.state["naval"].port_surprise[PORT]
    assert record["aa_shifts"] == {"allies": 2} and record["shifts"] == {"axis": -1} and record["surprise"]["allies"] == 4
    ok(g, type="FinishStep", actor="ussr")
    while not of_type(g, "AAFireRolled"):  # Plot Anti-aircraft Fire: nothing to plot, the ships fire
        ok(g, type="FinishStep", actor=g.state.kernel.sequence.pending[0])
    # the Soviet battleship's AA fire moves two columns up
    fired = of_type(g, "AAFireRolled")
    assert fired and fired[0]["cell"] == aa.table_cell(10, 1, 2)


def test_port_attack_surprise_attacker_raises_its_chart_column_and_lowers_the_ships_aa(tmp_path):
    g = bombers_over_leningrad(tmp_path, 1, 9)  # the Axis: 3 + 9 = 12, the Allies: 5 + 1 = 6
    assert of_type(g, "PortSurpriseRolled")[-1]["ports"][PORT]["surprise"] == {"axis": 6, "allies": 0}
    assert benefits(g, "germany") == ["own-column", "enemy-aa-column"]
    ok(g, type="SpendSurprise", actor="germany", benefit="own-column", port=PORT)
    assert g.describe(g.history()[-1]).startswith("The Axis spend 2 surprise points")
    ok(g, type="SpendSurprise", actor="germany", benefit="enemy-aa-column", port=PORT)
    assert pas.aa_shift(g.state, "allies", LENINGRAD) == -1 and pas.chart_shift(g.state, LENINGRAD, "axis") == 1
    play_by_choices(g, random.Random(1), max_commands=40, finish_weight=1.0,
                    until=lambda game: not game.state.kernel.sequence.current.startswith(AM)
                    or game.state.kernel.sequence.current.endswith("return-to-base-phasing"))
    fired = of_type(g, "AAFireRolled")
    assert fired and fired[0]["cell"] == aa.table_cell(10, 1, -1)


def test_port_attack_surprise_no_points_no_spending(tmp_path):
    g = bombers_over_leningrad(tmp_path, 3, 5)  # 3 + 5 against 5 + 3
    skipped = [e.data["reason"] for e in g.history() if e.type == "StepSkipped" and e.data["step"] == pas.SPEND_STEP]
    assert skipped and "neither side has 2 surprise points" in skipped[0]


def test_port_attack_surprise_every_offered_command_is_accepted(tmp_path):
    g = bombers_over_leningrad(tmp_path, 9, 1)
    play_by_choices(g, random.Random(3), max_commands=60, prefer=("SpendSurprise",),
                    until=lambda game: not game.state.kernel.sequence.current.startswith(AM))
    assert of_type(g, "SurpriseSpent")
    assert sum(s["points"] for s in of_type(g, "SurpriseSpent")) <= 10
