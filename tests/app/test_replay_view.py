"""The replay viewer driven by real pygame events (SDL_VIDEODRIVER=dummy): the timeline's keys,
buttons and slider, bookmarks, play/pause, the history panel (filters, a click that jumps and
centres), the outlined hexes on the map, Play on from here, and a save whose plugin is missing."""

from __future__ import annotations

import hashlib
import os
import shutil

import pygame
import pytest

from app import mapstyle
from app.detailed import STATIC_LAYERS
from app.globalmap import HEX_PX
from app.mapmodel import MapModel
from app.render import HIGHLIGHT, centre_of
from app.replay_view import CURRENT_ROW, GOOD, ReplayWindow, printable, run_replay_window
from app.stamps import hex_corners
from app.wording import in_words
from kernel.game import Game
from kernel.verify import verify

from helpers import play_land_turns, unit

UNITS = [unit("g1", "germany", (204, 52), "arm", move=6, name="4th Panzer Army"),
         unit("g2", "germany", (203, 53), name="9th Army"),
         unit("r1", "ussr", (210, 48), combat=3, move=3, name="3rd Army")]


def play_lab_game(path, turns: int = 3) -> None:
    """A lab game of a few turns, played by what the game offers: each power chooses a land
    action and moves each of its units once towards the enemy (Germany east, the USSR west:
    hexes change control)."""
    game = Game.new("lab", path, seed=7, snapshot_every=100, extra_plugins=["land", "turn"], options={
        "units": UNITS, "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
        "actions": {"germany": "land"}})
    play_land_turns(game, turns, towards={"germany": 1, "ussr": -1})
    game.close()


@pytest.fixture(scope="module")
def lab_save(tmp_path_factory):
    path = tmp_path_factory.mktemp("replay") / "lab.wif"
    play_lab_game(path)
    return path


@pytest.fixture(scope="module")
def model():
    return MapModel()


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.fixture
def viewer(lab_save, model, tmp_path, monkeypatch):
    # a config folder of its own, holding the players' keys the lab game was made with (a
    # fork is signed by one of them)
    shutil.copytree(os.environ["WIF_CONFIG_DIR"], tmp_path / "config")
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    clock = FakeClock()
    win = ReplayWindow(lab_save, saves_dir=tmp_path / "saves", clock=clock, model=model)
    win.window.settings.autoscroll = 0
    win.fake_clock = clock
    yield win
    win.close()
    pygame.quit()


def post(win, *events):
    for e in events:
        pygame.event.post(e)
    for e in pygame.event.get():
        win.handle(e)


def key(k, mod=0, unicode=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0)


def motion(pos, buttons=(0, 0, 0)):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons)


def click(pos, button=1):
    return [motion(pos), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)]


def press_button(win, label):
    post(win, *click(dict(win.buttons())[label].center))


def pump(win, frames=3):
    """Let pygame_gui's own events (a press, a changed drop-down) come back through the viewer."""
    for _ in range(frames):
        win.draw()
        for e in pygame.event.get():
            win.handle(e)


def menu_rows(win) -> dict:
    """The kind drop-down's visible rows while it is open: text -> button rect."""
    state = win.kind_menu.current_state
    selection = getattr(state, "options_selection_list", None)
    if selection is None:
        return {}
    shown = selection.item_list_container.rect
    return {item["text"]: item["button_element"].rect for item in selection.item_list
            if item.get("button_element") is not None and item["button_element"].visible
            and shown.contains(item["button_element"].rect)}


def choose_kind(win, kind):
    """Open the kind drop-down with a click and click ``kind`` in it (scrolling with the wheel)."""
    post(win, *click(win.kind_menu.rect.center))
    pump(win)
    for _ in range(40):
        rows = menu_rows(win)
        if kind in rows:
            break
        options = ["all kinds"] + win.kinds
        up = options.index(kind) < min(options.index(text) for text in rows)
        below = max(rows.values(), key=lambda r: r.y)
        # pygame_gui finds what the wheel is over from the pointer, which posted events do not
        # move on the dummy display: put it there for the frames of this turn of the wheel
        real_get_pos = pygame.mouse.get_pos
        pygame.mouse.get_pos = lambda: below.center
        try:
            pump(win, 1)
            post(win, motion(below.center), pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1 if up else -1, flipped=False))
            pump(win, 2)
        finally:
            pygame.mouse.get_pos = real_get_pos
    post(win, *click(menu_rows(win)[kind].center))
    pump(win)


