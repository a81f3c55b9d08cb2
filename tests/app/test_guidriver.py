"""The GUI driver (app/guidriver.py) on single decisions of a Barbarossa game, by posted events
only: a unit placed from the Setup Tray (seeds, "Setup Tray": a click moves a unit Ready ->
In Stack, a click on a hex places it), and a command the forms cannot build stops the driver
with the reason instead of being worked around."""

from __future__ import annotations

import pygame
import pytest

from app.guiclicks import post
from app.guidriver import GuiDriver, Stuck
from app.play import GameWindow
from kernel.game import Game


@pytest.fixture
def window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = Game.new("barbarossa", tmp_path / "b.wif", seed=1)
    win = GameWindow(game, forms=True)
    win.draw()
    yield win
    pygame.quit()
    game.close()


def drive(window, driver, command, done, frames=40, inputs: list | None = None) -> None:
    """Let the driver make ``command`` (as if its bot had chosen it) until ``done()``; the
    inputs it posts are appended to ``inputs``."""
    play = window.play
    for _ in range(frames):
        if done():
            return
        driver.target, driver._target_at = command, play.decisions.position(play.decisions.deciding_player())
        action = driver.play(window)
        if inputs is not None:
            inputs.append(action)
        post(action)
        for _pass in range(4):  # the mouse events, then the events the forms post in reply
            for event in pygame.event.get():
                window.handle(event)
            window.draw()
    raise AssertionError(f"not done after {frames} inputs: {command}")


def test_a_unit_is_placed_from_the_setup_tray_by_clicks(window):
    play = window.play
    assert play.tray.active()
    choice, option = play.tray.offered_units()[0]
    unit = option.value
    hex_field = next(f for f in option.next_fields() if f.kind == "hex")
    where = hex_field.all_options()[-1].value
    command = {**choice.base(), choice.fields[0].name: unit, hex_field.name: list(where)}

    def placed() -> bool:
        at = window.game.state["units"].units[unit].hex
        return at is not None and list(at) == list(where)

    drive(window, GuiDriver(), command, placed)
    assert list(window.game.state["units"].units[unit].hex) == list(where)


def test_a_command_the_forms_do_not_offer_stops_the_driver_with_its_name(window):
    play = window.play
    driver = GuiDriver()
    driver.target = {"type": "NoSuchCommand", "actor": play.actor()}
    driver._target_at = play.decisions.position(play.decisions.deciding_player())
    with pytest.raises(Stuck, match="NoSuchCommand"):
        driver.play(window)


def test_a_button_below_the_play_forms_bottom_is_scrolled_to_with_the_wheel(window):
    play = window.play
    play.form.place(pygame.Rect(694, 100, 330, 110))  # a short form: the End phase button is below its bottom
    play._built_for = None
    window.draw()
    window.draw()
    driver = GuiDriver()
    command = {"type": "FinishStep", "actor": play.actor()}
    driver.target, driver._target_at = command, play.decisions.position(play.decisions.deciding_player())
    assert driver.play(window).kind == "wheel"
    before = window.game.state.kernel.seq
    drive(window, driver, command, lambda: window.game.state.kernel.seq > before)


def test_a_button_cut_by_the_play_forms_bottom_is_scrolled_whole_and_takes_the_click(window):
    """Issue 11 item 9 (the `wif play --autoplay` Stuck at 1024x768): with only a sliver of End
    phase above the form's bottom edge a click on the sliver was lost; the form now scrolls
    the least that shows the button whole, and a click on it ends the step."""
    from app.guiclicks import Action, find_button, visible_point

    play = window.play
    button = find_button(play.form, finishes=True)
    view = play.body.area.get_abs_rect()
    full = play.form.visible_rect()
    for sliver in (3, 6):  # pixels of the button above the edge
        play.form.place(pygame.Rect(full.x, full.y, full.w, full.h - (view.bottom - button.get_abs_rect().top - sliver)))
        window.gui.update(0.01)
        play._built_for = None
        window.draw()
        window.gui.update(0.01)
        button = find_button(play.form, finishes=True)
        area = play.body.area.get_abs_rect()
        assert area.bottom < button.get_abs_rect().bottom + 40, "the form was not made short enough"
        assert area.contains(button.get_abs_rect()), (sliver, area, button.get_abs_rect())
    before = window.game.state.kernel.seq
    post(Action("click", visible_point(window.gui, button)))
    for _pass in range(4):
        for event in pygame.event.get():
            window.handle(event)
        window.draw()
    assert window.game.state.kernel.seq > before


def test_frames_without_a_click_are_not_counted_as_swallowed_clicks(window):
    """The driver judges each click once, on the frame after it: frames it waits through
    afterwards (the Victory form of `wif play --autoplay`, which stays open) are no clicks;
    three clicks in a row that change nothing still stop it."""
    from app.guiclicks import Action

    driver = GuiDriver()
    click = Action("click", (5, 5), what="nothing")
    driver._check_swallowed(window)  # the screen before the click
    driver._last, driver._judged = click, False
    for _frame in range(10):  # the click changed nothing, then the driver idles
        driver._check_swallowed(window)
    assert driver._swallowed == 1  # the click, not the ten frames after it
    driver._last, driver._judged = click, False
    driver._check_swallowed(window)
    driver._last, driver._judged = click, False
    with pytest.raises(Stuck, match="changed nothing"):
        driver._check_swallowed(window)


def test_a_hex_under_the_play_form_is_dragged_into_the_free_map_and_clicked(window):
    """Issue 11 (the `wif play --autoplay` Stuck "40 keys did not bring scroll towards 218,56
    into view"): the hex to click lies on the map but under the Play form.  The driver drags the
    map (button held, from and to uncovered points) as a player pans it, then clicks the hex:
    the unit is placed there."""
    from app.guiclicks import hex_point

    play = window.play
    choice, option = play.tray.offered_units()[0]
    unit = option.value
    hex_field = next(f for f in option.next_fields() if f.kind == "hex")
    where = tuple(hex_field.all_options()[-1].value)
    command = {**choice.base(), choice.fields[0].name: unit, hex_field.name: list(where)}
    # the map moved so that the hex lies in the middle of the Play form
    panel, dmap = window.panels["detailed"], window.primary
    form = play.form.visible_rect()
    sx, sy = dmap.hex_to_screen(where)
    dmap.scroll_pixels(panel.body.x + sx - form.centerx, panel.body.y + sy - form.centery)
    window.draw()
    sx, sy = dmap.hex_to_screen(where)
    assert form.collidepoint((panel.body.x + sx, panel.body.y + sy)) and hex_point(window, where) is None
    placed_before = window.game.state["units"].units[unit].hex

    def placed() -> bool:
        at = window.game.state["units"].units[unit].hex
        return at is not None and tuple(at) == where

    inputs = []
    drive(window, GuiDriver(), command, placed, inputs=inputs)
    assert placed_before != window.game.state["units"].units[unit].hex
    kinds = [a.kind for a in inputs]
    assert "drag" in kinds and "key" not in kinds, kinds  # panned by dragging, not by arrow keys
    last = inputs[-1]
    assert last.kind == "click" and not play.form.visible_rect().collidepoint(last.pos)
    assert window.primary.screen_to_hex((last.pos[0] - panel.body.x, last.pos[1] - panel.body.y)) == where
