"""The replay viewer: watch any save move by move, read its history, branch from any point.

The maps are the game window's own (``GameWindow`` over a ``StateView``), showing the state
at the cursor of a ``kernel.replay.Replay``; no command can be given here.  Below them a
timeline, beside them the history panel.

Keys:
  Left / Right            one event back / forward
  Shift+Left / Right      previous / next step        Ctrl+Left / Right  phase
  PageUp / PageDown       previous / next impulse     Home / End         turn
  Ctrl+Home / Ctrl+End    start / end of the game
  Space                   play / pause                1..8               speed
  G                       go to an event number (type it, Enter)
  P                       filter the history by power (Shift: backwards)
  K                       open / close the drop-down of event kinds (the history's kind filter)
  F                       Play on from here (a new save; the original is untouched)
  Esc                     close
  The map keeps its other keys: Up/Down (Ctrl: a page) scroll, +/- zoom, T S R L Z W H U M
  layers; drag, wheel and the global map move it.  Enter does nothing: no command is given here.
Mouse: the timeline's buttons and slider, a click on a history entry jumps there and centres
the map on the hexes that event touched; wheel over the history scrolls it.

Split by concern: the history panel (app/replay_history.py), input (app/replay_input.py),
drawing (app/replay_draw.py), row texts (app/replay_text.py); here the viewer's state, its
geometry, moving the cursor and playing on from here.
"""

from __future__ import annotations

import time
from array import array
from collections import OrderedDict
from pathlib import Path

import pygame

from kernel.engine import upcast
from kernel.errors import EventDataError, WifError
from kernel.events import EventRecord
from kernel.replay import Replay, open_replay

from .detailed import font
from .dirty import MapChanges, map_changes
from .globalmap import VIEWS as GLOBAL_VIEWS
from .play import ACCENT, DIM, GOOD, REPO_ROOT, TEXT, TITLE_H, GameWindow  # noqa: F401 - GOOD re-exported
from .render import StateView, centre_of
from .replay_draw import CURRENT_ROW, TIMELINE_H, ReplayDrawing  # noqa: F401 - CURRENT_ROW re-exported
from .replay_history import ALL_KINDS, HistoryRow, ReplayHistory  # noqa: F401 - re-exported
from .replay_input import BUTTONS, SPEEDS, ReplayInput
from .replay_text import fit, printable  # noqa: F401 - re-exported
from .views import ScreenLayout, WindowGeometry
from .windowlayout import screen_limit_of

DEFAULT_SPEED = 3  # 10 events/s: readable in the history panel
# A move across more events than this redraws the whole map: reading what each of them
# changed would cost more than rebuilding the chunks in view.
LONG_JUMP = 300


def viewer_size(desktop: tuple[int, int]) -> tuple[int, int]:
    """The viewer's window on a desktop of that size: all of it but room for the title bar
    and a taskbar, as the game window (issue 11 item 9: the window fits the screen it opens on)."""
    return screen_limit_of(desktop)


