"""A form the player asks for comes on top (issue 11, items 3 and 8): Find (Ctrl+F), Unit
Review (Ctrl+U) and the Optional Rules (Ctrl+O) opened while a result waits for its OK, or on
the Victory form, were drawn under it, every frame, so the player typed into a form he could not
see.  Real posted key events on the lab scenario (SDL_VIDEODRIVER=dummy)."""

from __future__ import annotations

import pygame
import pytest

from app.guiclicks import visible_point
from test_playing import lab_game, pump
from test_results_and_keys import key, window_of  # noqa: F401 (the fixture)


def top_window(window):
    return window.gui.manager.get_window_stack().stack[-1]


@pytest.mark.parametrize("letter, form_of", [
    (pygame.K_f, lambda w: w.tool_forms[-1].form),
    (pygame.K_u, lambda w: w.tool_forms[-1].form),
    (pygame.K_o, lambda w: w.rules_form.window),
], ids=["find", "unit review", "optional rules"])
def test_a_form_asked_for_with_ctrl_comes_over_a_waiting_result(window_of, tmp_path, letter, form_of):  # noqa: F811
    window = window_of(lab_game(tmp_path / "f.wif"))
    popups = window.play.popups
    popups.show("Land Combat Resolution", ["a result"])
    popups.show("Weather Report", ["another"])
    window.draw()
    result = popups.current()
    assert top_window(window) is result
    pump(window, *key(letter, pygame.KMOD_CTRL))
    form = form_of(window)
    for _ in range(3):  # it stays on top, frame after frame
        window.draw()
    assert top_window(window) is form
    assert visible_point(window.gui, form) is not None
    pump(window, *key(pygame.K_ESCAPE))  # Esc closes it; the result is on top again, still waiting
    window.draw()
    assert top_window(window) is result and popups.waiting