def first_seq(game, type_, after=0):
    return next(r.seq for r in game.history(after + 1) if r.type == type_)


def highlighted(win, hex_) -> bool:
    """Is the outline colour on the edges of ``hex_`` in the drawn detailed map?"""
    dmap = win.window.primary
    body = win.window.panels["detailed"].body
    sx, sy = dmap.hex_to_screen(hex_)
    corners = hex_corners(dmap.geometry, body.x + sx, body.y + sy)
    hits = 0
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]):
        mx, my = round((x0 + x1) / 2), round((y0 + y1) / 2)
        if any(win.screen.get_at((mx + dx, my + dy))[:3] == HIGHLIGHT for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
            hits += 1
    return hits >= 5  # a neighbour's outline may share one edge, never five


# ---------------------------------------------------------------- stepping
def test_right_n_times_then_left_n_times_returns_the_identical_state(viewer):
    viewer.go_to(100)
    start = viewer.replay.state.to_json()
    for _ in range(40):
        post(viewer, key(pygame.K_RIGHT))
    assert viewer.position == 140
    assert viewer.replay.state.to_json() == viewer.game.state_at(140).to_json()
    for _ in range(40):
        post(viewer, key(pygame.K_LEFT))
    assert viewer.position == 100 and viewer.replay.state.to_json() == start
    # the map reads the replay's state, not the game's latest one
    assert viewer.window.model.state is viewer.replay.state


def test_stepping_onto_a_move_outlines_both_hexes_and_stepping_off_clears_them(viewer):
    game = viewer.game
    moved = first_seq(game, "UnitMoved")
    viewer.go_to(moved - 2)
    origin = tuple(game.state_at(moved - 1)["units"].units["g1"].hex)
    post(viewer, key(pygame.K_RIGHT))
    viewer.draw()
    assert not highlighted(viewer, origin)
    post(viewer, key(pygame.K_RIGHT))  # onto UnitMoved
    destination = tuple(viewer.replay.state["units"].units["g1"].hex)
    assert viewer.highlight == [origin, destination]
    viewer.draw()
    assert highlighted(viewer, origin) and highlighted(viewer, destination)
    # the counter is drawn at its new hex in the replayed state
    assert viewer.window.model.units().units["g1"].hex == destination
    post(viewer, key(pygame.K_LEFT))
    viewer.draw()
    assert viewer.position == moved - 1
    assert not highlighted(viewer, origin) and not highlighted(viewer, destination)
    assert viewer.window.model.units().units["g1"].hex == origin


def detailed_pixels(win) -> bytes:
    win.draw()
    return pygame.image.tobytes(win.screen.subsurface(win.window.panels["detailed"].body), "RGB")


def test_stepping_redraws_only_the_chunks_an_event_changed(viewer, monkeypatch):
    game = viewer.game
    changed = first_seq(game, "HexControlChanged")
    hex_ = tuple(viewer.replay.event(changed).data["hex"])
    dmap = viewer.window.primary
    post(viewer, key(pygame.K_h))  # the hex-control layer on, so control shows in the chunks
    assert dmap.layers["control"]
    viewer.go_to(changed - 1, centre=True)
    dmap.center_on(hex_)
    viewer.draw()
    before = dict(dmap._chunks)
    assert len(before) > 4
    for step, expected_seq in ((pygame.K_RIGHT, changed), (pygame.K_LEFT, changed - 1)):
        post(viewer, key(step))
        assert viewer.position == expected_seq
        assert viewer.last_changes.static["control"] == {hex_}
        kept = [k for k in before if k in dmap._chunks and dmap._chunks[k] is before[k]]
        assert 0 < len(kept) < len(before)  # the chunks holding the hex went, the others stayed
        shown = detailed_pixels(viewer)
        dmap.invalidate()  # everything drawn afresh must look the same
        assert detailed_pixels(viewer) == shown
        before = dict(dmap._chunks)
    # an event that changes nothing baked (a die roll) keeps every chunk
    rolled = first_seq(game, "DiceRolled")
    viewer.go_to(rolled - 1)
    viewer.draw()
    before = dict(dmap._chunks)
    post(viewer, key(pygame.K_RIGHT))
    assert viewer.position == rolled and not viewer.last_changes.static["control"]
    assert all(dmap._chunks.get(k) is v for k, v in before.items())
    # a long jump (more events than LONG_JUMP) drops everything, and draws the same
    monkeypatch.setattr("app.replay_view.LONG_JUMP", 5)
    viewer.go_to(changed + 20)
    assert viewer.last_changes.everything and not dmap._chunks
    shown = detailed_pixels(viewer)
    dmap.invalidate()
    assert detailed_pixels(viewer) == shown


def test_a_weather_change_keeps_the_chunks_drawn_without_the_weather_layer(viewer):
    game = viewer.game
    weather = first_seq(game, "WeatherSet")
    dmap = viewer.window.primary
    assert not dmap.layers["weather"]
    viewer.go_to(weather - 1)
    viewer.draw()
    before = dict(dmap._chunks)
    post(viewer, key(pygame.K_RIGHT))
    assert viewer.position == weather and viewer.last_changes.static["weather"]
    assert all(dmap._chunks.get(k) is v for k, v in before.items())  # weather is not baked in them
    # with the layer on, the same step redraws them, and they look as if drawn afresh
    post(viewer, key(pygame.K_w), key(pygame.K_LEFT))
    shown = detailed_pixels(viewer)
    before = dict(dmap._chunks)
    post(viewer, key(pygame.K_RIGHT))
    baked = {k: v for k, v in before.items() if k[1][STATIC_LAYERS.index("weather")]}
    assert baked and any(dmap._chunks.get(k) is not v for k, v in baked.items())
    changed = detailed_pixels(viewer)
    dmap.invalidate()
    assert detailed_pixels(viewer) == changed
    post(viewer, key(pygame.K_LEFT))
    assert detailed_pixels(viewer) == shown


def global_pixel(image, hex_):
    col, row = hex_
    return image.get_at((col * HEX_PX + (row & 1), row * HEX_PX))[:3]


def test_global_map_images_are_rebuilt_only_when_their_view_changed(viewer):
    game = viewer.game
    gmap = viewer.window.global_map
    control_seq = first_seq(game, "HexControlChanged")
    control_hex = tuple(viewer.replay.event(control_seq).data["hex"])
    moved = first_seq(game, "UnitMoved")
    rolled = first_seq(game, "DiceRolled")
    images = {}

    def step_to(seq):
        """Reach ``seq`` with Right presses (a jump first if it is far), drawing each frame."""
        if abs(viewer.position - (seq - 1)) > 1 or viewer.position >= seq:
            viewer.go_to(seq - 1)
            viewer.draw()
        images.update({view: views_image(view) for view in ("terrain", "control", "units")})
        post(viewer, key(pygame.K_RIGHT))
        assert viewer.position == seq
        viewer.draw()

    def views_image(view):
        gmap.set_view(view)
        return gmap.image()

    def kept(view):
        return views_image(view) is images[view]

    def fresh(view):  # the cached image draws what a rebuild draws
        image = views_image(view)
        return pygame.image.tobytes(image, "RGB") == pygame.image.tobytes(gmap._build(), "RGB")

    step_to(control_seq)
    assert kept("terrain") and kept("units") and not kept("control") and fresh("control")
    assert global_pixel(views_image("control"), control_hex) == mapstyle.power_colour(
        viewer.window.model.controllers_at([control_hex])[0])
    step_to(moved)
    unit = viewer.replay.event(moved).data["unit"]
    destination = tuple(viewer.replay.state["units"].units[unit].hex)
    assert kept("terrain") and kept("control") and not kept("units") and fresh("units")
    assert global_pixel(views_image("units"), destination) == mapstyle.power_colour("germany")
    step_to(rolled)  # a die roll shows on no view
    assert kept("terrain") and kept("control") and kept("units")
    # backwards over the move the units view changes back, the others stay
    viewer.go_to(moved)
    viewer.draw()
    images.update({view: views_image(view) for view in ("terrain", "control", "units")})
    post(viewer, key(pygame.K_LEFT))
    assert kept("terrain") and kept("control") and not kept("units") and fresh("units")
    assert global_pixel(views_image("units"), destination) != mapstyle.power_colour("germany")
    # on screen, the global panel shows the cached units image at the cursor
    post(viewer, key(pygame.K_RIGHT))
    viewer.draw()
    image = views_image("units")
    assert fresh("units")
    rect = viewer.window._global_image_rect(viewer.window.panels["global"])
    x = destination[0] * HEX_PX + (destination[1] & 1)
    on_screen = (rect.x + (x - gmap.scroll_x) % image.get_width(), rect.y + destination[1] * HEX_PX)
    assert rect.collidepoint(on_screen)
    assert viewer.screen.get_at(on_screen)[:3] == mapstyle.power_colour("germany")


def test_bookmark_buttons_and_keys_land_on_the_first_event_of_their_turn_impulse_phase(viewer):
    game = viewer.game
    events = {r.seq: r for r in game.history()}
    replay = viewer.replay
    post(viewer, key(pygame.K_HOME, pygame.KMOD_CTRL))
    assert viewer.position == 0
    press_button(viewer, "turn>")
    first_turn = replay.bookmarks["turn"][0]
    assert viewer.position == first_turn.seq
    assert events[viewer.position].type == "StepStarted" and events[viewer.position].data["counter"] == "turn"
    post(viewer, key(pygame.K_END))  # next turn
    turn2 = replay.bookmarks["turn"][1]
    assert viewer.position == turn2.seq and events[turn2.seq - 1].turn == 1 and events[turn2.seq].turn == 2
    press_button(viewer, "imp>")
    mark = next(m for m in replay.bookmarks["impulse"] if m.seq > turn2.seq)
    assert viewer.position == mark.seq and events[mark.seq].data["counter"] == "impulse"
    post(viewer, key(pygame.K_PAGEDOWN))
    here = events[viewer.position]
    before = events[viewer.position - 1]
    assert here.data["counter"] == "impulse" and (before.impulse, before.turn) != (here.impulse, here.turn)
    post(viewer, key(pygame.K_PAGEUP))
    assert viewer.position == mark.seq
    post(viewer, key(pygame.K_RIGHT, pygame.KMOD_CTRL))  # next phase
    assert events[viewer.position].type == "StepStarted"
    assert events[viewer.position].data["level"] in ("phase", "stage")
    phase_start = viewer.position
    post(viewer, key(pygame.K_RIGHT, pygame.KMOD_SHIFT))  # next step
    assert events[viewer.position].type == "StepStarted" and viewer.position > phase_start
    press_button(viewer, "<step")
    assert viewer.position == phase_start
    press_button(viewer, "<turn")
    assert viewer.position == turn2.seq
    # every impulse bookmark is the first event of its impulse
    for m in replay.bookmarks["impulse"]:
        prev = events[m.seq - 1]
        assert (prev.turn, prev.impulse) != (m.turn, m.impulse)


def test_slider_click_and_drag_seek_and_the_knob_follows(viewer):
    rect = viewer.slider_rect()
    target = (rect.x + rect.w // 3, rect.centery)
    post(viewer, *click(target))
    assert viewer.position == viewer.seq_at_slider(target[0])
    assert viewer.replay.state.to_json() == viewer.game.state_at(viewer.position).to_json()
    viewer.draw()
    assert viewer.screen.get_at((viewer.slider_x(viewer.position), rect.centery))[:3] == GOOD
    # drag from there to beyond the right end: the last event
    post(viewer, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=target, button=1),
         motion((rect.right - 30, rect.centery), (1, 0, 0)), motion((rect.right + 40, rect.centery), (1, 0, 0)),
         pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(rect.right + 40, rect.centery), button=1))
    assert viewer.position == viewer.replay.last


