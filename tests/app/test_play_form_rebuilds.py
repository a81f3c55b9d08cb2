"""A click in the game window redoes only what changed (issue 11, clicks through the window):
the Play form gives back the widgets whose content is the same (their callbacks bound afresh,
the marks the GUI driver reads set afresh), and a move leaves the global map's terrain image
alone.

Situation (lab scenario, as tests/app/test_playing.py): German corps in 206,51 (armour) and
206,52 (infantry), a Soviet rifle corps in 207,52, the German Land Movement step."""

from __future__ import annotations

from app.guiclicks import list_row
from app.placewords import hex_words
from app.playforms import FINISH
from app.wording import in_words
from helpers import unit

from test_playing import buttons, click, destinations, hex_pos, lab_game, motion, open_window, press, pump  # noqa: F401


def body_widgets(play) -> list:
    return list(play.body.get_container().elements)


def test_choosing_a_unit_keeps_the_widgets_that_did_not_change(open_window, tmp_path):
    game = lab_game(tmp_path / "keep.wif")
    window = open_window(game)
    play = window.play
    finish = buttons(play.body)[FINISH]
    pump(window, *click(hex_pos(window, (206, 52))))
    assert play.fill.values["unit"] == "g-inf"
    assert play.body.reused > 0
    assert buttons(play.body)[FINISH] is finish  # the same widget, not a new one
    assert finish.alive() and finish.visible
    # the "change" button of the chosen unit is marked with what it clears
    assert [b.clears for b in play.body.owned if hasattr(b, "clears")] == ["unit"]
    # hovering a destination adds its preview; the rest is given back
    goal = (205, 53)
    assert goal in destinations(play)
    pump(window, motion(hex_pos(window, goal)))
    assert [e for e in body_widgets(play) if getattr(e, "preview", None)]
    assert buttons(play.body)[FINISH] is finish


def test_a_reused_widget_answers_with_its_new_callback_and_loses_old_marks(open_window, tmp_path):
    game = lab_game(tmp_path / "marks.wif")
    window = open_window(game)
    play = window.play
    pump(window, *click(hex_pos(window, (206, 52))))
    goal = (205, 53)
    pump(window, *click(hex_pos(window, goal)))
    assert tuple(game.state["units"].units["g-inf"].hex) == goal
    # a fresh move: no widget still says it clears the unit moved before
    assert not [e for e in body_widgets(play) if hasattr(e, "clears")]
    assert not [b for b in play.body.owned if getattr(b, "command", {}).get("unit") == "g-inf"]
    # the End phase button, given back at each rebuild, still ends the phase
    before = game.state.kernel.seq
    press(window, play.body, FINISH)
    assert game.state.kernel.seq > before
    assert not game.state.kernel.sequence.current.endswith("land-movement")


def test_a_move_keeps_the_global_maps_terrain_image(open_window, tmp_path):
    game = lab_game(tmp_path / "terrain.wif")
    window = open_window(game)
    gmap = window.global_map
    gmap.set_view("units")
    units_before = gmap.image()
    gmap.set_view("terrain")
    terrain = gmap.image()
    pump(window, *click(hex_pos(window, (206, 52))))
    pump(window, *click(hex_pos(window, (205, 53))))
    assert tuple(game.state["units"].units["g-inf"].hex) == (205, 53)
    assert gmap.image() is terrain  # the terrain does not change with a move
    gmap.set_view("units")
    assert gmap.image() is not units_before  # the units view shows the move


def test_hovering_another_destination_sets_only_the_preview_text(open_window, tmp_path):
    game = lab_game(tmp_path / "hover.wif")
    window = open_window(game)
    play = window.play
    pump(window, *click(hex_pos(window, (206, 52))))
    first, second = sorted(destinations(play))[:2]
    pump(window, motion(hex_pos(window, first)))
    box = next(e for e in body_widgets(play) if getattr(e, "preview", None))
    widgets = body_widgets(play)
    pump(window, motion(hex_pos(window, second)))
    assert body_widgets(play) == widgets  # no widget made or moved
    assert box.preview is play.map.hover_preview and box.html_text.startswith(f"{hex_words(second)}:")
    # leaving the offered hexes removes the preview (a rebuild)
    pump(window, motion(hex_pos(window, (206, 58))))
    assert not [e for e in body_widgets(play) if getattr(e, "preview", None)]