def replay_layout(size: tuple[int, int]) -> ScreenLayout:
    """Detailed map on the left, global map top right; the viewer's own timeline (bottom)
    and history panel (right, under the global map) fill the rest."""
    w, h = size
    side = int(max(300, min(520, w * 0.36)))
    # the global map's view buttons wrap onto as many rows as the side's width needs
    widths = [10 + font(16).size(name)[0] + 3 for name in GLOBAL_VIEWS + ("zoom", "legend")]
    rows, x = 1, 2
    for width in widths:
        if x + width > side - 2 and x > 2:
            rows, x = rows + 1, 2
        x += width
    global_h = TITLE_H + 25 * rows + 1 + min(230, (h - TIMELINE_H) // 3)
    return ScreenLayout(name="replay", screen=size, windows={
        "detailed": WindowGeometry(x=0, y=0, w=w - side, h=h - TIMELINE_H),
        "global": WindowGeometry(x=w - side, y=0, w=side, h=global_h)})


def fork_path(original: Path, seq: int, saves_dir: Path) -> Path:
    """``<name>-from-<seq>.wif`` in the saves folder, numbered so it never overwrites."""
    stem = Path(original).stem
    candidate = saves_dir / f"{stem}-from-{seq}.wif"
    n = 2
    while candidate.exists():
        candidate = saves_dir / f"{stem}-from-{seq}-{n}.wif"
        n += 1
    return candidate


class ReplayWindow(ReplayInput, ReplayHistory, ReplayDrawing):
    """The viewer on any surface (tests draw off screen; ``run_replay_window`` on the display)."""

    def __init__(self, path=None, screen: pygame.Surface | None = None, start_seq: int | None = None,
                 replay: Replay | None = None, saves_dir: Path | None = None, clock=time.monotonic,
                 size: tuple[int, int] = (1280, 800), model=None):
        pygame.font.init()
        self.replay = replay if replay is not None else open_replay(path)
        self.owns_replay = replay is None
        self.game = self.replay.game
        self.saves_dir = Path(saves_dir) if saves_dir is not None else REPO_ROOT / "saves"
        self.clock = clock
        self.screen = screen if screen is not None else pygame.Surface(size)
        self.view = StateView(self.game, self.replay.state)
        if model is not None:
            model.game = self.view
        self.window = GameWindow(self.view, screen=self.screen, layout=replay_layout(self.screen.get_size()),
                                 model=model)
        self.shown_at: int | None = None  # the position the maps' caches show; None: nothing yet
        self.last_changes = MapChanges(everything=True)
        self.highlight: list[tuple[int, int]] = []
        self.follow = True  # stepping keeps the touched hexes in view
        self.running = True
        self.result: str | None = None
        self.playing = False
        self.speed_index = DEFAULT_SPEED
        self._budget = 0.0
        self._last_tick = clock()
        self.typing: str | None = None  # the event number being typed after G
        self.status: tuple[str, tuple] = ("", DIM)
        self.filter_power: str | None = None
        self.filter_kind: str | None = None
        self.history_top: int | None = None  # seq of the first row when scrolled; None: follow the cursor
        self._rows_cache: tuple | None = None
        self._filtered: dict[tuple, array] = {}  # filter -> its seqs: see _listed
        self._described: OrderedDict[int, tuple[EventRecord, str]] = OrderedDict()  # see ``described``
        self._scratch = None  # a state of our own, folded forward to describe rows in order
        self._scratch_at = -1
        self._history_hits: list[tuple[pygame.Rect, int]] = []
        self._slider_drag = False
        self.powers, self.kinds = self._filter_choices()
        self.kind_menu = self._kind_menu()
        self.go_to(self.replay.last if start_seq is None else start_seq, centre=True)
        if self.window.primary is not None:
            self._follow_global(self.window.primary)  # the global map opens on the detailed map's place

    @property
    def timeline_rect(self) -> pygame.Rect:
        w, h = self.screen.get_size()
        return pygame.Rect(0, h - TIMELINE_H, w, TIMELINE_H)

    @property
    def history_rect(self) -> pygame.Rect:
        g = self.window.panels["global"].geometry if "global" in self.window.panels else None
        w, h = self.screen.get_size()
        x = g.x if g else w * 2 // 3
        top = (g.y + g.h) if g else 0
        return pygame.Rect(x, top, w - x, h - TIMELINE_H - top)

    def slider_rect(self) -> pygame.Rect:
        t = self.timeline_rect
        return pygame.Rect(t.x + 10, t.y + 40, t.w - 20, 14)

    def buttons(self) -> list[tuple[str, pygame.Rect]]:
        t = self.timeline_rect
        x, y = t.x + 8, t.y + 62
        out = []
        for label, _, _ in BUTTONS:
            w = 14 + font(17).size(label)[0] if label != "play" else 50
            out.append((label, pygame.Rect(x, y, w, 22)))
            x += w + 4
        x += 10
        for label, w in (("slower", 56), ("faster", 56), ("go to", 90), ("play on from here", 150)):
            out.append((label, pygame.Rect(x, y, w, 22)))
            x += w + 4
        return out

    def filter_buttons(self) -> list[tuple[str, pygame.Rect]]:
        r = self.history_rect
        half = (r.w - 12) // 2
        return [("power", pygame.Rect(r.x + 4, r.y + TITLE_H + 3, half, 20)),
                ("kind", pygame.Rect(r.x + 8 + half, r.y + TITLE_H + 3, half, 20))]

    def history_list_rect(self) -> pygame.Rect:
        r = self.history_rect
        top = r.y + TITLE_H + 27
        return pygame.Rect(r.x, top, r.w, r.bottom - top)

    @property
    def position(self) -> int:
        return self.replay.position

    def go_to(self, seq: int, centre: bool = False) -> None:
        """Put the cursor after event ``seq`` and outline the hexes that event touched."""
        r = self.replay
        seq = max(0, min(r.last, seq))
        hexes: list = []
        if seq == 0:
            r.seek(0)
        else:
            if seq != r.position + 1:
                r.seek(seq - 1)
            hexes = self._touched(seq)  # before folding: where a unit came from is still known
            r.forward()
        self._after_move(hexes, centre)

    def _touched(self, seq: int) -> list:
        rec = self.replay.event(seq)
        try:
            return self.replay.touched_hexes(rec, self.replay.state) if rec is not None else []
        except Exception:  # a changed plugin may not understand an old event; show it without
            return []

    def _after_move(self, hexes, centre: bool) -> None:
        self.view.state = self.replay.state
        self._forget_changed()
        self.highlight = hexes
        dmap = self.window.primary
        if dmap is not None and hexes and (centre or (self.follow and not self._any_visible(dmap, hexes))):
            dmap.center_on(centre_of(hexes, dmap.grid.cols))
            self._follow_global(dmap)
        self._rows_cache = None

    def _forget_changed(self) -> None:
        """Drop only the cached map pieces (detailed chunks, global map images) that the
        events between the position last shown and the cursor changed (app.dirty: the same
        rule the game window uses)."""
        old, new = self.shown_at, self.position
        if old == new:
            return
        changes = self.changes_between(old, new) if old is not None else MapChanges(everything=True)
        for dmap in self.window.detailed.values():
            dmap.apply_changes(changes)
        self.window.global_map.note_changes(changes, -1 if old is None else old, new)
        self.shown_at = new
        self.last_changes = changes

    def changes_between(self, old: int, new: int) -> MapChanges:
        """What differs on the map between the states after ``old`` and after ``new``:
        forward, what the events applied changed; backward, what the events undone changed."""
        low, high = sorted((old, new))
        if high - low > LONG_JUMP:
            return MapChanges(everything=True)
        records = []
        for rec in self.game.store.records(low + 1, high):
            try:
                records.append(upcast(self.game.host, rec))
            except EventDataError:
                continue  # no plugin folds it, so it changed nothing that is drawn
        try:
            return map_changes(self.view, records, self.window.model)
        except Exception:  # a changed plugin may not place an old event: redraw everything
            return MapChanges(everything=True)

    def _any_visible(self, dmap, hexes) -> bool:
        w, h = dmap.size
        return any(0 <= x < w and 0 <= y < h for x, y in (dmap.hex_to_screen(hx) for hx in hexes))

    def _follow_global(self, dmap) -> None:
        """Keep the detailed map's rectangle in the middle of the global map panel."""
        panel = self.window.panels.get("global")
        if panel is None:
            return
        gmap = self.window.global_map
        link = gmap.link_rect(dmap)
        gmap.scroll_x = int((gmap.scroll_x + link.centerx - panel.body.w // 2) % gmap.image_size()[0])

    def step(self, count: int = 1) -> None:
        self.history_top = None
        self.go_to(self.position + count)

    def jump(self, kind: str, forward: bool) -> None:
        """Previous/next event, step, phase, impulse or turn (bookmarks from the replay)."""
        self.history_top = None
        if kind == "event":
            self.step(1 if forward else -1)
            return
        mark = self.replay.next_bookmark(kind) if forward else self.replay.previous_bookmark(kind)
        if mark is None:
            self.say(f"no {'next' if forward else 'previous'} {kind}", DIM)
            return
        self.go_to(mark.seq)
        self.say(f"{mark.title} (turn {mark.turn}, impulse {mark.impulse})", TEXT)

    def toggle_play(self) -> None:
        self.playing = not self.playing
        if self.playing and self.position >= self.replay.last:
            self.go_to(0)
        self._budget = 0.0
        self._last_tick = self.clock()

    def set_speed(self, index: int) -> None:
        self.speed_index = max(0, min(len(SPEEDS) - 1, index))
        self.say(f"speed {SPEEDS[self.speed_index]} events/s", DIM)

    def tick(self) -> None:
        """Per frame: playing moves the cursor by speed x elapsed time."""
        now = self.clock()
        elapsed, self._last_tick = now - self._last_tick, now
        self.window.tick()
        if not self.playing:
            return
        self._budget += elapsed * SPEEDS[self.speed_index]
        count = min(int(self._budget), self.replay.last - self.position)
        self._budget -= int(self._budget)
        if count > 1:
            self.replay.forward(count - 1)  # only the last event of the frame is outlined
        if count > 0:
            self.go_to(self.position + 1)
        if self.position >= self.replay.last:
            self.playing = False
            self.say("end of the game", DIM)

    def fork_here(self) -> str | None:
        """Copy the events up to the cursor into a new save; the viewer closes and returns it."""
        if self.game.problems:
            self.say("cannot play on: " + self.game.problems[0], ACCENT)
            return None
        if self.position < 1:
            self.say("step to an event first: there is nothing to play on from", ACCENT)
            return None
        self.saves_dir.mkdir(parents=True, exist_ok=True)
        path = fork_path(self.game.path, self.position, self.saves_dir)
        try:
            self.game.fork(self.position, path).close()
        except WifError as exc:
            self.say(str(exc), ACCENT)
            return None
        self.result = str(path)
        self.running = False
        return self.result

    # ------------------------------------------------------------------ messages
    def say(self, text: str, colour=TEXT) -> None:
        self.status = (text, colour)

    def close(self) -> None:
        if self.owns_replay:
            self.game.close()


def run_replay_window(path, screen: pygame.Surface | None = None, start_seq: int | None = None,
                      saves_dir: Path | None = None, *, size: tuple[int, int] | None = None,
                      zoom: int | None = None, frames: int | None = None, screenshot: str | None = None) -> str | None:
    """Open the replay viewer on the save ``path`` until the player closes it (the program's
    main loop, app/scenes.py, with the viewer as its one scene).

    ``screen``: the display surface to draw on (by default a window is opened).
    ``start_seq``: where the cursor starts (default: the last event).  Returns the path of
    the new save when the player chose "Play on from here", else None.  The save itself is
    only read.  ``size``: of the window it opens (default: 1280x800 or what the desktop
    allows); ``zoom``: the detailed map's zoom; ``frames`` and ``screenshot`` (for scripts and
    the README picture): stop after that many frames and save the last one as a PNG."""
    from .scenes import ReplayScene, SceneStack

    own_display = screen is None
    pygame.display.init()
    pygame.font.init()
    scene = ReplayScene(path, screen=screen, start_seq=start_seq, saves_dir=saves_dir, zoom=zoom, size=size)
    stack = SceneStack()
    try:
        stack.push(scene)
        stack.run(frames=frames, screenshot=screenshot)
    finally:
        stack.clear()
        if own_display:
            pygame.display.quit()
    return scene.result