def test_go_to_an_event_number_by_typing_it(viewer):
    post(viewer, key(pygame.K_g), key(pygame.K_1, unicode="1"), key(pygame.K_2, unicode="2"),
         key(pygame.K_3, unicode="3"), key(pygame.K_RETURN))
    assert viewer.position == 123 and viewer.typing is None
    viewer.draw()
    rows = viewer.history_rows()
    assert 123 in [r.seq for r in rows]
    rect = next(r for r, seq in viewer._history_hits if seq == 123)
    assert viewer.screen.get_at((rect.right - 3, rect.centery))[:3] == CURRENT_ROW
    # the "go to" button too; Esc leaves the number field without moving
    press_button(viewer, "go to")
    post(viewer, key(pygame.K_5, unicode="5"), key(pygame.K_ESCAPE))
    assert viewer.position == 123 and viewer.running


def test_play_and_pause_at_a_chosen_speed(viewer):
    viewer.go_to(10)
    post(viewer, key(pygame.K_5))  # 25 events a second
    post(viewer, key(pygame.K_SPACE))
    assert viewer.playing
    viewer.fake_clock.now += 2.0
    viewer.tick()
    assert viewer.position == 60
    press_button(viewer, "play")  # the same button pauses
    assert not viewer.playing
    viewer.fake_clock.now += 5.0
    viewer.tick()
    assert viewer.position == 60
    press_button(viewer, "faster")
    press_button(viewer, "play")
    viewer.fake_clock.now += 1.0
    viewer.tick()
    assert viewer.position == 110
    viewer.fake_clock.now += 1000.0
    viewer.tick()
    assert viewer.position == viewer.replay.last and not viewer.playing


