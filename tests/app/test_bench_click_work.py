"""A click in the game window does only the work of what it changed (issue 11, "Figures": the
click on a unit and the click on its destination, ``wif bench play``):

- the Play form's option buttons are shelved hidden after a move and carry the next unit's
  destinations (no new widget, none killed), and still choose their option;
- the Play form's scrolling area keeps its size through the moves of one step (its scroll
  bar is not rebuilt at each click), and the view still ends at the widgets;
- Selectable Units hides the rows far from its view (pygame_gui would hand each of them every
  event) and shows them when the list is scrolled to them, where a click picks them;
- a side panel whose content did not change is not drawn again, and is when it changes;
- a text plate's lines are drawn once and kept, the picture the same as drawn afresh.

Situations: the lab scenario as tests/app/test_playing.py (German Land Movement)."""

from __future__ import annotations

import pygame
from app.placewords import hex_words
from helpers import unit

from test_playing import buttons, click, destinations, hex_pos, lab_game, motion, open_window, press, pump  # noqa: F401

SLOW = [unit("g-slow1", "germany", (204, 50), move=2), unit("g-slow2", "germany", (204, 49), move=2)]
MANY = [unit(f"g-row{i}", "germany", (200 + i % 4, 45 + i // 4)) for i in range(28)]


def option_buttons(play) -> list:
    return [b for b in play.body.owned if getattr(b, "sets", None) is not None and b.sets[0] == "to"]


def test_after_a_move_the_next_units_destinations_take_the_shelved_option_buttons(open_window, tmp_path):
    game = lab_game(tmp_path / "shelf.wif", extra_units=SLOW)
    window = open_window(game)
    play = window.play
    pump(window, *click(hex_pos(window, (204, 50))))
    first = option_buttons(play)
    assert first and len(first) <= 8  # buttons, not a list
    goal = tuple(first[0].sets[1])
    pump(window, *click(first[0].rect.center))
    assert tuple(game.state["units"].units["g-slow1"].hex) == goal
    # the units left (a few: buttons too) take some of them; the others are hidden, kept, and
    # offer nothing meanwhile
    shelved = [b for b in first if b.alive()]
    assert len(shelved) == len(first)  # none killed
    assert all((b.visible and b.sets[0] == "unit") or (not b.visible and not hasattr(b, "sets")) for b in shelved)
    pump(window, *click(hex_pos(window, (204, 49))))
    assert play.fill.values["unit"] == "g-slow2"
    again = option_buttons(play)
    assert {id(b) for b in again} & {id(b) for b in shelved}  # given back with the new texts
    assert all(b.visible for b in again)
    assert {tuple(b.sets[1]) for b in again} == destinations(play)
    target = again[-1]
    goal = tuple(target.sets[1])
    assert hex_words(goal) in target.text  # the place in words (app/placewords.py)
    pump(window, *click(target.rect.center))
    assert tuple(game.state["units"].units["g-slow2"].hex) == goal


def test_the_play_forms_scrolling_area_keeps_its_size_through_the_steps_moves(open_window, tmp_path):
    game = lab_game(tmp_path / "area.wif", extra_units=SLOW)
    window = open_window(game)
    play = window.play
    sizes = []
    for at in ((204, 50), (204, 49)):
        pump(window, *click(hex_pos(window, at)))
        sizes.append(play.body._area_size)
        target = option_buttons(play)[0]
        pump(window, *click(target.rect.center))
        sizes.append(play.body._area_size)
    # it grows with the log, never shrinks back for the shorter form after a move (each resize
    # rebuilds the scroll bar); before, it changed at every click
    assert sizes == sorted(sizes) and len(set(sizes)) < len(sizes), sizes
    bar = play.body.area.vert_scroll_bar
    if bar is not None:  # the view never shows the kept room below the widgets
        bottom = max(e.relative_rect.bottom for e in play.body.get_container().elements if e.visible)
        top = bar.start_percentage * play.body._area_size[1]
        assert top <= max(0, bottom - play.body.area.rect.height) + 4
    # a new step shrinks it to its widgets again
    press(window, play.body, "End phase (finish this step)")
    assert not game.state.kernel.sequence.current.endswith("land-movement")


def test_selectable_units_rows_far_from_the_view_are_hidden_and_shown_when_scrolled_to(open_window, tmp_path):
    from app.selectable import ROW_H, SHOWN_MARGIN_ROWS

    game = lab_game(tmp_path / "rows.wif", extra_units=MANY)
    window = open_window(game)
    selectable = window.play.selectable
    rows = selectable.form.unit_rows
    top, bottom = selectable._view()
    far = [b for b in rows if b.relative_rect.y - 4 > bottom + SHOWN_MARGIN_ROWS * ROW_H]
    near = [b for b in rows if b.relative_rect.y - 4 <= bottom]
    assert far and near  # a list longer than its view and its margin
    assert all(not b.visible for b in far) and all(b.visible for b in near)
    images = [image for image, button in selectable.rows.values() if button in far and image is not None]
    assert images and all(not image.visible for image in images)
    bar = selectable.box.vert_scroll_bar
    bar.set_scroll_from_start_percentage(1.0 - bar.visible_percentage)  # the player scrolls to the end
    pump(window)
    pump(window)
    last = rows[-1]
    assert last.visible and not rows[0].visible  # the first row is now far above the view
    unit_id = last.unit_id
    pump(window, *click(last.rect.center))
    assert window.play.fill.values["unit"] == unit_id  # a row shown again is picked by a click


def test_a_side_panel_is_drawn_again_only_when_what_it_shows_changed(open_window, tmp_path, monkeypatch):
    game = lab_game(tmp_path / "panels.wif")
    window = open_window(game)
    window.panels["global"].geometry.rolled = False  # rolled up in the 1024x768 layout
    drawn = []
    for kind in ("global", "sequence", "main"):
        original = getattr(type(window), f"_draw_{kind}")
        monkeypatch.setattr(type(window), f"_draw_{kind}",
                            lambda self, panel, original=original, kind=kind: (drawn.append(kind), original(self, panel)))
    window.draw()
    drawn.clear()
    window.draw()
    assert drawn == []  # nothing changed: every one blitted as drawn last frame
    body = window.panels["main"].body
    before = window.screen.subsurface(body).copy()
    window.say("Germany: 2nd Infantry moves")  # a new message in the top bar
    window.draw()
    assert drawn == ["main"]
    assert pygame.image.tobytes(window.screen.subsurface(body), "RGB") != pygame.image.tobytes(before, "RGB")
    drawn.clear()
    window.global_map.set_view("weather")
    window.draw()
    assert drawn == ["global"]
    window.panels["global"].geometry.rolled = True  # off the map again, for the clicks
    drawn.clear()
    pump(window, *click(hex_pos(window, (206, 52))))
    pump(window, *click(hex_pos(window, (205, 53))))  # a move
    assert tuple(game.state["units"].units["g-inf"].hex) == (205, 53)
    assert "main" in drawn and "sequence" not in drawn  # the move's message; the same step


def test_a_text_plates_kept_lines_draw_the_same_picture(open_window, tmp_path):
    from app import textplate

    game = lab_game(tmp_path / "plate.wif")
    window = open_window(game)
    manager = window.gui.manager
    log = ["Germany uses 1 of its land moves", "Germany: 2nd Infantry moves 206,52 -&gt; 205,53",
           "<font color='#ff4040'>refused: <b>no movement points left</b> for a unit that has moved</font>"]
    textplate._LINES.clear()
    fresh = textplate.plate_surface(manager, "<br>".join(log), 300)
    kept = len(textplate._LINES)
    assert kept == len(log)
    again = textplate.plate_surface(manager, "<br>".join(log[1:] + ["a new line"]), 300)
    assert len(textplate._LINES) == kept + 1  # only the new line drawn
    textplate._LINES.clear()
    assert pygame.image.tobytes(textplate.plate_surface(manager, "<br>".join(log), 300), "RGB") == \
        pygame.image.tobytes(fresh, "RGB")
    assert again.get_height() == fresh.get_height()
