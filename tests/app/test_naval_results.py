"""Naval Combat Results in the window (seeds, "Naval Combat Results", Form Layout: the Damage
Risks "taken straight from the naval combat results table", the running table Possible /
Effect / Cumulative; "Naval Combat Results Table": the column, the row, the defence roll) and
the Naval Combat Abort Queue's decision by clicks (a port on the map, or the Play form's row).

A rigged surface combat in the Baltic of the real map (the lab scenario, the dice played back):
a German heavy cruiser (attack 8) and a destroyer meet a Soviet cruiser (defence 5) at sea."""

from __future__ import annotations

import pygame
import pytest

from app.guiclicks import post, scroll_to, visible_point
from app.play import GameWindow
from helpers import dice, lab_game, ok, rig, ship
from plugins.rules.core import world_map
from test_find_review_supply import click, hex_pos, pump
from test_naval_forms import make_by_clicks

KONIGSBERG = world_map().port("Konigsberg").hex
LENINGRAD = world_map().port("Leningrad").hex
K = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"


@pytest.fixture
def baltic_combat(tmp_path, monkeypatch):
    """The combat at Select Naval Combat Type, a 1024x768 window open on it."""
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    g = lab_game(tmp_path / "g.wif", options={
        "units": [ship("g1", attack=8, defense=4, name="Admiral Hipper"),
                  ship("g2", type_="dd", attack=2, defense=3, name="Z1"),
                  ship("r1", power="ussr", hex_=LENINGRAD, attack=1, defense=5, name="Kirov")],
        "actions": {"germany": "naval"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    rig(g, "RigShipsAtSea", units=["r1"], area="BA", section=2)
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=2, units=["g1", "g2"])
    if g.state.kernel.sequence.current == "wif.digressions.naval-interception.offer-interception":
        ok(g, type="DeclineIntercept", actor="ussr")
    dice(g, 1, 1, then_ordinary=True)  # both searches find
    ok(g, type="FinishStep", actor="germany")
    window = GameWindow(g, screen=pygame.display.set_mode((1024, 768)), forms=True)
    window.primary.center_on(LENINGRAD)
    window.draw()
    yield g, window
    pygame.quit()
    g.close()


def results_shown(window) -> list:
    """Every result form of the queue, closed one by one with its OK button (as a player does)."""
    popups, seen = window.play.popups, []
    for _ in range(12):
        win = popups.current()
        if win is None:
            return seen
        seen.append(win)
        ok_button = next(b for b in win.owned if getattr(b, "text", "") == "OK")
        pump(window, *click(ok_button.rect.center))
    raise AssertionError("the result queue never emptied")


def test_naval_combat_results_show_the_chart_read_each_defence_die_and_each_units_result(baltic_combat, tmp_path):
    g, window = baltic_combat
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    make_by_clicks(window, {"type": "ChooseNavalCombatType", "actor": "germany", "kind": "surface"})
    due = {r.data["target_side"]: r.data for r in g.store.records() if r.type == "NavalResultsDue"}
    assert due["allies"]["results"] == ["d", "a"] and due["allies"]["row"] == "1"  # attack 8 (8-11) on 1 ship
    dice(g, 3, 2, then_ordinary=True)  # D on the Kirov: 3 <= 5 applies; then its A: 2 <= 6 (damaged) applies
    make_by_clicks(window, {"type": "ChooseNavalTarget", "actor": "ussr", "unit": "r1"})
    make_by_clicks(window, {"type": "ChooseNavalTarget", "actor": "ussr", "unit": "r1"})
    window.draw()
    pygame.image.save(window.screen, str(tmp_path / "naval-results.png"))
    forms = results_shown(window)
    titles = [w.base_title for w in forms]
    assert all(t.startswith("Naval Combat Results: Baltic Sea") for t in titles), titles
    text = "\n".join(line for w in forms for line in w.lines)
    # the search dice, the combat type, each side's column and row with its Damage Risks
    assert "<b>dice</b> Search Die Rolls: Axis in Baltic Sea: 1" in text
    assert "Combat type: <b>surface</b>" in text
    assert "the Axis attack the Allies: column 8-11, row 1 ship(s); <b>Damage Risks: 1 Damaged and 1 Aborted</b>" in text
    # each defence roll and what it made of the result; then where the unit stands
    assert "USSR heavy cruiser Kirov: die 3, at most its defence 5: D applies (damaged); now damaged" in text
    assert "USSR heavy cruiser Kirov: die 2, at most its defence 6: A applies (aborts)" in text
    assert "NavalResult" not in text and "NavalResult" not in " ".join(w.window_display_title for w in forms)
    # the chart read: the column of each attack total, the row of the opponent's ships
    charted = next(w for w in forms if w.chart)
    assert ["1", "8-11"] in charted.chart["hits"] and charted.chart["cells"]["1"]["8-11"] == "DA"
    assert charted.chart_surface.get_height() > 19 * len(charted.chart["rows"])
    # the running table of the round: both results on the Kirov, the die and the effect of each
    last = forms[-1].naval["rows"]
    assert [(r["possible"], r["roll"], r["effect"]) for r in last][:2] == [("D", 3, "D"), ("A", 2, "A")]
    assert last[0]["name"] == "USSR heavy cruiser Kirov" and "damaged" in last[1]["cumulative"]


def test_a_port_attack_is_told_by_the_same_form(tmp_path):
    """Seeds: "The same form is used for all three type of naval combat as well as for the
    results of port attacks": a port attack's defence rolls give the rows of the table."""
    from kernel.events import EventRecord
    from plugins.rules.naval.naval_combat_results_form import report

    g = lab_game(tmp_path / "p.wif", options={"units": [ship("r1", power="ussr", hex_=LENINGRAD, defense=5,
                                                             name="Kirov")]}, extra_plugins=["naval"])
    try:
        rec = [EventRecord(9, "DiceRolled", 1, "germany", 1, 1, "s", 9,
                           {"purpose": "Port Attack: defence roll for ussr Kirov (r1) against d", "results": [4],
                            "faces": 10}),
               EventRecord(10, "NavalUnitDamaged", 1, "germany", 1, 1, "s", 9, {"unit": "r1"})]
        told = report(g.state, rec)
        assert told["title"] == "Naval Combat Results: Port Attack" and told["seqs"] == [9, 10]
        assert told["rows"][0]["possible"] == "D" and told["rows"][0]["roll"] == 4 and told["rows"][0]["effect"] == "D"
    finally:
        g.close()


def test_the_abort_queue_moves_to_a_port_clicked_on_the_map(baltic_combat):
    """Naval Combat Abort Queue: the Kirov, aborted by an A, waits in the queue until the combat
    is over; then its owner moves it to a friendly port: a click on Leningrad fills the group
    (the only one) and the port, a click on its pile in the sea box the unit, and the Play
    form's button sends the move."""
    g, window = baltic_combat
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="surface")
    dice(g, 7, 9, 9, then_ordinary=True)  # D becomes A on the Kirov; the Axis's half-A lapses
    for _ in range(4):
        offered = [c for c in g.choices().commands() if c.type == "ChooseNavalTarget"]
        if not offered:
            break
        ok(g, offered[0].sample(__import__("random").Random(1)))
    ok(g, type="NavalSideAbort", actor="germany", abort=False)
    assert [c.type for c in g.choices().commands() if not c.type.startswith("Rig")] == ["MoveAbortingNaval"]
    results_shown(window)
    before = g.state.kernel.seq
    window.primary.center_on(LENINGRAD)
    window.play.refresh()
    window.draw()
    pump(window, *click(hex_pos(window, LENINGRAD)))
    fill = window.play.fill
    assert fill is not None and fill.type == "MoveAbortingNaval", "the click on the port filled no abort move"
    assert fill.values["to"] == f"{LENINGRAD[0]},{LENINGRAD[1]}"
    # then the ship: a click on its pile in the Baltic's box (the sea-box layer)
    layer = next(layer for layer in window.ui.layers if getattr(layer, "name", "") == "sea boxes")
    window.primary.set_zoom(5)
    window.primary.center_on(tuple(next(b.hex for b in layer.layout(window, window.primary) if b.area == "BA")))
    window.draw()
    cell = next(c for b in layer.layout(window, window.primary) for c in b.cells if "r1" in c.units)
    body = window.panels["detailed"].body
    pump(window, *click((body.x + cell.rect[0] + 12, body.y + cell.rect[1] + 14)))
    assert fill.values["units"] == ["r1"] and fill.complete() and g.preview(fill.command())["legal"]
    window.play.refresh()
    pump(window)
    send = next(b for b in window.play.form.owned if getattr(b, "command", None) == fill.command())
    for _ in range(40):  # the form scrolls: the button whole into view, as a player scrolls to it
        wheel = scroll_to(window.gui, send, "the move's button", [window.play.body.area])
        if wheel is None:
            break
        post(wheel)
        pump(window)
    pump(window, *click(visible_point(window.gui, send)))
    assert g.state.kernel.seq != before
    assert tuple(g.state["units"].units["r1"].hex) == tuple(LENINGRAD) and not g.state["naval"].abort_queue


def test_the_abort_queue_decision_by_the_play_forms_rows(baltic_combat):
    """The same decision through the Play form's rows and buttons (the GUI driver's clicks)."""
    g, window = baltic_combat
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="surface")
    dice(g, 7, 9, 9, then_ordinary=True)
    for _ in range(4):
        offered = [c for c in g.choices().commands() if c.type == "ChooseNavalTarget"]
        if not offered:
            break
        ok(g, offered[0].sample(__import__("random").Random(1)))
    ok(g, type="NavalSideAbort", actor="germany", abort=False)
    results_shown(window)
    group = next(c for c in g.choices().commands() if c.type == "MoveAbortingNaval").fields[0].options[0].value
    make_by_clicks(window, {"type": "MoveAbortingNaval", "actor": "ussr", "group": group,
                            "to": f"{LENINGRAD[0]},{LENINGRAD[1]}", "units": ["r1"]})
    assert not g.state["naval"].abort_queue