# ---------------------------------------------------------------- history panel
def test_history_filters_by_kind_and_power_and_a_click_jumps_and_centres(viewer):
    viewer.go_to(0)
    choose_kind(viewer, "UnitMoved")
    assert viewer.filter_kind == "UnitMoved"
    viewer.draw()
    rows = viewer.history_rows()
    assert len(rows) >= 3 and all(viewer.replay.event(r.seq).type == "UnitMoved" for r in rows)
    third = rows[2]
    before = viewer.game.state_at(third.seq - 1)
    touched = viewer.replay.touched_hexes(viewer.replay.event(third.seq), before)
    rect = next(r for r, seq in viewer._history_hits if seq == third.seq)
    post(viewer, *click(rect.center))
    assert viewer.position == third.seq and viewer.highlight == touched
    assert viewer.window.primary.centre_hex == centre_of(touched)
    viewer.draw()
    assert all(highlighted(viewer, h) for h in touched)
    # by power: the ussr's moves only; the filter button cycles too, right click goes back
    while viewer.filter_power != "ussr":
        post(viewer, key(pygame.K_p))
    rows = viewer.history_rows()
    assert rows and all(viewer.replay.event(r.seq).actor in ("ussr", "allies") for r in rows)
    power_button = dict(viewer.filter_buttons())["power"]
    post(viewer, *click(power_button.center, button=3))
    assert viewer.filter_power != "ussr"
    # the dice are shown as numbers on the DiceRolled rows
    viewer.filter_power = None
    choose_kind(viewer, "DiceRolled")
    assert viewer.filter_kind == "DiceRolled"
    rows = viewer.history_rows()
    assert rows and all(r.dice for r in rows)
    assert rows[0].dice == viewer.replay.event(rows[0].seq).data["results"]