# more German corps than the form shows as buttons: the units to move are a list
MANY = [unit(f"g-extra{i}", "germany", (204 + i % 2, 49 + i // 2)) for i in range(10)]


def units_list(play):
    return next(e for e in play.body.owned if getattr(e, "field_name", None) == "unit")


def shown_rows(lst) -> dict:
    return {item["text"]: item["button_element"] for item in lst.item_list if item["button_element"] is not None}


def test_after_a_move_the_units_list_comes_back_its_rows_moved_up(open_window, tmp_path):
    """The list of units to move gives way to the chosen unit's destinations and comes back,
    after the move, as the same list less the unit moved: the rows still shown keep their
    buttons (app/listrows.py), and a click on a row still chooses its unit."""
    game = lab_game(tmp_path / "list.wif", extra_units=MANY)
    window = open_window(game)
    play = window.play
    lst = units_list(play)
    before = shown_rows(lst)
    labels = [item["text"] for item in lst.item_list]
    assert len(labels) == 12 and len(before) < 12  # some rows below the list's bottom
    pump(window, *click(hex_pos(window, (206, 52))))
    assert play.fill.values["unit"] == "g-inf"
    assert not any(getattr(e, "field_name", None) == "unit" for e in play.body.owned)  # put aside, hidden
    assert not lst.visible
    pump(window, *click(hex_pos(window, (205, 53))))
    assert tuple(game.state["units"].units["g-inf"].hex) == (205, 53)
    again = units_list(play)
    assert again is lst and lst.visible
    offered = play.fill.pending().all_options()
    assert [item["text"] for item in lst.item_list] == [in_words(game, o.label or str(o.value)) for o in offered]
    assert len(lst.item_list) == 11 and "g-inf" not in [o.value for o in offered]
    after = shown_rows(lst)
    kept = [text for text, button in after.items() if before.get(text) is button]
    assert len(kept) >= len(after) - 1  # at most the new bottom row needed another button's text
    for i, item in enumerate(lst.item_list):  # every row where a new list would put it
        if item["button_element"] is not None:
            assert item["button_element"].relative_rect.top == i * lst.list_item_height
    index = 2
    pump(window, *click(list_row(window.gui, lst, index, "a row").pos))
    assert play.fill.values["unit"] == offered[index].value


def test_the_status_line_is_drawn_by_the_window_and_wraps_a_long_reason(open_window, tmp_path):
    """The boxes rewritten after every move (status, log, activities left) are plates the
    window draws (app/textplate.py): a long rule reason wraps to lines inside the form, the
    markup stays readable as the box's html_text."""
    from app.textplate import runs

    game = lab_game(tmp_path / "plate.wif")
    window = open_window(game)
    play = window.play
    reason = "this move is refused because " + "the hex is far beyond the unit's movement allowance " * 3
    play.say(reason)
    window.draw()
    plate = next(e for e in body_widgets(play) if getattr(e, "status_text", None))
    assert plate.status_text == reason and plate.html_text == reason
    assert plate.rect.width <= play.body.width and plate.rect.height >= 3 * 18  # three lines or more
    # another text of as many lines: the same plate, given the new picture
    other = reason.replace("refused", "not allowed")
    play.say(other)
    window.draw()
    again = next(e for e in body_widgets(play) if getattr(e, "status_text", None))
    assert again is plate and again.html_text == other and again.status_text == other
    # markup: bold and coloured runs, lines at <br>, entities read as characters
    assert runs("a <b>b</b><br><font color='#ff8060'>c &gt; d</font>", (1, 2, 3)) == \
        [[("a ", False, (1, 2, 3)), ("b", True, (1, 2, 3))], [("c > d", False, (255, 128, 96))]]


def test_the_window_notices_another_process_appending_to_its_save(open_window, tmp_path):
    """Another window (or ``wif submit``) moves a unit in the same save: within a second the
    window folds the new events, the map and the Play form follow, and the status line says
    the game moved on."""
    from kernel.game import Game

    path = tmp_path / "shared.wif"
    game = lab_game(path)
    window = open_window(game)
    play = window.play
    assert window.save_watch.check() == 0  # nothing new
    other = Game.open(path)
    try:
        player = other.state.kernel.controllers["germany"]
        assert other.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g-inf", "to": [205, 53]},
                            player=player).accepted
    finally:
        other.close()
    assert window.save_watch.tick(now=0.0) == 0  # not checked before its second is up
    assert window.save_watch.check() > 0
    window.draw()
    assert tuple(game.state["units"].units["g-inf"].hex) == (205, 53)
    assert "g-inf" in window.primary.model.units().at_hex.get("205,53", [])
    assert "the game moved on" in play.status[0]
    plate = next(e for e in body_widgets(play) if getattr(e, "status_text", None))
    assert "the game moved on" in plate.status_text
    offered = [o.value for o in play.fill.pending().all_options()] if play.fill and play.fill.pending() else []
    assert "g-inf" not in offered  # the form follows: the moved unit is no longer offered
    pump(window, *click(hex_pos(window, (206, 51))))  # and the window plays on from there
    pump(window, *click(hex_pos(window, (206, 52))))
    assert tuple(game.state["units"].units["g-arm"].hex) == (206, 52)


def test_a_long_refusal_in_the_preview_box_is_read_whole(open_window, tmp_path, monkeypatch):
    """The preview of a hovered hex grows with a rule's reason of several lines (no scroll
    bar), and the widgets below it move down to make room."""
    game = lab_game(tmp_path / "long.wif")
    window = open_window(game)
    play = window.play
    pump(window, *click(hex_pos(window, (206, 52))))
    first, second = sorted(destinations(play))[:2]
    pump(window, motion(hex_pos(window, first)))
    box = next(e for e in body_widgets(play) if getattr(e, "preview", None))
    short_bottom = box.rect.bottom
    below = min((e for e in body_widgets(play) if e.rect.top >= short_bottom), key=lambda e: e.rect.top)
    gap = below.rect.top - box.rect.top
    reason = "a unit may not move there: " + "the hex is in an enemy zone of control and out of supply " * 3
    monkeypatch.setattr(play.decisions, "preview", lambda command: {"legal": False, "reason": reason})
    pump(window, motion(hex_pos(window, second)))
    box = next(e for e in body_widgets(play) if getattr(e, "preview", None))
    assert "enemy zone of control" in box.html_text and box.scroll_bar is None
    assert box.rect.height > 64  # three lines and more, whole
    below = min((e for e in body_widgets(play) if e.rect.top >= box.rect.bottom), key=lambda e: e.rect.top)
    assert below.rect.top - box.rect.top > gap  # what was under the box moved down


def test_option_buttons_are_given_new_texts_and_still_choose_their_option(open_window, tmp_path):
    """A field's option buttons (a few destinations) come back with the next unit's options
    written on them (app/formbody.py, ``role``): fewer new widgets, the same answers."""
    slow = [unit("g-slow1", "germany", (204, 50), move=2), unit("g-slow2", "germany", (204, 49), move=2)]
    game = lab_game(tmp_path / "options.wif", extra_units=slow)  # one hex each: a few destinations
    window = open_window(game)
    play = window.play

    def option_buttons():
        return [b for b in play.body.owned if getattr(b, "sets", None) is not None]

    pump(window, *click(hex_pos(window, (204, 50))))
    first = option_buttons()
    assert first and all(b.sets[0] == "to" for b in first) and len(first) <= 8
    press(window, play.body, "change")
    pump(window, *click(hex_pos(window, (204, 49))))
    assert play.fill.values["unit"] == "g-slow2"
    again = option_buttons()
    assert {id(b) for b in again} & {id(b) for b in first}  # some buttons given back with new texts
    offered = {tuple(o.value) for o in play.fill.pending().all_options()}
    assert {tuple(b.sets[1]) for b in again} == offered
    for b in again:
        assert hex_words(tuple(b.sets[1])) in b.text  # each button says where it goes
    target = again[-1]
    goal = tuple(target.sets[1])
    pump(window, *click(target.rect.center))
    assert tuple(game.state["units"].units["g-slow2"].hex) == goal


def test_a_shorter_form_keeps_the_scrolling_area_and_the_view_on_the_widgets(open_window, tmp_path):
    """The Play form's scrolling area is not shrunk for a shorter form at the same position
    (resizing rebuilds its scroll bar): it shrinks at the next position; the view never shows
    the kept room below the widgets."""
    game = lab_game(tmp_path / "area.wif", extra_units=MANY)
    window = open_window(game)
    body = window.play.body
    body.finish(body.area.rect.height + 600)  # as tall as a long form (widgets far below the view)
    bar = body.area.vert_scroll_bar
    width, height = body._area_size
    bar.set_scroll_from_start_percentage(1.0 - bar.visible_percentage)  # the player scrolled to the bottom
    shorter = height - 300
    body.finish(shorter, shrink=False)
    assert body._area_size == (width, height)  # kept
    assert bar.start_percentage * height + body.area.rect.height <= shorter + 32  # the view ends at the widgets
    body.finish(shorter)  # a new position
    assert body._area_size[0] == width and shorter <= body._area_size[1] < shorter + 32  # (a multiple of 32)
    # a whole move still plays with the kept area
    pump(window, *click(hex_pos(window, (206, 52))))
    pump(window, *click(hex_pos(window, (205, 53))))
    assert tuple(game.state["units"].units["g-inf"].hex) == (205, 53)


def test_selectable_units_rows_out_of_view_move_up_when_scrolled_to(open_window, tmp_path):
    """After a move the rows of Selectable Units in view move up at once; the rows below the
    view move when the list is scrolled to them, and every row is then where it belongs."""
    from app.selectable import ROW_H

    game = lab_game(tmp_path / "rows.wif", extra_units=MANY)
    window = open_window(game)
    selectable = window.play.selectable
    ids = list(selectable.unit_ids)
    first = ids[0]
    at = window.play.map.unit_hex(first)
    window.primary.center_on(at)
    window.draw()
    pump(window, *click(hex_pos(window, at)))
    goal = sorted(destinations(window.play))[0]
    window.primary.center_on(goal)
    window.draw()
    pump(window, *click(hex_pos(window, goal)))
    assert first not in selectable.unit_ids and len(selectable.unit_ids) == len(ids) - 1
    assert selectable._pending  # rows below the view wait
    rows = selectable.form.unit_rows
    top, bottom = selectable._view()
    for i, button in enumerate(rows):
        if 2 + ROW_H * i <= bottom:
            assert button.relative_rect.y == 2 + ROW_H * i + 4
    bar = selectable.box.vert_scroll_bar
    bar.set_scroll_from_start_percentage(1.0 - bar.visible_percentage)
    window.draw()
    bar.set_scroll_from_start_percentage(0.5)
    window.draw()
    assert not selectable._pending
    assert [b.relative_rect.y for b in rows] == [2 + ROW_H * i + 4 for i in range(len(rows))]


def test_the_change_button_of_a_chosen_unit_is_kept_hidden_while_the_units_are_listed(open_window, tmp_path):
    """The "change" button goes while the units left are listed (after a move) and comes back,
    the same widget, when the next unit is chosen: no new button at every unit chosen."""
    game = lab_game(tmp_path / "change.wif")
    window = open_window(game)
    play = window.play
    pump(window, *click(hex_pos(window, (206, 52))))
    change = next(b for b in play.body.owned if getattr(b, "clears", None) == "unit")
    pump(window, *click(hex_pos(window, (205, 53))))  # moved: the units left are listed
    assert not [b for b in play.body.owned if getattr(b, "clears", None)]
    assert change.alive() and not change.visible  # kept, hidden, marking nothing
    pump(window, *click(hex_pos(window, (206, 51))))
    assert play.fill.values["unit"] == "g-arm"
    assert next(b for b in play.body.owned if getattr(b, "clears", None) == "unit") is change
    assert change.visible
