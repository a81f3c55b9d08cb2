"""The program's one main loop over a stack of scenes (as Tuxemon's StateManager): the top
scene gets the events, ticks and draws; a scene pushes another over itself (F9: the replay
viewer over the game window), pops itself (Esc) or replaces itself (the Start New Game form
by the game it started, a game by the fork a replay made).  The program ends when the stack
is empty or the window is closed.

Scenes: ``GameScene`` (the game window with its forms), ``ReplayScene`` (the replay viewer
on a save), ``NewGameScene`` (the Start New Game form, with Open and Replay a saved game).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import pygame

from kernel.game import Game

FPS = 60
BACKGROUND = (24, 28, 36)


class Scene:
    """One screen of the program.  ``stack`` is set when it is pushed."""

    stack: "SceneStack"
    screen: pygame.Surface

    def enter(self) -> None:
        """It is on top now (pushed, or the scene over it popped)."""

    def close_requested(self) -> bool:
        """The system's close button was pressed: True to end the program now, False when the
        scene asks the player first."""
        return True

    def handle(self, event) -> None:
        """One pygame event."""

    def tick(self) -> None:
        """Work of every frame, events or not."""

    def draw(self) -> None:
        """Draw the whole screen."""

    def close(self) -> None:
        """It left the stack: free what it holds (a game's save, a reloader)."""


class SceneStack:
    def __init__(self):
        self.scenes: list[Scene] = []
        self.last_screen: pygame.Surface | None = None

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        scene.stack = self
        self.scenes.append(scene)
        scene.enter()

    def pop(self) -> None:
        if self.scenes:
            self.scenes.pop().close()
        if self.scenes:
            self.scenes[-1].enter()

    def replace(self, scene: Scene) -> None:
        """The top scene makes way for ``scene`` (a game for the form that started it)."""
        if self.scenes:
            self.scenes.pop().close()
        self.push(scene)

    def clear(self) -> None:
        while self.scenes:
            self.scenes.pop().close()

    def run(self, frames: int | None = None, screenshot: str | None = None,
            each_frame: Callable[["SceneStack"], None] | None = None, fps: int | None = FPS) -> None:
        """The main loop, until the stack is empty (or after ``frames`` frames); the last
        frame drawn is saved to ``screenshot``.  Every scene still on the stack is closed.
        ``each_frame(stack)`` runs before each frame's events (app/guidriver.py posts its
        clicks there); ``fps`` None: as fast as the frames draw."""
        clock = pygame.time.Clock()
        drawn = 0
        try:
            while self.scenes:
                if each_frame is not None:
                    each_frame(self)
                for event in pygame.event.get():
                    if event.type == pygame.QUIT:
                        if self.top is None or self.top.close_requested():
                            self.clear()
                            break
                        continue  # the scene asks the player first
                    if self.top is None:
                        break
                    self.top.handle(event)  # the top may change on any event: ask again each time
                top = self.top
                if top is None:
                    break
                top.tick()
                if self.top is not top:
                    continue
                top.draw()
                self.last_screen = top.screen
                pygame.display.flip()
                drawn += 1
                if frames is not None and drawn >= frames:
                    break
                if fps:
                    clock.tick(fps)
            if screenshot and self.last_screen is not None:
                Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
                pygame.image.save(self.last_screen, str(screenshot))
        finally:
            self.clear()


# ---------------------------------------------------------------------- the scenes
class GameScene(Scene):
    """The game window on a game; closes the game when it leaves the stack."""

    def __init__(self, game: Game, dev: bool = False):
        self.game = game
        self.dev = dev
        self.window = None
        self.reloader = None

    def enter(self) -> None:
        if self.window is None:
            from .play import GameWindow

            if self.dev:
                from kernel.hotreload import PluginReloader

                self.reloader = PluginReloader(self.game)
                self.reloader.start()
            self.window = GameWindow(self.game, reloader=self.reloader, forms=True)
            self.window.scenes = self.stack
        else:  # back from the replay viewer, which drew on our display
            pygame.display.set_caption(f"World in Flames — {self.game.state.kernel.scenario}")

    @property
    def screen(self) -> pygame.Surface:
        return self.window.screen

    def close_requested(self) -> bool:
        """Closing the window asks first, as Esc does (a second close, or a game that is over,
        quits at once: every move is in the save either way)."""
        window = self.window
        if window is None or window.confirm_quit is not None or self.game.state.kernel.sequence.finished:
            return True
        window.ask_quit()
        return False

    def handle(self, event) -> None:
        if not self.window.handle(event):
            self.stack.pop()

    def tick(self) -> None:
        if not self.window.running:  # the player answered "Quit" to Esc's question
            self.stack.pop()
            return
        self.window.tick()
        if self.window.next_game:  # a replay's fork: play on in it instead
            self.stack.replace(GameScene(Game.open(self.window.next_game), self.dev))

    def draw(self) -> None:
        self.window.draw()

    def close(self) -> None:
        if self.reloader is not None:
            self.reloader.stop()
        self.game.close()


class ReplayScene(Scene):
    """The replay viewer on a save; ``on_fork(path)`` when it closes with "Play on from here"."""

    def __init__(self, path, screen: pygame.Surface | None = None, start_seq: int | None = None,
                 saves_dir: Path | None = None, on_fork: Callable[[str], None] | None = None, zoom: int | None = None,
                 size: tuple[int, int] | None = None):
        self.path = path
        self.start_seq = start_seq
        self.saves_dir = saves_dir
        self.on_fork = on_fork
        self.zoom = zoom
        self.size = size
        self.screen = screen
        self.viewer = None
        self.result: str | None = None

    def enter(self) -> None:
        if self.viewer is not None:
            return
        from .replay_view import ReplayWindow, viewer_size

        if self.screen is None:
            sizes = pygame.display.get_desktop_sizes()
            self.screen = pygame.display.set_mode(self.size or viewer_size(sizes[0] if sizes else (1024, 768)))
        pygame.display.set_caption(f"World in Flames — replay of {Path(self.path).name}")
        self.viewer = ReplayWindow(self.path, screen=self.screen, start_seq=self.start_seq, saves_dir=self.saves_dir)
        if self.zoom is not None and self.viewer.window.primary is not None:
            self.viewer.window.primary.set_zoom(self.zoom)
            self.viewer.go_to(self.viewer.position, centre=True)

    def handle(self, event) -> None:
        if not self.viewer.handle(event):
            self._done()

    def tick(self) -> None:
        if not self.viewer.running:
            self._done()
            return
        self.viewer.tick()

    def draw(self) -> None:
        self.viewer.draw()

    def _done(self) -> None:
        self.result = self.viewer.result
        self.stack.pop()
        if self.result and self.on_fork is not None:
            self.on_fork(self.result)

    def close(self) -> None:
        if self.viewer is not None:
            self.result = self.viewer.result
            self.viewer.close()


class NewGameScene(Scene):
    """The Start New Game form; the game it starts (or the save it opens) replaces it."""

    def __init__(self, default_scenario: str, save_path: Callable[[str], Path], dev: bool = False):
        self.default_scenario = default_scenario
        self.save_path = save_path
        self.dev = dev
        self.form = None
        self.screen = None
        self._last = time.monotonic()

    def enter(self) -> None:
        from .forms import Gui
        from .newgame import NewGameForm

        self.screen = pygame.display.set_mode((1024, 768))
        pygame.display.set_caption("World in Flames — Start New Game")
        if self.form is None:
            self.gui = Gui(self.screen.get_size())
            self.form = NewGameForm(self.gui, self.default_scenario, self.save_path)

    def close_requested(self) -> bool:
        """Closing the window asks first, as Esc does; a second close quits at once."""
        if self.form is None or self.form.confirm_quit is not None:
            return True
        self.form.ask_quit()
        return False

    def handle(self, event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.form.escape()  # asks before quitting (issue 11 item 4)
            return
        self.gui.process(event)

    def tick(self) -> None:
        now = time.monotonic()
        self.gui.update(min(0.1, now - self._last))
        self._last = now
        if not self.form.done:
            return
        choice = self.form.choice
        if choice is None:  # Quit
            self.stack.pop()
        elif choice.kind == "game":
            print(f"new game of {choice.game.state.kernel.scenario}: {choice.path}")
            self.stack.replace(GameScene(choice.game, self.dev))
        elif choice.kind == "open":
            self.stack.replace(GameScene(Game.open(choice.path), self.dev))
        elif choice.kind == "server":  # a game on a server: its scene (app/lobby.py, app/netplay.py)
            self.stack.replace(choice.game)
        else:  # replay a saved game; back here when it closes, or on to its fork
            self.form.done, self.form.choice = False, None
            self.stack.push(ReplayScene(choice.path, screen=self.screen, on_fork=self.play_fork))

    def play_fork(self, path: str) -> None:
        self.stack.replace(GameScene(Game.open(path), self.dev))

    def draw(self) -> None:
        self.screen.fill(BACKGROUND)
        self.gui.draw(self.screen)