def test_the_kind_filter_is_a_drop_down_of_the_game_s_event_kinds(viewer):
    menu = viewer.kind_menu
    viewer.draw()
    # closed, it sits in the history's filter bar and says no kind is chosen
    assert menu.rect.colliderect(viewer.history_rect) and menu.selected_option[0] == "all kinds"
    assert viewer.screen.get_at(menu.rect.center)[:3] != viewer.screen.get_at((menu.rect.x - 6, menu.rect.centery))[:3]
    # K opens it over the history list: every kind of event in this game, first "all kinds"
    post(viewer, key(pygame.K_k))
    pump(viewer)
    rows = menu_rows(viewer)
    assert list(rows)[0] == "all kinds" and set(rows) <= {"all kinds", *viewer.kinds} and len(rows) > 5
    assert viewer.kinds == sorted({r.type for r in viewer.game.history()})
    first_kind = list(rows)[1]
    below = rows[first_kind]
    assert viewer.history_list_rect().colliderect(below)
    # a click on a row of the list goes to the menu, not to the history row under it
    position = viewer.position
    post(viewer, *click(below.center))
    pump(viewer)
    assert viewer.position == position and viewer.filter_kind == first_kind
    assert menu.selected_option[0] == first_kind and not menu_rows(viewer)  # closed again
    assert all(viewer.replay.event(r.seq).type == first_kind for r in viewer.history_rows())
    expected = [r.seq for r in viewer.game.history() if r.type == first_kind]
    post(viewer, key(pygame.K_END, pygame.KMOD_CTRL), key(pygame.K_LEFT))  # stepping keeps the filter
    assert [r.seq for r in viewer.history_rows()] == expected[-len(viewer.history_rows()):]
    # "all kinds" lifts the filter
    choose_kind(viewer, "all kinds")
    assert viewer.filter_kind is None
    assert len({viewer.replay.event(r.seq).type for r in viewer.history_rows()}) > 1