def test_naval_air_combat_results_are_told_by_the_same_form(tmp_path, monkeypatch):
    """Naval air combat (seeds, "Naval Combat Results": "The same form is used for all three type
    of naval combat"): a German carrier's air unit strikes two Soviet ships; the form names the
    air-to-sea row, the Damage Risks, and each defence die (the attacker picks first)."""
    import random

    from helpers import air_unit

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    g = lab_game(tmp_path / "a.wif", options={
        "units": [ship("cv", type_="cv", attack=1, defense=4, aa=1, factors={"class": 4}, name="Graf Zeppelin"),
                  air_unit("p1", type_="cvp", hex_=KONIGSBERG, factors={"naval": 9, "class": 2}),
                  ship("r1", power="ussr", hex_=LENINGRAD, attack=4, defense=5, aa=0, name="Kirov"),
                  ship("r2", power="ussr", type_="dd", hex_=LENINGRAD, attack=1, defense=2, aa=0, name="Gnevny")],
        "actions": {"germany": "naval"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    try:
        rig(g, "RigShipsAtSea", units=["r1", "r2"], area="BA", section=2)
        rig(g, "RigAboard", ship="cv", units=["p1"])
        ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=2, units=["cv"])
        if g.state.kernel.sequence.current == "wif.digressions.naval-interception.offer-interception":
            ok(g, type="DeclineIntercept", actor="ussr")
        dice(g, 1, 1, then_ordinary=True)
        ok(g, type="FinishStep", actor="germany")
        window = GameWindow(g, screen=pygame.display.set_mode((1024, 768)), forms=True)
        window.draw()
        ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
        make_by_clicks(window, {"type": "ChooseNavalCombatType", "actor": "germany", "kind": "naval-air"})
        rng = random.Random(5)
        for _ in range(12):  # plane roles, anti-aircraft fire, the targets: whatever the rules ask next
            if any(r.type == "NavalResultApplied" for r in g.store.records()):
                break
            offered = [c for c in g.choices().commands() if not c.type.startswith("Rig")]
            choice = next((c for c in offered if c.type == "ChooseNavalTarget"), None) or \
                next((c for c in offered if c.type == "FinishStep"), offered[0])
            ok(g, choice.sample(rng))
        forms = results_shown(window)
        text = "\n".join(line for w in forms for line in w.lines)
        assert any(w.base_title.endswith("naval air (air-to-sea) combat") for w in forms), [w.base_title for w in forms]
        assert "Combat type: <b>naval air (air-to-sea)</b> (the chart's air-to-sea row)" in text
        assert "the Axis attack the Allies: column" in text and "Damage Risks" in text
        applied = [r.data for r in g.store.records() if r.type == "NavalResultApplied"]
        assert applied and any(r["unit"] == applied[0]["unit"] and r["roll"] == applied[0]["roll"]
                               for w in forms for r in (getattr(w, "naval", None) or {}).get("rows", []))
    finally:
        pygame.quit()
        g.close()
