"""Nothing shows internal ids to a player (issue 11, "What a player met", item 5), with real
posted pygame events (SDL_VIDEODRIVER=dummy): the air rules' labels and events name a unit by
its id and a power or side by its id ("ussr I-16 (Baltic) (su-balt-ftr)", "germany", "axis",
"(206, 57)"); the Play form, Selectable Units, the log and the top bar give them in words.

Situation (lab scenario, seeds "Air Missions", "Combat Air Patrol (CAP)"): a German Stuka at
201,51 may strike a Soviet rifle army at 203,54; a Soviet I-16 at 206,57 may fly CAP over it."""

from __future__ import annotations

import re

import pygame
import pytest

from app.play import GameWindow
from app.placewords import hex_words
from app.wording import in_words
from helpers import air_unit, unit
from kernel.game import Game
from test_playing import click, hex_pos, motion, pump

FIGHTER_ID, FIGHTER = "su-balt-ftr", "I-16 (Baltic)"
CAP = "turn.impulse.independent-air.ground-strike"
RAW_ID = re.compile(r"\b(ussr|germany|axis|allies)\b|su-balt-ftr|\(\d+, \d+\)")


@pytest.fixture
def cap_window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    units = [air_unit("ge-stuka", "germany", "tac", (201, 51), air=1, tactical=3, name="Ju 87B (Luftflotte 2)"),
             air_unit(FIGHTER_ID, "ussr", "ftr", (206, 57), air=3, range_=5, name=FIGHTER),
             unit("su-rifle", "ussr", (203, 54), combat=3, move=3, name="10th Army")]
    game = Game.new("lab", tmp_path / "cap.wif", seed=3, extra_plugins=["air"],
                    options={"units": units, "actions": {"germany": "air"}, "start_at": CAP})
    window = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
    window.primary.center_on((204, 55))
    window.draw()
    yield window
    pygame.quit()
    game.close()


def texts_of(form) -> list[str]:
    return [b.text for b in form.owned if getattr(b, "text", None)]


def test_a_unit_to_choose_is_named_without_its_id_or_its_powers_id(cap_window):
    window, game = cap_window, cap_window.game
    assert game.state.kernel.sequence.current.endswith("combat-air-patrol")
    play = window.play
    offered = [t for t in texts_of(play.form) if FIGHTER in t]
    rows = [b.text for b in play.selectable.form.unit_rows]
    assert offered and rows and FIGHTER in rows[0]
    for text in offered + rows:
        assert not RAW_ID.search(text), text
    assert offered[0].startswith("USSR ")
    # the fighter chosen by a click on its button, the hex by a click on the map
    button = next(b for b in play.form.owned if getattr(b, "sets", None) == ("unit", FIGHTER_ID))
    pump(window, *click(button.rect.center))
    assert play.fill.values["unit"] == FIGHTER_ID
    chosen = [e.html_text for e in play.body.get_container().elements if hasattr(e, "html_text")]
    assert any(FIGHTER in t for t in chosen) and not any("su-balt-ftr" in t for t in chosen)
    pump(window, motion(hex_pos(window, (203, 54))), *click(hex_pos(window, (203, 54))))
    flown = [r for r in game.history(1) if r.type == "AirUnitFlew"]
    assert flown, play.status
    said = [play.status[0], *play.log]
    assert any(FIGHTER in t for t in said)
    for text in said:
        assert not RAW_ID.search(text), text


def test_event_texts_name_powers_sides_dice_and_hexes_in_words(cap_window):
    game = cap_window.game
    raw = "system: rolled [9, 8] on d10 for Initiative: axis die, allies die"
    assert in_words(game, raw) == "dice Initiative: Axis die, Allies die: 9, 8 (d10)"
    assert in_words(game, f"ussr {FIGHTER} ({FIGHTER_ID}) returns to base at (206, 57)") \
        == f"USSR {FIGHTER} returns to base at hex 3 E of Lwow"
    assert in_words(game, "ussr takes control of hex (203, 57)") == "USSR takes control of Lwow"
    assert in_words(game, "USSR's setup tray (reinforcements-turn-2): 8 units") \
        == "USSR's setup tray (reinforcements turn 2): 8 units"
    assert in_words(game, "naval air (air-to-sea)") == "naval air (air-to-sea)"  # words, not an id
    # a word that only looks like an id, and a parenthesis that is no unit's id, are left alone
    assert in_words(game, "10th Army (arm, 203,52) and the allies (lab)") == "10th Army (armor, hex 2 S of Kaunas) and the Allies (lab)"