def test_history_rows_read_as_they_did_just_before_their_event(viewer):
    game = viewer.game
    moved = first_seq(game, "UnitMoved")
    post(viewer, key(pygame.K_HOME, pygame.KMOD_CTRL))  # before the first event: no unit exists yet
    viewer.filter_kind = "UnitMoved"
    viewer.draw()
    rows = viewer.history_rows()
    assert rows and rows[0].seq == moved
    for row in rows:
        rec = viewer.replay.event(row.seq)
        assert row.text == printable(in_words(game, game.describe(rec, game.state_at(row.seq - 1))))
    # with the cursor's state the unit would still be a bare id; just before its move it has its name
    first_move = viewer.replay.event(moved)
    assert "4th Panzer Army" in rows[0].text and "4th Panzer Army" not in game.describe(first_move, viewer.replay.state)
    assert viewer.replay.state.to_json() == game.state_at(0).to_json()  # describing never moved the cursor
    # stepping reuses the texts (described once per seq) and the timeline shows the same words
    texts = {row.seq: row.text for row in rows}
    post(viewer, *[key(pygame.K_RIGHT) for _ in range(moved)])
    assert viewer.position == moved
    assert {row.seq: row.text for row in viewer.history_rows()}.items() >= {moved: texts[moved]}.items()
    assert viewer.described(moved)[1] is texts[moved]
    post(viewer, key(pygame.K_END, pygame.KMOD_CTRL), key(pygame.K_LEFT))
    viewer.filter_kind = None
    viewer.history_top = None
    for row in viewer.history_rows():
        rec = viewer.replay.event(row.seq)
        assert row.text == printable(in_words(game, game.describe(rec, game.state_at(row.seq - 1))))


def test_wheel_over_the_history_scrolls_it_and_stepping_brings_the_cursor_back(viewer):
    viewer.go_to(300)
    area = viewer.history_list_rect()
    first = viewer.history_seqs()[0]
    post(viewer, motion(area.center), pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False))
    assert viewer.history_seqs()[0] == first + 6 and viewer.position == 300
    post(viewer, key(pygame.K_RIGHT))
    assert 301 in viewer.history_seqs()


def test_nothing_can_be_changed_from_the_viewer(viewer, lab_save):
    digest = hashlib.sha256(lab_save.read_bytes()).hexdigest()
    viewer.go_to(20)
    post(viewer, key(pygame.K_RETURN))  # Enter finishes a step in the game window; not here
    assert viewer.position == 20
    assert not viewer.window.game.submit({"type": "FinishStep", "actor": "germany"}).accepted
    viewer.window.finish_step()
    assert viewer.game.store.last()[0] == viewer.replay.last
    assert hashlib.sha256(lab_save.read_bytes()).hexdigest() == digest


# ---------------------------------------------------------------- play on from here
def test_play_on_from_here_forks_a_verified_save_equal_to_state_at_k(viewer, lab_save, tmp_path):
    digest = hashlib.sha256(lab_save.read_bytes()).hexdigest()
    k = 250
    viewer.go_to(k)
    press_button(viewer, "play on from here")
    assert not viewer.running and viewer.result is not None
    forked = viewer.saves_dir / "lab-from-250.wif"
    assert viewer.result == str(forked)
    report = verify(forked)
    assert report.ok, report.problems
    with Game.open(forked) as game:
        assert game.state.to_json() == viewer.game.state_at(k).to_json()
        assert game.store.last()[0] == k
    assert hashlib.sha256(lab_save.read_bytes()).hexdigest() == digest
    # a second fork at the same point gets a name of its own
    viewer.running = True
    assert viewer.fork_here() == str(viewer.saves_dir / "lab-from-250-2.wif")
    assert forked.exists()


