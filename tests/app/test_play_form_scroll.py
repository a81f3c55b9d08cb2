"""Issue 11 (a click is never swallowed): a button the player himself scrolls to a sliver at
the Play form's edge (the wheel, by posted events) does not stay a sliver, whose click
pygame_gui would lose: once the scrolling rests the view goes on the way he scrolled, showing
the button whole at the edge he scrolled towards, or hiding it at the edge he scrolled away
from.  The lab's Land Movement (as tests/app/test_playing.py), a form made short."""

from __future__ import annotations

import pygame
import pytest

from app.formbody import SLIVER
from app.guiclicks import Action, find_button, post, visible_point

from test_playing import click, hex_pos, lab_game, open_window, pump  # noqa: F401


@pytest.fixture
def window(open_window, tmp_path):
    """The lab's German Land Movement, the infantry corps chosen: its destinations' buttons,
    "change" and End phase in a Play form made short, so they scroll."""
    game = lab_game(tmp_path / "scroll.wif")
    win = open_window(game)
    pump(win, *click(hex_pos(win, (206, 52))))
    assert win.play.fill.values["unit"] == "g-inf"
    win.play.form.place(pygame.Rect(694, 100, 330, 190))
    win.play._built_for = None
    win.draw()
    win.draw()
    return win


def frames_until_rest(window, most: int = 200) -> None:
    """Handle the posted events and draw frames until the form's scroll stays put."""
    bar = window.play.body.area.vert_scroll_bar
    last, still = None, 0
    for _ in range(most):
        for event in pygame.event.get():
            window.handle(event)
        window.draw()
        now = bar.start_percentage
        still = still + 1 if now == last else 0
        last = now
        if still >= 3:
            return
    raise AssertionError("the form's scroll never came to rest")


def geometry(window, button):
    """(top of the view, bottom of the view, the button's rect) in the scrolling area's own
    coordinates, where the scroll bar says the view is."""
    body = window.play.body
    area_h = body._area_size[1]
    top = body.area.vert_scroll_bar.start_percentage * area_h
    return top, top + body._view_height(), button.relative_rect


def place_before_one_wheel_turn(window, button, showing: int, down: bool) -> None:
    """Scroll (as the player might have, earlier) to where one more wheel turn would leave
    ``showing`` pixels of ``button`` at the view's bottom edge; no button is a sliver there."""
    body = window.play.body
    bar = body.area.vert_scroll_bar
    area_h = body._area_size[1]
    view_h = body._view_height()
    # one wheel turn moves the thumb by its visible share times the wheel speed (pygame_gui)
    turn = bar.visible_percentage * bar.scroll_wheel_speed / bar.scrollable_height * area_h
    r = button.relative_rect
    after = r.top + showing - view_h  # the view's top after the turn
    before = after - turn if down else after + turn
    assert 0 <= before <= area_h - view_h, "the form is not long enough for this test"
    bar.set_scroll_from_start_percentage(before / area_h)
    frames_until_rest(window)
    top, bottom, _ = geometry(window, button)
    assert abs(top - before) < 1, (top, before)


def on_screen(window, button):
    """The view's and ``button``'s rectangles on the screen, as drawn."""
    area = window.play.body.area
    return getattr(area, "_view_container", area).get_abs_rect(), button.get_abs_rect()


def sliver(window, button) -> int | None:
    """Pixels of ``button`` showing at an edge of the view when fewer than SLIVER, else None."""
    view, r = on_screen(window, button)
    if view.bottom < r.bottom and 0 < view.bottom - r.top < SLIVER:
        return view.bottom - r.top
    if r.top < view.top and 0 < r.bottom - view.top < SLIVER:
        return r.bottom - view.top
    return None


def slivers(window) -> list:
    """The buttons of the Play form showing as slivers, with their pixels."""
    from pygame_gui.elements import UIButton

    return [(b.text, sliver(window, b)) for b in window.play.body.area.get_container().elements
            if isinstance(b, UIButton) and b.visible and sliver(window, b) is not None]


def wheel(window, amount: int) -> None:
    """A wheel turn over the form's scroll bar, the pointer there a frame before (pygame_gui
    scrolls for a wheel only over what it saw hovered)."""
    bar = window.play.body.area.vert_scroll_bar
    where = visible_point(window.gui, bar)
    post(Action("click", where))
    pygame.event.clear()  # only the pointer moved there
    window.draw()
    post(Action("wheel", where, amount=amount))
    frames_until_rest(window)


def test_a_wheel_turn_that_leaves_a_sliver_of_a_button_at_the_bottom_shows_it_whole_and_it_takes_the_click(window):
    play = window.play
    end_phase = find_button(play.form, finishes=True)
    for showing in (3, 6):
        place_before_one_wheel_turn(window, end_phase, showing, down=True)
        assert sliver(window, end_phase) is None
        wheel(window, -1)  # down
        assert not slivers(window), f"{showing} px: {slivers(window)}"
        view, r = on_screen(window, end_phase)
        assert view.contains(r), (showing, view, r)  # whole, the way he scrolled
    before = window.game.state.kernel.seq
    post(Action("click", visible_point(window.gui, end_phase)))
    for _pass in range(4):
        for event in pygame.event.get():
            window.handle(event)
        window.draw()
    assert window.game.state.kernel.seq > before, "the click on End phase was lost"


def test_a_wheel_turn_up_that_leaves_a_sliver_of_a_button_at_the_bottom_hides_it(window):
    play = window.play
    button = find_button(play.form, clears="unit")  # "change" (the unit chosen), above the destinations' list
    place_before_one_wheel_turn(window, button, 5, down=False)
    wheel(window, 1)  # up: the button leaves at the bottom edge
    assert not slivers(window), slivers(window)
    view, r = on_screen(window, button)
    assert view.bottom <= r.top, (view, r)  # gone below the edge, the way he scrolled
    assert play.body.area.vert_scroll_bar.start_percentage > 0  # not thrown back to the top
