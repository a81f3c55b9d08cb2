"""What a player meets in the game window (issue 11, "What a player met", items 3-6 and 9), with real
posted pygame events (SDL_VIDEODRIVER=dummy) on the lab scenario: results queue one at a time
and a land combat shows its chart; Esc cancels or closes, quitting asks; Enter ends a phase only
when nothing mandatory is left; no internal ids on screen; the map follows the action."""

from __future__ import annotations

import re

import pygame
import pytest

from app.play import GameWindow
from app.playforms import FINISH
from helpers import unit
from test_playing import (DECL, SUPPLY_HQ, TARGET, buttons, click, hex_pos, lab_game, motion, press, pump,
                          resolve_by_buttons, seq)

def key(k, mod=0):
    return [pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""), pygame.event.Event(pygame.KEYUP, key=k,
                                                                                                mod=mod)]


@pytest.fixture
def window_of(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    made = []

    def make(game, size=(1024, 768), centre=(206, 52)):
        win = GameWindow(game, screen=pygame.display.set_mode(size), forms=True)
        if centre:
            win.primary.center_on(centre)
        win.draw()
        made.append(game)
        return win

    yield make
    pygame.quit()
    for game in made:
        game.close()


def resolve_attack(window):
    """Declare the lab attack by clicks and resolve it with the form's buttons."""
    play, game = window.play, window.game
    pump(window, *click(hex_pos(window, TARGET)), *click(hex_pos(window, (206, 51))), *click(hex_pos(window, (206, 52))))
    press(window, play.form, "Declare attack")
    press(window, play.form, FINISH)
    if not resolve_by_buttons(window):
        pytest.fail("the attack was never resolved")
    return [r for r in game.history(1) if r.type == "LandCombatResolved"]


# ---------------------------------------------------------------- item 3: results
def test_land_combat_result_shows_the_table_used_its_column_the_die_and_the_result(window_of, tmp_path):
    game = lab_game(tmp_path / "c.wif", start_at=DECL, extra_units=[SUPPLY_HQ])
    window = window_of(game)
    resolved = resolve_attack(window)
    assert resolved
    data = resolved[-1].data
    popup = window.play.popups.current()
    assert popup is not None and popup.combat == data
    chart = popup.chart  # the combat plugin's table, asked through the land_combat_chart hook
    assert chart["column"] in chart["columns"] and chart["cells"][chart["row"]][chart["column"]] == data["result"]
    text = " ".join(popup.lines)
    assert f"die <b>{data['roll']}</b>" in text and f"modified roll <b>{data['modified']}</b>" in text
    assert f"result <b>{data['result']}</b>" in text and "dice" in text
    # the cell read is drawn on red, in the column of the final odds
    picture = popup.chart_surface
    assert picture.get_height() > 19 * len(chart["rows"])
    window.draw()
    pygame.image.save(window.screen, str(tmp_path / "land-combat.png"))


def test_results_wait_in_a_queue_and_ok_shows_the_next(window_of, tmp_path):
    game = lab_game(tmp_path / "q.wif", start_at=DECL, extra_units=[SUPPLY_HQ])
    window = window_of(game)
    popups = window.play.popups
    popups.show("First result", ["one"])
    popups.show("Second result", ["two"])
    popups.weather_report()
    window.draw()
    shown = [w for w in popups.open]
    assert len(shown) == 1 and len(popups.waiting) == 2
    assert "2 more waiting" in shown[0].window_display_title
    press(window, shown[0], "OK")
    assert popups.current().base_title == "Second result" and "1 more waiting" in popups.current().window_display_title
    pump(window, *key(pygame.K_ESCAPE))  # Esc closes the result on top
    assert popups.current().base_title == "Weather Report" and not popups.waiting
    press(window, popups.current(), "OK")
    assert not popups.open


# ---------------------------------------------------------------- item 4: Esc, Enter, quitting
def test_enter_with_a_mandatory_decision_left_says_what_is_left_and_does_not_end_the_phase(window_of, tmp_path):
    game = lab_game(tmp_path / "e.wif", start_at=DECL, extra_units=[SUPPLY_HQ])
    window = window_of(game)
    play = window.play
    pump(window, *click(hex_pos(window, TARGET)), *click(hex_pos(window, (206, 51))))
    press(window, play.form, "Declare attack")
    press(window, play.form, FINISH)
    while play.decisions.finish() is not None:  # on to a step with a mandatory decision
        if "ChooseLandCombatType" in {c.type for c in play.decisions.commands()}:
            break
        press(window, play.form, FINISH)
    assert play.decisions.finish() is None
    before = seq(game)
    pump(window, *key(pygame.K_RETURN))
    assert seq(game) == before
    said = " ".join(text for text, _ in window.messages[-2:])
    assert "Enter" in said and play.finish_refusal() in said


def test_enter_ends_the_phase_when_nothing_mandatory_is_left(window_of, tmp_path):
    game = lab_game(tmp_path / "n.wif")
    window = window_of(game)
    assert window.play.decisions.finish() is not None
    step = game.state.kernel.sequence.current
    pump(window, *key(pygame.K_RETURN))
    assert game.state.kernel.sequence.current != step


def test_esc_cancels_the_selection_then_asks_before_quitting(window_of, tmp_path):
    game = lab_game(tmp_path / "x.wif")
    window = window_of(game)
    play = window.play
    pump(window, *click(hex_pos(window, (206, 52))))
    assert play.fill.values.get("unit") == "g-inf"
    pump(window, *key(pygame.K_ESCAPE))
    assert "unit" not in play.fill.values and window.running
    pump(window, *key(pygame.K_ESCAPE))  # nothing selected: asks
    confirm = window.confirm_quit
    assert confirm is not None and window.running
    press(window, confirm, "Keep playing")
    assert window.running and window.confirm_quit is None
    pump(window, *key(pygame.K_ESCAPE))
    press(window, window.confirm_quit, "Quit")
    assert not window.running


# ---------------------------------------------------------------- item 5: no internal ids
def test_the_top_bar_and_the_sequence_panel_show_step_titles_not_ids(window_of, tmp_path):
    game = lab_game(tmp_path / "t.wif")
    window = window_of(game, size=(1920, 1200))
    step = game.state.kernel.sequence.current
    title = game.sequence_index.specs[step].title
    assert "sequence" in window.panels  # the 1920x1200 layout shows the Sequence of Play panel
    shown = [text for text, _ in window.main_lines()] + window.sequence_lines() + [window.play.sequence_text()]
    assert title in shown[0] and window.sequence_lines()[-1] == title
    assert not [t for t in shown if re.search(r"\bwif\.[a-z]", t)]
    assert "waiting for: Germany" in shown[1]  # powers by their names, not their ids
    pump(window, *click(hex_pos(window, (206, 52))), *click(hex_pos(window, (205, 53))))  # a move
    assert not re.search(r"\bwif\.|[A-Z][a-z]+[A-Z][a-z]+: done", window.play.status[0]), window.play.status[0]
    window.draw()
    pygame.image.save(window.screen, str(tmp_path / "titles.png"))


def test_a_refusal_is_in_words_and_whole_in_the_top_bar(window_of, tmp_path):
    game = lab_game(tmp_path / "r.wif")
    window = window_of(game)
    play = window.play
    pump(window, *click(hex_pos(window, (206, 52))), *click(hex_pos(window, (206, 58))))
    reason = play.status[0]
    assert reason and "wif." not in reason and ": done" not in reason
    lines = window.main_lines()
    assert " ".join(t for t, _ in lines).replace("  ", " ").endswith(" ".join(reason.split())[-30:])


# ---------------------------------------------------------------- item 6: the map follows the action
def test_selectable_units_show_counter_pictures_and_choosing_one_centres_the_map_on_it(window_of, tmp_path):
    from pygame_gui.elements import UIImage

    game = lab_game(tmp_path / "s.wif")
    window = window_of(game, centre=(180, 40))  # looking far away
    form = window.play.selectable.form
    rows = form.unit_rows
    assert {b.unit_id for b in rows} == {"g-arm", "g-inf"}
    pictures = [e for e in form.get_container().elements[0].get_container().elements if isinstance(e, UIImage)]
    assert len(pictures) == len(rows)  # a counter beside each unit
    pump(window, *click(next(b for b in rows if b.unit_id == "g-arm").rect.center))
    assert window.play.fill.values["unit"] == "g-arm"
    assert window.primary.centre_hex == (206, 51)
    window.draw()
    pygame.image.save(window.screen, str(tmp_path / "selectable.png"))


def test_the_map_opens_on_the_deciding_powers_front(window_of, tmp_path):
    game = lab_game(tmp_path / "f.wif")  # Germany to move; its corps face a Soviet corps at 207,52
    window = window_of(game, centre=None)
    front = window.front_centre()
    assert front in {(206, 51), (206, 52)}
    assert_uncovered(window, front)


def assert_uncovered(window, hex_):
    """The hex is on the map and under none of the forms over it."""
    at = hex_pos(window, hex_)
    assert window.panels["detailed"].body.collidepoint(at)
    for kind, form in window.play.forms().items():
        assert not form.visible_rect().collidepoint(at), kind


def test_barbarossa_opens_on_the_soviet_set_up_areas(window_of, tmp_path):
    from kernel.game import Game
    from kernel.worldmap import load_world_map

    game = Game.new("barbarossa", tmp_path / "b.wif")
    window = window_of(game, centre=None)
    assert game.state.kernel.sequence.pending == ["ussr"]
    minsk = load_world_map().city("Minsk")
    front = window.front_centre()
    assert window.model.grid.distance(front, (minsk.col, minsk.row)) <= 8
    assert_uncovered(window, front)  # in the part of the map the Play form and Setup Tray leave free


# ---------------------------------------------------------------- item 9: the window fits the screen
@pytest.mark.parametrize("size, layout", [((1024, 768), "M1007"), ((1920, 1200), "M1912"), ((1280, 1024), "M1210")])
def test_the_default_layout_is_the_largest_that_fits_the_screen(window_of, tmp_path, size, layout):
    game = lab_game(tmp_path / "w.wif")
    window = window_of(game, size=size)
    assert window.layout.name == layout
    screen = pygame.Rect((0, 0), size)
    for panel in window.panels.values():
        assert screen.contains(panel.rect), panel.key
    for form in window.play.forms().values():
        assert screen.contains(form.visible_rect())


def test_at_1024x768_the_replay_viewer_shows_its_whole_toolbar_and_global_map(tmp_path):
    from app.replay_view import ReplayWindow
    from helpers import finish

    game = lab_game(tmp_path / "rv.wif")
    finish(game)  # a few events to replay
    game.close()
    pygame.display.init()
    pygame.font.init()
    try:
        viewer = ReplayWindow(tmp_path / "rv.wif", screen=pygame.Surface((1024, 768)))
        screen = pygame.Rect(0, 0, 1024, 768)
        for label, rect in viewer.buttons():
            assert screen.contains(rect), label
        panel = viewer.window.panels["global"]
        for name, rect in viewer.window._global_toolbar(panel):
            assert panel.body.contains(rect), name  # every view button inside the panel
        image = viewer.window._global_image_rect(panel)
        assert image.h >= 150 and image.top > max(r.bottom for _, r in viewer.window._global_toolbar(panel)) - 1
        link = viewer.window.global_map.link_rect(viewer.window.primary)
        assert 0 <= link.centerx <= image.w  # the global map opens on the detailed map's place
        viewer.draw()
        pygame.image.save(viewer.screen, str(tmp_path / "replay-1024.png"))
        viewer.close()
    finally:
        pygame.quit()


def test_a_malformed_command_is_told_in_words(tmp_path):
    from app.wording import in_words

    game = lab_game(tmp_path / "m.wif")
    try:
        reason = game.submit({"type": "MoveLandUnit", "actor": "germany", "to": [205, 53]}).reason
        said = in_words(game, reason)
        assert "MoveLandUnit" not in said and "Field required" not in said and "Move land unit" in said, said
    finally:
        game.close()


def test_a_weather_roll_gives_one_weather_report_with_its_die(window_of, tmp_path):
    from app.commandfill import one_click
    from helpers import offered, ok

    game = lab_game(tmp_path / "wr.wif")
    window = window_of(game)
    popups = window.play.popups
    seen = []
    for _ in range(200):  # on through the game's own steps until the weather is rolled
        current = popups.current()
        if current is not None:
            seen.append(current.base_title)
            if current.base_title == "Weather Report":
                break
            press(window, current, "OK")
        elif game.state.kernel.sequence.finished:
            break
        else:  # the game's own offers: the first of each field, else end the step
            choice = next((c for c in offered(game) if c.type != "FinishStep" and one_click(c) is not None), None) \
                or next(c for c in offered(game) if c.type == "FinishStep")
            ok(game, {**choice.base(), **({choice.fields[0].name: choice.fields[0].values()[0]} if choice.fields else {})})
            window.draw()
    report = popups.current()
    assert report is not None and report.base_title == "Weather Report", seen
    assert any("dice" in line for line in report.lines) and any("<b>" in line for line in report.lines)
    assert "Weather" not in seen[:-1] and not popups.waiting  # told once, not also as a plain result


def test_hot_seat_the_map_moves_to_the_front_of_the_player_who_takes_the_screen(window_of, tmp_path):
    game = lab_game(tmp_path / "hs.wif", players={"Anna": ["germany"], "Boris": ["ussr"]}, options={"mode": "hotseat"})
    window = window_of(game, centre=(180, 40))
    press(window, window.play.form, "I am Anna: show my decisions")
    assert window.primary.centre_hex in {(206, 51), (206, 52)}  # Germany's corps facing the Soviet one


def test_esc_puts_the_units_picked_up_in_the_setup_tray_back(window_of, tmp_path):
    from kernel.game import Game

    game = Game.new("barbarossa", tmp_path / "tray.wif")
    window = window_of(game, centre=None)
    tray = window.play.tray
    first = tray.listed_units()[0]
    row = next(i["button_element"] for i in tray.form.unit_list.item_list if i["text"].startswith(tray.label(first)))
    pump(window, *click(row.rect.center))  # picked up
    assert tray.in_stack == [first]
    pump(window, *key(pygame.K_ESCAPE))
    assert tray.in_stack == [] and window.confirm_quit is None


def test_a_unit_that_moves_leaves_selectable_units_and_the_other_rows_stay(window_of, tmp_path):
    game = lab_game(tmp_path / "mv.wif")
    window = window_of(game)
    form = window.play.selectable.form
    arm_row = next(b for b in form.unit_rows if b.unit_id == "g-arm")
    pump(window, *click(hex_pos(window, (206, 52))), *click(hex_pos(window, (205, 53))))  # g-inf moves
    assert tuple(game.state["units"].units["g-inf"].hex) == (205, 53)
    window.draw()
    rows = window.play.selectable.form.unit_rows
    assert [b.unit_id for b in rows] == ["g-arm"] and rows[0] is arm_row and rows[0].relative_rect.y == 6


def test_every_submit_from_the_window_names_its_player(window_of, tmp_path, monkeypatch):
    """A command from the window is submitted as a player, never as nobody (the kernel checks
    a named player's control and skips the check for None): in hot seat the player at the
    screen, for a move, End phase and Enter; Enter in a window without forms as the player of
    the deciding power."""
    game = lab_game(tmp_path / "who.wif", players={"Anna": ["germany"], "Boris": ["ussr"]},
                    options={"mode": "hotseat"})
    players = []
    submit = game.submit
    monkeypatch.setattr(game, "submit", lambda command, player="?": players.append((command["type"], player))
                        or submit(command, player=player))
    window = window_of(game)
    press(window, window.play.form, "I am Anna: show my decisions")
    pump(window, *click(hex_pos(window, (206, 52))))
    pump(window, *click(hex_pos(window, (205, 53))))
    assert tuple(game.state["units"].units["g-inf"].hex) == (205, 53)
    press(window, window.play.body, FINISH)
    assert [t for t, _ in players] == ["MoveLandUnit", "FinishStep"]
    pump(window, *key(pygame.K_RETURN))
    assert players and all(player == "Anna" for _, player in players), players
    bare = GameWindow(game, screen=pygame.Surface((640, 400)))  # no forms: Enter ends the step as its player
    players.clear()
    bare.finish_step()
    acting = game.state.kernel.acting_power()
    assert players == [("FinishStep", {"germany": "Anna", "ussr": "Boris"}.get(acting))] and players[0][1]
    # a command whose actor no player controls is refused in words, never sent as nobody
    players.clear()
    outcome = window.play.decisions.submit({"type": "FinishStep", "actor": "atlantis"})
    assert not outcome.accepted and "no player controls 'atlantis'" in outcome.reason and not players
