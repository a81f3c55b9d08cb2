"""The GUI driver's wheel turns over a list inside a scrolling form (the Play form's lists of
destinations): pygame_gui gives a wheel turn to the scroll bar of what the pointer hovered at
the last frame, so a wheel turned in the same frame as the pointer arrives over a list scrolls
the form it has just left.  The Guadalcanal whole game through the window scrolled the Play form
and a list of destinations inside it in turn, forever.  The driver moves the pointer first and
turns the wheel at the next frame, as a player's hand comes to rest before it turns the wheel."""

from __future__ import annotations

import pygame
import pygame_gui
import pytest
from pygame_gui.elements import UIScrollingContainer, UISelectionList

from app import guispeed
from app.guiclicks import Action, list_row, post, visible_point
from app.guidriver import GuiDriver


class _Gui:
    """What app/guiclicks.py asks of the window's forms: a manager, and whether it is active."""

    def __init__(self, manager):
        self.manager, self.active = manager, True


@pytest.fixture
def form():
    """A form 200 px high whose contents scroll, with a 60-row list in it, the list scrolled
    into the form's view: (gui, the form's scrolling area, the list)."""
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((400, 300))
    guispeed.install()
    manager = pygame_gui.UIManager(screen.get_size())
    area = UIScrollingContainer(pygame.Rect(0, 0, 300, 200), manager)
    area.set_scrollable_area_dimensions((280, 600))
    rows = UISelectionList(pygame.Rect(10, 150, 240, 160), [f"row {i}" for i in range(60)], manager,
                           container=area)
    gui = _Gui(manager)
    frames(manager, 2)
    yield gui, area, rows
    pygame.quit()


def frames(manager, n: int = 1) -> None:
    for _ in range(n):
        for event in pygame.event.get():
            manager.process_events(event)
        manager.update(0.05)


def targets(area, rows) -> tuple[float, float]:
    return area.vert_scroll_bar.target_scroll_position, rows.scroll_bar.target_scroll_position


def wheel_over_the_form(gui, area, driver=None) -> None:
    """The pointer over the form's own scroll bar, the wheel turned down there (the driver
    scrolling the list whole into the form's view)."""
    at = visible_point(gui, area.vert_scroll_bar.sliding_button)
    action = Action("wheel", at, amount=-1, what="the list")
    for _ in range(2):
        post(driver.pointer_first(action) if driver else action)
        frames(gui.manager)


def test_a_wheel_turn_as_the_pointer_arrives_over_a_list_scrolls_the_form_it_left(form):
    """pygame_gui's way, which the driver works around: what the list's wheel turn did."""
    gui, area, rows = form
    wheel_over_the_form(gui, area)
    turn = list_row(gui, rows, 59, "the last row")
    assert turn.kind == "wheel" and turn.amount < 0
    before = targets(area, rows)
    post(turn)  # the pointer's move and the wheel turn in one frame
    frames(gui.manager)
    after = targets(area, rows)
    assert after[0] != before[0] and after[1] == before[1], (before, after)


def test_the_driver_moves_the_pointer_over_the_list_and_turns_the_wheel_a_frame_later(form):
    gui, area, rows = form
    driver = GuiDriver()
    wheel_over_the_form(gui, area, driver)
    turn = list_row(gui, rows, 59, "the last row")
    before = targets(area, rows)
    first = driver.pointer_first(turn)
    assert first.kind == "move" and first.pos == turn.pos
    post(first)
    frames(gui.manager)
    assert targets(area, rows) == before  # a move scrolls nothing
    assert driver.pointer_first(turn) is turn  # the pointer is there: now the wheel
    post(turn)
    frames(gui.manager)
    after = targets(area, rows)
    assert after[0] == before[0] and after[1] > before[1], (before, after)


def test_a_row_far_down_a_long_list_is_spun_to_with_several_notches(form):
    gui, area, rows = form
    near, far = list_row(gui, rows, 8, "row 8"), list_row(gui, rows, 59, "row 59")
    assert near.kind == "wheel" and far.kind == "wheel"
    assert far.amount < near.amount <= -1  # down: the far row by more notches at once


def test_two_aims_scrolling_in_turn_without_a_click_stop_the_driver_with_what_it_was_doing():
    """Each aim's own count starts again when the other takes its turn: the driver counts the
    inputs since its last click as well."""
    from app.guidriver import Stuck

    driver = GuiDriver()
    form = Action("wheel", (1013, 393), amount=-1, what="the list of to")
    row = Action("wheel", (976, 158), amount=1, what="to 352,119")
    with pytest.raises(Stuck, match="without a click, the last for"):
        for turn in range(5000):
            action = form if turn % 2 else row
            driver.judge_progress(action)
            driver._last = action


def test_a_click_between_scrolling_inputs_is_progress():
    driver = GuiDriver()
    for turn in range(5000):
        action = Action("click", (10, 10), what="a row") if turn % 100 == 0 else \
            Action("wheel", (976, 150 + turn % 100), amount=-1, what=f"row {turn // 100}")
        driver.judge_progress(action)
        driver._last = action


def test_a_row_the_list_is_gliding_to_is_waited_for_not_wheeled_past(form):
    """A wheel turn glides the list over several frames (by the time each frame took): turned
    again mid-glide for a row the list will show, it would carry the list past it."""
    gui, area, rows = form
    rows.set_relative_position((10, 20))  # the whole list in the form's view
    frames(gui.manager)
    turn = list_row(gui, rows, 9, "row 9")
    assert turn.kind == "wheel" and turn.amount == -1
    post(Action("move", turn.pos))
    frames(gui.manager)
    post(turn)
    for event in pygame.event.get():
        gui.manager.process_events(event)
    gui.manager.update(0.001)  # a short frame: the glide has only begun
    assert list_row(gui, rows, 9, "row 9").kind == "wait"
    for _ in range(200):
        action = list_row(gui, rows, 9, "row 9")
        if action.kind != "wait":
            break
        frames(gui.manager)
    assert action.kind == "click", action


def test_wheel_turns_while_a_list_glides_are_progress_though_the_pointer_stays():
    from app.guidriver import Stuck

    driver = GuiDriver()
    turn = Action("wheel", (976, 462), amount=-1, what="to SC")
    for _ in range(200):
        driver.judge_progress(turn, moved=True)
        driver._last = turn
    with pytest.raises(Stuck, match="wheel turns did not bring to SC into view"):
        for _ in range(200):
            driver.judge_progress(turn, moved=False)
            driver._last = turn


def test_watching_a_list_glide_gives_up_after_enough_frames_and_seconds(monkeypatch):
    """pygame_gui glides a list by the time between frames: on a quiet machine 300 frames may
    pass within a short glide, so the driver gives up only once the frames and the seconds are
    both over their limits."""
    from app import guidriver
    from app.guiclicks import Action

    clock = [100.0]
    monkeypatch.setattr(guidriver.time, "monotonic", lambda: clock[0])
    driver = guidriver.GuiDriver()
    gliding = Action("wait", (10, 10), what="row 7 to come into view")
    for _ in range(guidriver.WAITS_AT_MOST + 50):
        driver.wait(gliding)  # many quick frames: the glide is still young
    clock[0] += guidriver.WAIT_SECONDS_AT_MOST + 1
    with pytest.raises(guidriver.Stuck, match="row 7 to come into view"):
        driver.wait(gliding)