def test_the_top_bar_names_the_hexs_controller(cap_window):
    window = cap_window
    pump(window, motion(hex_pos(window, (206, 57))))
    line = " ".join(text for text, _ in window.main_lines())
    assert "controlled by USSR" in line and "controlled by ussr" not in line


def test_a_selectable_units_row_is_never_cut_and_its_tip_is_the_whole_label(tmp_path, monkeypatch):
    """Selectable Units is narrow: "LVI Panzer Corps (arm, 201,4" was cut mid-word; the row now
    drops the trailing details (its counter shows them) and its tip has the whole label."""
    from test_playing import lab_game

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    long_name = unit("g-long", "germany", (205, 52), "arm", combat=6, name="XXXXVIII Panzer Corps")
    # alike but for their number at the end (as Guadalcanal's "Japan China Sea convoy 1", "... 2")
    alike = [unit(f"g-kg{n}", "germany", (205, 51), name=f"Germany Kampfgruppe Ostpreussen Reserve {n}") for n in (1, 2)]
    game = lab_game(tmp_path / "rows.wif", extra_units=[long_name, *alike])
    try:
        window = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
        window.primary.center_on((206, 52))
        window.draw()
        rows = {b.unit_id: b for b in window.play.selectable.form.unit_rows}
        row = rows["g-long"]
        assert row.text == "XXXXVIII Panzer Corps" and row.tool_tip_text.startswith("XXXXVIII Panzer Corps (arm")
        for button in rows.values():
            assert button.font.size(button.text)[0] <= button.rect.width - 4, button.text
        # the power's name (the counter's colour says it) goes first, the number that tells them apart stays
        one, two = rows["g-kg1"].text, rows["g-kg2"].text
        assert one != two and one.endswith("Reserve 1") and two.endswith("Reserve 2"), (one, two)
        assert not one.startswith("Germany") and rows["g-kg1"].tool_tip_text.startswith("Germany Kampfgruppe")
        pump(window, *click(row.rect.center))  # the row still chooses its unit
        assert window.play.fill.values["unit"] == "g-long"
    finally:
        pygame.quit()
        game.close()


def test_ending_a_phase_says_who_finished_what(tmp_path, monkeypatch):
    """End phase said "Finish step: done"; it says "Germany finished Land Movement"."""
    from test_playing import buttons, lab_game

    from app.playforms import FINISH

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = lab_game(tmp_path / "end.wif")
    try:
        window = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
        window.draw()
        pump(window, *click(buttons(window.play.form)[FINISH].rect.center))
        assert game.state.kernel.sequence.current != "wif.turn.impulse.land.movement.land-movement"
        assert window.play.status[0] == "Germany finished Land Movement"
        # with what the next steps did by themselves after it, the status still says who finished what
        pump(window, *click(buttons(window.play.form)[FINISH].rect.center))
        status = window.play.status[0]
        assert status.startswith("Germany finished ") and "Finish step" not in status, status
    finally:
        pygame.quit()
        game.close()


def test_start_new_game_names_the_major_powers_and_sides(tmp_path, monkeypatch):
    """Start New Game said "You play every major power: germany, ussr" and, in hot seat,
    "germany (axis)"; the mode is chosen by clicks in its drop-down."""
    from app.forms import Gui
    from app.guiclicks import drop_down
    from app.newgame import MODES, NewGameForm
    from pygame_gui.elements import UILabel

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    try:
        gui = Gui(pygame.display.set_mode((1024, 768)).get_size())
        form = NewGameForm(gui, "barbarossa", lambda scenario: tmp_path / f"{scenario}.wif")

        def labels():
            return [e.text for e in form.window.get_container().elements if isinstance(e, UILabel)]

        assert "You play every major power: Germany, USSR" in labels()
        def choose(menu_of, option: str, done) -> None:
            """Open the menu, then click the option (an option may take a second click)."""
            for _ in range(8):
                action = drop_down(gui, menu_of(), option)
                if action is None or done():
                    break
                for e in [motion(action.pos), *click(action.pos)]:
                    pygame.event.post(e)
                for _ in range(3):
                    for e in pygame.event.get():
                        gui.process(e)
                    gui.update(0.01)

        choose(lambda: form.mode_menu, MODES["hotseat"], lambda: form.mode == "hotseat")
        assert form.mode == "hotseat"
        shown = labels()
        assert "Germany (Axis)" in shown and "USSR (Allies)" in shown
        assert not any(RAW_ID.search(t) for t in shown), shown
        # the scenarios by their titles; the one clicked is the game's scenario
        assert form.scenario_menu.selected_option in ("Barbarossa", ("Barbarossa", "Barbarossa"))
        assert {"Barbarossa", "Guadalcanal"} <= set(form.scenarios.values())
        choose(lambda: form.scenario_menu, "Guadalcanal", lambda: form.scenario == "guadalcanal")
        assert form.scenario == "guadalcanal"
        assert "Japan (Axis)" in labels()
    finally:
        pygame.quit()


