"""How a player gets into and out of the game window: the Start New Game form's file picker
(open or replay a saved game) and F9 (the replay viewer on this game; "Play on from here"
gives a fork that the window opens next)."""

from __future__ import annotations

import pygame
import pytest

from app.forms import Gui
from app.newgame import NewGameForm
from app.play import GameWindow

from test_playing import click, lab_game, pump


def run_gui(gui, *events):
    for e in events:
        pygame.event.post(e)
    for _ in range(4):
        for e in pygame.event.get():
            gui.process(e)
        gui.update(0.01)


@pytest.mark.parametrize("kind", ["open", "replay"])
def test_start_new_game_file_picker_chooses_a_save(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    try:
        saves = tmp_path / "saves"
        saves.mkdir()
        lab_game(saves / "earlier.wif").close()
        screen = pygame.display.set_mode((1024, 768))
        gui = Gui(screen.get_size())
        form = NewGameForm(gui, "lab", lambda scenario: tmp_path / f"{scenario}.wif", saves_folder=saves)
        gui.update(0.01)
        button = form.open_button if kind == "open" else form.replay_button
        run_gui(gui, *click(button.rect.center))
        dialog = form.dialog
        entry = next(i["button_element"] for i in dialog.file_selection_list.item_list if i["text"] == "earlier.wif")
        run_gui(gui, *click(entry.rect.center))
        assert dialog.ok_button.is_enabled
        run_gui(gui, *click(dialog.ok_button.rect.center))
        assert form.done and form.choice.kind == kind
        assert form.choice.path and str(form.choice.path).endswith("earlier.wif")
    finally:
        pygame.quit()


@pytest.fixture
def window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = lab_game(tmp_path / "f9.wif")
    win = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
    win.draw()
    yield win
    pygame.quit()
    game.close()


def f9():
    return pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F9, mod=0, unicode="", scancode=0)


def test_f9_opens_the_replay_viewer_on_this_game(window, monkeypatch):
    from app import replay_view

    real = replay_view.run_replay_window
    opened = []

    def briefly(path, screen=None, **kw):  # the real viewer, for two frames
        opened.append(path)
        return real(path, screen=screen, frames=2)

    monkeypatch.setattr(replay_view, "run_replay_window", briefly)
    pump(window, f9())
    assert opened == [str(window.game.path)]
    assert window.next_game is None  # closed without a fork: the game goes on
    assert window.handle(pygame.event.Event(pygame.USEREVENT)) is True


def test_f9_play_on_from_here_makes_the_window_open_the_fork(window, monkeypatch, tmp_path):
    from app import replay_view

    fork = tmp_path / "fork.wif"
    monkeypatch.setattr(replay_view, "run_replay_window", lambda path, screen=None, **kw: str(fork))
    pump(window, f9())
    assert window.next_game == str(fork)
    assert "fork" in window.messages[-1][0]


# ---------------------------------------------------------------- one main loop, a stack of scenes
def frame(stack, *events):
    """One pass of the main loop (app/scenes.py SceneStack.run) over these events."""
    for e in events:
        pygame.event.post(e)
    for e in pygame.event.get():
        if stack.top is not None:
            stack.top.handle(e)
    top = stack.top
    if top is not None:
        top.tick()
        if stack.top is top:
            top.draw()


def esc():
    return pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=41)


def test_f9_pushes_the_viewer_over_the_game_and_closing_it_comes_back(tmp_path, monkeypatch):
    from app.scenes import GameScene, ReplayScene, SceneStack

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    stack = SceneStack()
    try:
        game_scene = GameScene(lab_game(tmp_path / "stack.wif"))
        stack.push(game_scene)
        frame(stack)
        frame(stack, f9())
        assert isinstance(stack.top, ReplayScene) and stack.scenes == [game_scene, stack.top]
        assert stack.top.screen is game_scene.screen  # drawn on the game's display, no loop of its own
        frame(stack, esc())
        assert stack.scenes == [game_scene] and game_scene.game.state.kernel.seq > 0  # the game goes on
        frame(stack, esc())  # Esc in the game window asks before it ends the program
        confirm = game_scene.window.confirm_quit
        assert confirm is not None and stack.scenes == [game_scene]
        quit_button = next(b for b in confirm.owned if getattr(b, "text", "") == "Quit")
        at = quit_button.rect.center
        frame(stack, pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=at, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=at, button=1))
        frame(stack)
        assert stack.scenes == []
    finally:
        stack.clear()
        pygame.quit()