def test_run_replay_window_returns_the_fork_or_none(lab_save, tmp_path, monkeypatch):
    # a config folder of its own, holding the players' keys the lab game was made with (a
    # fork is signed by one of them)
    shutil.copytree(os.environ["WIF_CONFIG_DIR"], tmp_path / "config")
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    try:
        pygame.event.post(key(pygame.K_ESCAPE))
        assert run_replay_window(lab_save, start_seq=40, saves_dir=tmp_path) is None
        pygame.display.init()
        pygame.event.post(key(pygame.K_LEFT))
        pygame.event.post(key(pygame.K_f))
        assert run_replay_window(lab_save, start_seq=40, saves_dir=tmp_path) == str(tmp_path / "lab-from-39.wif")
    finally:
        pygame.quit()


def test_wif_replay_window_flag_opens_the_viewer(lab_save, tmp_path, monkeypatch, capsys):
    from app import replay_view
    from app.cli import main

    seen = {}

    def fake(path, start_seq=None, zoom=None, **_):
        seen.update(path=path, start=start_seq, zoom=zoom)
        return str(tmp_path / "x.wif")

    monkeypatch.setattr(replay_view, "run_replay_window", fake)
    assert main(["replay", str(lab_save), "--window", "--from", "12", "--zoom", "7", "--no-play"]) == 0
    assert seen == {"path": lab_save, "start": 12, "zoom": 7}
    assert "x.wif" in capsys.readouterr().out


# ---------------------------------------------------------------- missing plugins
def test_a_save_whose_plugin_is_missing_says_which_shows_the_rest_and_is_not_written(
        mini, tmp_path, model, monkeypatch):
    # a config folder of its own, holding the players' keys the lab game was made with (a
    # fork is signed by one of them)
    shutil.copytree(os.environ["WIF_CONFIG_DIR"], tmp_path / "config")
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    path = tmp_path / "m.wif"
    game = Game.new("mini", path, seed=1, plugin_dirs=mini)
    game.submit({"type": "Note", "actor": "n1", "text": "hello"})
    game.close()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    pygame.display.init()
    try:
        win = ReplayWindow(path, saves_dir=tmp_path / "saves", model=model, start_seq=0)
        assert any("plugin 'mini' (version 1.0.0) is missing" in p for p in win.game.problems)
        while win.position < win.replay.last:
            post(win, key(pygame.K_RIGHT))
        win.draw()
        assert win.replay.skipped
        rows = win.history_rows()
        assert any(r.skipped and "not shown" in r.text for r in rows)
        assert win.fork_here() is None and win.running
        assert "cannot play on" in win.status[0] and not (tmp_path / "saves").exists()
        win.close()
    finally:
        pygame.quit()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert verify(path, plugin_dirs=mini).ok


def test_the_history_tells_a_move_once_as_the_play_forms_log_does(viewer):
    """A land move was listed twice: the rules' "4th Panzer Army moves 204,52 → 205,52" and the
    kernel's "moves to (205, 52)" of the same command; the kernel's line is left out (and still
    listed when the player filters on its kind)."""
    game = viewer.game
    moved = first_seq(game, "LandUnitMoved")
    post(viewer, key(pygame.K_HOME, pygame.KMOD_CTRL), *[key(pygame.K_RIGHT) for _ in range(moved)])
    assert viewer.position == moved
    viewer.draw()
    rows = viewer.history_rows()
    kinds = [viewer.replay.event(row.seq).type for row in rows]
    assert "LandUnitMoved" in kinds and "UnitMoved" not in kinds, kinds
    told = [row.text for row in rows if "4th Panzer Army" in row.text]
    assert len(told) == len({viewer.replay.event(row.seq).cmd for row in rows if "4th Panzer Army" in row.text}), told
    viewer.filter_kind = "UnitMoved"
    viewer.history_top = None
    assert viewer.history_rows() and all(viewer.replay.event(r.seq).type == "UnitMoved" for r in viewer.history_rows())
