"""app/guispeed.py's pygame_gui shortcuts change no picture: a button given a new text draws
only the look on screen at once, and each other look (hovered, pressed, disabled) it takes
later shows the new text exactly as a button built with that text shows it."""

from __future__ import annotations

import pygame
import pytest

from app.forms import Gui


@pytest.fixture
def gui():
    pygame.display.init()
    pygame.font.init()
    g = Gui((400, 300))
    g.manager  # noqa: B018  (made now: installs the shortcuts)
    yield g
    pygame.quit()


def picture(button) -> bytes:
    return pygame.image.tobytes(button.image, "RGBA")


@pytest.mark.parametrize("look", ["normal", "hovered", "active", "disabled"])
def test_a_button_given_a_new_text_shows_it_in_every_look_as_a_new_button_does(gui, look):
    from pygame_gui.elements import UIButton

    given = UIButton(pygame.Rect(10, 10, 200, 30), "Kiev (204,47)", gui.manager)
    given.set_text("Minsk (203,40)")
    built = UIButton(pygame.Rect(10, 60, 200, 30), "Minsk (203,40)", gui.manager)
    # one look drawn now: the others when shown
    assert sum(state.generated for state in given.drawable_shape.states.values()) == 1
    for button in (given, built):
        button.drawable_shape.set_active_state(look)
        gui.update(0.01)
    assert picture(given) == picture(built)
    # and back to the normal look, the new text still
    for button in (given, built):
        button.drawable_shape.set_active_state("normal")
        gui.update(0.01)
    assert picture(given) == picture(built)


def test_a_scroll_bar_still_takes_the_wheel_and_ignores_the_rest(gui):
    from pygame_gui.elements import UIScrollingContainer

    area = UIScrollingContainer(pygame.Rect(0, 0, 200, 100), gui.manager, allow_scroll_x=False)
    area.set_scrollable_area_dimensions((180, 400))
    gui.update(0.01)
    bar = area.vert_scroll_bar
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(50, 50), button=1)
    assert bar.process_event(click) is False
    bar.hovered = True  # the pointer over the bar: pygame_gui scrolls for the wheel
    turn = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0, precise_y=-1.0, touch=False)
    assert bar.process_event(turn) is True