def test_the_top_bar_names_the_scenario_by_its_title(cap_window):
    window = cap_window
    pump(window, motion(hex_pos(window, (206, 57))))
    first = window.main_lines()[0][0]
    assert first.startswith("Laboratory (test situations)  turn "), first


def test_the_setup_trays_rows_read_as_a_column(tmp_path, monkeypatch):
    """Each row of the Setup Tray was centred, so "Ready" and the unit's name zigzagged from row
    to row; they are left-aligned, also after a click picks a unit up ("In Stack")."""
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = Game.new("barbarossa", tmp_path / "b.wif", seed=1941)
    try:
        window = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
        window.draw()
        rows = window.play.tray.form.unit_list

        def buttons():
            return [i["button_element"] for i in rows.item_list if i.get("button_element") is not None]

        assert buttons() and all(b.text_horiz_alignment == "left" for b in buttons())
        pump(window, *click(buttons()[0].rect.center))
        rows = window.play.tray.form.unit_list
        assert rows.item_list[0]["text"].startswith("In Stack")
        assert all(b.text_horiz_alignment == "left" for b in buttons())
    finally:
        pygame.quit()
        game.close()


def test_a_results_dice_line_names_the_sides(tmp_path, monkeypatch):
    """The result dialogs' dice lines said "Initiative: axis die, allies die" (and the naval
    form "Search Die Rolls: allies in Coral Sea"); the sides are named."""
    from test_app_asks_the_game import COUNTRIES

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = Game.new("lab", tmp_path / "i.wif", seed=3, extra_plugins=["land", "turn"],
                    options={"units": [unit("g1", "germany", (204, 52))], "countries": COUNTRIES,
                             "start_at": "turn.new-turn.initiative"})
    try:
        window = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
        window.draw()
        rolled = [r for r in game.history() if r.type == "DiceRolled" and "Initiative" in r.data.get("purpose", "")]
        assert rolled
        window.play.popups.on_events(rolled)  # the initiative roll, as the window is told of it
        window.draw()
        lines = " ".join(window.play.popups.current().lines)
        assert "Axis die, Allies die" in lines and not RAW_ID.search(lines), lines
        assert in_words(game, "system: RAAF 100 Squadron (Beaufort) moves to Townsville") \
            == "RAAF 100 Squadron (Beaufort) moves to Townsville"
    finally:
        pygame.quit()
        game.close()


def test_a_hex_chosen_on_the_play_form_is_brought_into_the_maps_view(tmp_path, monkeypatch):
    """Issue 11 item 6, the map follows the action: a hex to attack chosen by its button on the
    Play form (not on the map) was left off screen; the map is centred on it. Lab scenario:
    Germany declares an attack on the Soviet corps at 207,52 with the map looking far away."""
    from test_playing import DECL, SUPPLY_HQ, TARGET, lab_game

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = lab_game(tmp_path / "d.wif", start_at=DECL, extra_units=[SUPPLY_HQ])
    try:
        window = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
        window.primary.center_on((180, 40))
        window.draw()
        play = window.play
        button = next(b for b in play.form.owned if getattr(b, "sets", None) is not None
                      and b.sets[0] == "hex" and tuple(b.sets[1]) == TARGET)
        pump(window, *click(button.rect.center))
        assert tuple(play.fill.values["hex"]) == TARGET
        assert window.primary.centre_hex == TARGET
        body = window.panels["detailed"].body
        x, y = window.primary.hex_to_screen(TARGET)
        assert body.collidepoint(body.x + x, body.y + y)
    finally:
        pygame.quit()
        game.close()


def test_a_move_is_told_once_in_the_log(tmp_path, monkeypatch):
    """A land move was told twice in the Play form's log: the rules' "moves 206,52 → 205,53"
    and the kernel's "moves to (205, 53)"; a click on the unit and one on the hex tell it once."""
    from test_playing import lab_game

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = lab_game(tmp_path / "m.wif")
    try:
        window = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
        window.primary.center_on((206, 52))
        window.draw()
        before = len(window.play.log)
        pump(window, *click(hex_pos(window, (206, 52))), *click(hex_pos(window, (205, 53))))
        assert tuple(game.state["units"].units["g-inf"].hex) == (205, 53)
        told = [t for t in window.play.log[before:] if "g-inf" in t]
        assert len(told) == 1 and hex_words((206, 52)) in told[0], told
    finally:
        pygame.quit()
        game.close()