def test_play_on_from_here_replaces_the_game_by_its_fork(tmp_path, monkeypatch):
    from app.scenes import GameScene, ReplayScene, SceneStack

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    stack = SceneStack()
    try:
        game_scene = GameScene(lab_game(tmp_path / "orig.wif"))
        stack.push(game_scene)
        frame(stack, f9())
        viewer = stack.top.viewer
        viewer.saves_dir = tmp_path / "saves"
        viewer.go_to(max(1, viewer.replay.last - 1))
        fork = viewer.fork_here()
        frame(stack)  # the viewer closes, the game window opens the fork in its place
        frame(stack)
        assert len(stack.scenes) == 1 and isinstance(stack.top, GameScene) and stack.top is not game_scene
        assert str(stack.top.game.path) == fork
        assert not isinstance(stack.top, ReplayScene)
    finally:
        stack.clear()
        pygame.quit()


def test_the_window_s_close_button_asks_before_quitting_and_a_second_close_quits(tmp_path, monkeypatch):
    """Quitting asks for confirmation (issue 11 item 4), the system's close button included."""
    from app.scenes import GameScene, SceneStack

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    stack = SceneStack()
    game_scene = GameScene(lab_game(tmp_path / "close.wif"))
    stack.push(game_scene)
    seen = []

    def each_frame(s):
        seen.append((list(s.scenes), game_scene.window.confirm_quit is not None if game_scene.window else False))
        if len(seen) in (2, 4):
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    try:
        stack.run(frames=10, each_frame=each_frame, fps=None)
    finally:
        pygame.quit()
    assert seen[2] == ([game_scene], True)  # the first close asked, and the game is still there
    assert len(seen) == 4  # the second close ended the program at once


def test_esc_on_the_start_new_game_form_asks_before_quitting(tmp_path, monkeypatch):
    """Esc on Start New Game asks, as in the game window (issue 11 item 4): Esc again goes
    back to the form, Quit ends the program; the close button asks too, a second close quits."""
    from app.scenes import NewGameScene, SceneStack

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    esc = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=41)
    stack = SceneStack()
    scene = NewGameScene("lab", lambda scenario: tmp_path / f"{scenario}.wif")
    stack.push(scene)
    seen = []
    plan = {1: [esc], 3: [esc], 5: [esc], 7: "quit"}

    def each_frame(s):
        form = scene.form
        seen.append((bool(s.scenes), form.confirm_quit is not None))
        step = plan.get(len(seen))
        if step == "quit":
            button = next(b for b in form.confirm_quit.owned if b.text == "Quit")
            step = click(button.rect.center)
        for e in step or ():
            pygame.event.post(e)

    try:
        stack.run(frames=12, each_frame=each_frame, fps=None)
    finally:
        pygame.quit()
    assert seen[1] == (True, True)  # Esc asked, the form still there
    assert seen[3] == (True, False)  # Esc again: back to the form
    assert seen[5] == (True, True)
    assert len(seen) == 8 and not stack.scenes  # Quit ended the program

    # the close button asks first too; a second close quits at once
    pygame.display.init()
    pygame.font.init()
    stack = SceneStack()
    scene = NewGameScene("lab", lambda scenario: tmp_path / f"{scenario}.wif")
    stack.push(scene)
    seen.clear()

    def close_twice(s):
        seen.append(scene.form.confirm_quit is not None)
        if len(seen) in (2, 4):
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    try:
        stack.run(frames=10, each_frame=close_twice, fps=None)
    finally:
        pygame.quit()
    assert seen[2] is True and len(seen) == 4 and not stack.scenes
