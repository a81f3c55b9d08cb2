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
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIDropDownMenu

from kernel.engine import upcast
from kernel.errors import EventDataError, WifError
from kernel.events import EventRecord
from kernel.replay import Replay, open_replay

from .detailed import font
from .dirty import MapChanges, map_changes
from .forms import SUBSTITUTES
from .play import ACCENT, DIM, FORM, GOOD, REPO_ROOT, TEXT, TITLE_BAR, TITLE_H, GameWindow
from .render import StateView, centre_of, draw_highlights
from .views import ScreenLayout, WindowGeometry

SPEEDS = (1, 2, 5, 10, 25, 50, 100, 250)  # events per second
DEFAULT_SPEED = 3  # 10 events/s: readable in the history panel
TIMELINE_H = 130
ALL_KINDS = "all kinds"  # the kind drop-down's first entry: no filter
ROW_H = 18
CURRENT_ROW = (70, 90, 70)
SLIDER_TRACK = (90, 96, 110)
TURN_TICK = (235, 200, 90)
IMPULSE_TICK = (160, 160, 150)
DIE_FACE = (245, 245, 235)
# Row texts are kept per seq; bounded so memory stays flat while playing through a long game.
DESCRIPTION_CACHE_SIZE = 5000
# Folding this many events onto the scratch state is cheaper than reading a snapshot.
FOLD_GAP = 200
FILTERS_KEPT = 8  # the seqs of the last filters chosen, so switching back costs no scan
# A move across more events than this redraws the whole map: reading what each of them
# changed would cost more than rebuilding the chunks in view.
LONG_JUMP = 300
BUTTONS = (("<turn", "turn", False), ("<imp", "impulse", False), ("<phase", "phase", False), ("<step", "step", False),
           ("<1", "event", False), ("play", None, None), ("1>", "event", True), ("step>", "step", True),
           ("phase>", "phase", True), ("imp>", "impulse", True), ("turn>", "turn", True))


def replay_layout(size: tuple[int, int]) -> ScreenLayout:
    """Detailed map on the left, global map top right; the viewer's own timeline (bottom)
    and history panel (right, under the global map) fill the rest."""
    w, h = size
    side = int(max(300, min(520, w * 0.36)))
    global_h = TITLE_H + 26 + min(230, (h - TIMELINE_H) // 3)
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


def printable(text: str, size: int = 16) -> str:
    """The text with characters the default font lacks replaced (arrows, dashes), so no
    box stands where a player expects a word."""
    out = []
    f = font(size)
    for ch in text:
        if ord(ch) > 127:
            ch = SUBSTITUTES.get(ch, ch)
            if len(ch) == 1 and f.metrics(ch)[0] is None:
                ch = "?"
        out.append(ch)
    return "".join(out)


def fit(text: str, size: int, width: int) -> str:
    """``text`` cut to ``width`` pixels, ending in "..." when cut."""
    f = font(size)
    if f.size(text)[0] <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the dots
        mid = (low + high + 1) // 2
        if f.size(text[:mid] + "...")[0] <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low] + "..."


@dataclass
class HistoryRow:
    seq: int
    when: str
    text: str
    dice: list[int]
    skipped: bool


class ReplayWindow:
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

    # ------------------------------------------------------------------ geometry
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

    # ------------------------------------------------------------------ moving the cursor
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

    # ------------------------------------------------------------------ play on from here
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

    # ------------------------------------------------------------------ history
    def _filter_choices(self) -> tuple[list[str], list[str]]:
        conn = self.game.store.conn
        actors = {a for (a,) in conn.execute("SELECT DISTINCT actor FROM events")}
        kernel = self.replay.state.kernel
        powers = [p for p in kernel.powers() if p in actors or kernel.side_of(p) in actors]
        powers += sorted(a for a in actors if a not in powers and a not in kernel.sides)
        kinds = sorted(t for (t,) in conn.execute("SELECT DISTINCT type FROM events"))
        return powers, kinds

    def _kind_menu(self) -> UIDropDownMenu:
        """The kind filter: a pygame_gui drop-down over the history's filter bar."""
        gui = self.window.gui
        rect = dict(self.filter_buttons())["kind"]
        menu = UIDropDownMenu([ALL_KINDS] + self.kinds, ALL_KINDS, rect, gui.manager,
                              expansion_height_limit=max(80, self.history_rect.bottom - rect.bottom - 4))
        gui.on(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, menu, self.set_kind_filter)
        return menu

    def set_kind_filter(self, kind: str | None) -> None:
        """The kind drop-down's choice (None or "all kinds": every kind)."""
        self.filter_kind = None if kind in (None, ALL_KINDS) else kind
        self.history_top = None
        self._rows_cache = None

    def toggle_kind_menu(self) -> None:
        state = self.kind_menu.current_state
        state.target_state = "expanded" if state is self.kind_menu.menu_states["closed"] else "closed"
        state.should_transition = True

    def cycle_filter(self, which: str, step: int = 1) -> None:
        choices = [None] + (self.powers if which == "power" else self.kinds)
        current = self.filter_power if which == "power" else self.filter_kind
        chosen = choices[(choices.index(current) + step) % len(choices)]
        if which == "power":
            self.filter_power = chosen
        else:
            self.filter_kind = chosen
        self.history_top = None
        self._rows_cache = None

    def _where(self) -> tuple[str, list]:
        clauses, params = [], []
        if self.filter_power:
            who = [self.filter_power]
            side = self.replay.state.kernel.side_of(self.filter_power)
            if side:
                who.append(side)
            clauses.append(f"actor IN ({', '.join('?' * len(who))})")
            params += who
        if self.filter_kind:
            clauses.append("type = ?")
            params.append(self.filter_kind)
        return "".join(f" AND {c}" for c in clauses), params

    def _listed(self):
        """The seqs the history lists, ascending: every event (seqs have no gaps), or those
        the filter lets through, read once per filter (a rare kind would otherwise make every
        step scan the whole table)."""
        where, params = self._where()
        if not where:
            return range(1, self.replay.last + 1)
        key = (where, tuple(params))
        found = self._filtered.get(key)
        if found is None:
            rows = self.game.store.conn.execute(f"SELECT seq FROM events WHERE 1{where} ORDER BY seq", params)
            found = self._filtered[key] = array("q", (s for (s,) in rows))
            if len(self._filtered) > FILTERS_KEPT:
                del self._filtered[next(iter(self._filtered))]
        return found

    def _seqs(self, op: str, seq: int, order: str, limit: int) -> list[int]:
        listed = self._listed()
        if order == "ASC":
            i = bisect_left(listed, seq) if op == ">=" else bisect_right(listed, seq)
            return list(listed[i:i + limit])
        j = bisect_right(listed, seq) if op == "<=" else bisect_left(listed, seq)
        return list(listed[max(0, j - limit):j])[::-1]

    def visible_count(self) -> int:
        return max(1, self.history_list_rect().h // ROW_H)

    def history_seqs(self) -> list[int]:
        """The seqs the panel lists: around the cursor, or from ``history_top`` when scrolled."""
        n = self.visible_count()
        if self.history_top is not None:
            return self._seqs(">=", self.history_top, "ASC", n)
        before = list(reversed(self._seqs("<=", self.position, "DESC", max(1, n // 2))))
        after = self._seqs(">", self.position, "ASC", n - len(before))
        if len(after) < n - len(before):  # near the end: show more of the past
            before = list(reversed(self._seqs("<=", self.position, "DESC", n - len(after))))
        return before + after

    def history_rows(self) -> list[HistoryRow]:
        key = (self.position, self.filter_power, self.filter_kind, self.history_top, self.visible_count())
        if self._rows_cache is not None and self._rows_cache[0] == key:
            return self._rows_cache[1]
        rows = []
        for seq in self.history_seqs():
            described = self.described(seq)
            if described is None:
                continue
            rec, text = described
            when = f"T{rec.turn}.{rec.impulse}" if rec.turn else "setup"
            dice = list(rec.data.get("results") or []) if rec.type == "DiceRolled" else []
            rows.append(HistoryRow(seq, when, text, dice, seq in self.replay.skipped))
        self._rows_cache = (key, rows)
        return rows

    def described(self, seq: int) -> tuple[EventRecord, str] | None:
        """Event ``seq`` and its words, with names as they were just before it happened.

        Each seq is described once: from a scratch state of the viewer's own (the cursor's
        state is never touched) folded forward through the rows in order, so the row that
        scrolls in while stepping costs one event's fold; a row far behind or ahead of the
        scratch state starts again from the nearest snapshot (unless that snapshot is further
        back than the scratch state)."""
        found = self._described.get(seq)
        if found is not None:
            self._described.move_to_end(seq)
            return found
        replay = self.replay
        gap = seq - 1 - self._scratch_at
        if self._scratch is None or gap < 0 or (gap > FOLD_GAP and gap > seq - 1 - self._snapshot_before(seq - 1)):
            self._scratch = replay._state_at(seq - 1)
            self._scratch_at = seq - 1
        for rec in self.game.store.records(self._scratch_at + 1, seq):
            if rec.seq == seq:
                try:
                    upcast(self.game.host, rec)
                except EventDataError:
                    pass  # describe says it cannot be shown
                try:
                    text = replay.describe(rec, self._scratch)
                except Exception as exc:  # a changed plugin may not understand an old event
                    text = f"{rec.type} (cannot be described: {exc})"
                found = self._described[seq] = (rec, printable(text))
            replay._apply(rec, self._scratch)
            self._scratch_at = rec.seq
        while len(self._described) > DESCRIPTION_CACHE_SIZE:
            self._described.popitem(last=False)
        return found

    def _snapshot_before(self, seq: int) -> int:
        """The seq of the snapshot ``state_at(seq)`` would start from (0: the start)."""
        row = self.game.store.conn.execute("SELECT max(seq) FROM snapshots WHERE seq <= ? AND plugins_hash = ?",
                                           (seq, self.game.plugins_hash)).fetchone()
        return row[0] or 0

    def scroll_history(self, rows: int) -> None:
        seqs = self.history_seqs()
        if not seqs:
            return
        top = seqs[0]
        if rows > 0:
            found = self._seqs(">", top, "ASC", rows)
            self.history_top = found[-1] if found else top
        else:
            found = self._seqs("<", top, "DESC", -rows)
            self.history_top = found[-1] if found else top

    # ------------------------------------------------------------------ events
    def say(self, text: str, colour=TEXT) -> None:
        self.status = (text, colour)

    def handle(self, event) -> bool:
        """One pygame event; False once the viewer should close."""
        if self.window.gui.process(event):
            return self.running  # the kind drop-down (or another form) used it
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            if not self._press(event.pos, event.button):
                self.window.handle(event)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self._slider_drag:
                self._slider_drag = False
                self._slide(event.pos)
            else:
                self.window.handle(event)
        elif event.type == pygame.MOUSEMOTION:
            if self._slider_drag:
                self._slide(event.pos)
            else:
                self.window.handle(event)
        elif event.type == pygame.MOUSEWHEEL:
            mouse = self.window.mouse
            if self.history_rect.collidepoint(mouse):
                self.scroll_history(-3 * event.y)
            elif self.timeline_rect.collidepoint(mouse):
                self.step(1 if event.y < 0 else -1)
            else:
                self.window.handle(event)
        return self.running

    def _key(self, event) -> None:
        key, mod = event.key, getattr(event, "mod", 0)
        ctrl, shift = mod & pygame.KMOD_CTRL, mod & pygame.KMOD_SHIFT
        if self.typing is not None:
            self._type(event)
            return
        moves = {pygame.K_LEFT: False, pygame.K_RIGHT: True}
        if key == pygame.K_ESCAPE:
            self.running = False
        elif key in moves:
            self.jump("phase" if ctrl else "step" if shift else "event", moves[key])
        elif key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.jump("impulse", key == pygame.K_PAGEDOWN)
        elif key in (pygame.K_HOME, pygame.K_END):
            if ctrl:
                self.history_top = None
                self.go_to(0 if key == pygame.K_HOME else self.replay.last)
            else:
                self.jump("turn", key == pygame.K_END)
        elif key == pygame.K_SPACE:
            self.toggle_play()
        elif pygame.K_1 <= key <= pygame.K_8:
            self.set_speed(key - pygame.K_1)
        elif key == pygame.K_g:
            self.typing = ""
        elif key == pygame.K_p:
            self.cycle_filter("power", -1 if shift else 1)
        elif key == pygame.K_k:
            self.toggle_kind_menu()
        elif key == pygame.K_f:
            self.fork_here()
        elif key != pygame.K_RETURN:  # Enter would finish a step in the game; here it does nothing
            self.window.handle(event)  # the map's own keys: scrolling, zoom, layers

    def _type(self, event) -> None:
        key = event.key
        if key == pygame.K_ESCAPE:
            self.typing = None
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            text, self.typing = self.typing, None
            if text:
                self.history_top = None
                self.go_to(int(text), centre=True)
                self.say(f"event {self.position}", TEXT)
        elif key == pygame.K_BACKSPACE:
            self.typing = self.typing[:-1]
        elif event.unicode and event.unicode.isdigit() and len(self.typing) < 9:
            self.typing += event.unicode
        elif pygame.K_0 <= key <= pygame.K_9 and len(self.typing) < 9:
            self.typing += chr(key)

    def _press(self, pos, button: int) -> bool:
        """A click on the viewer's own panels; False when it belongs to the map window."""
        self.window.mouse = pos
        if self.timeline_rect.collidepoint(pos):
            if button == 1 and self.slider_rect().inflate(0, 10).collidepoint(pos):
                self._slider_drag = True
                self._slide(pos)
                return True
            for label, rect in self.buttons():
                if rect.collidepoint(pos) and button == 1:
                    self._button(label)
            return True
        if self.history_rect.collidepoint(pos):
            for which, rect in self.filter_buttons():
                if rect.collidepoint(pos):
                    if which == "power":  # the kind drop-down takes its own clicks (pygame_gui)
                        self.cycle_filter(which, 1 if button == 1 else -1)
                    return True
            for rect, seq in self._history_hits:
                if rect.collidepoint(pos) and button == 1:
                    self.go_to(seq, centre=True)
                    self.say(f"event {seq}", TEXT)
                    return True
            return True
        return False

    def _button(self, label: str) -> None:
        for name, kind, forward in BUTTONS:
            if name == label:
                if kind is None:
                    self.toggle_play()
                else:
                    self.jump(kind, forward)
                return
        if label == "slower":
            self.set_speed(self.speed_index - 1)
        elif label == "faster":
            self.set_speed(self.speed_index + 1)
        elif label == "go to":
            self.typing = ""
        elif label == "play on from here":
            self.fork_here()

    def seq_at_slider(self, x: int) -> int:
        rect = self.slider_rect()
        frac = min(1.0, max(0.0, (x - rect.x) / max(1, rect.w - 1)))
        return round(frac * self.replay.last)

    def slider_x(self, seq: int) -> int:
        rect = self.slider_rect()
        return rect.x + round(seq / max(1, self.replay.last) * (rect.w - 1))

    def _slide(self, pos) -> None:
        self.history_top = None
        target = self.seq_at_slider(pos[0])
        if target != self.position:
            self.go_to(target)

    # ------------------------------------------------------------------ drawing
    def draw(self) -> None:
        self.window.draw()
        draw_highlights(self.window, self.highlight)
        self._draw_history()
        self._draw_timeline()
        self.window.gui.draw(self.screen)  # again: the history panel was drawn over the forms

    def _draw_timeline(self) -> None:
        s, t = self.screen, self.timeline_rect
        s.fill(FORM, t)
        pygame.draw.line(s, TITLE_BAR, t.topleft, t.topright, 2)
        r = self.replay
        k = r.state.kernel
        described = self.described(self.position) if self.position else None
        step_title = (k.sequence.current or "-").split(".")[-1]
        play = f"playing {SPEEDS[self.speed_index]}/s" if self.playing else f"paused ({SPEEDS[self.speed_index]}/s)"
        head = f"event {self.position} of {r.last}   turn {k.turn} impulse {k.impulse}   {step_title}   {play}"
        s.blit(font(18).render(head, True, TEXT), (t.x + 8, t.y + 5))
        width = t.w - 16
        if described is not None:
            s.blit(font(17).render(fit(described[1], 17, width), True, GOOD), (t.x + 8, t.y + 22))
        self._draw_slider()
        problems = self.game.problems
        for label, rect in self.buttons():
            active = (label == "play" and self.playing) or (label == "go to" and self.typing is not None)
            disabled = label == "play on from here" and (problems or self.position < 1)
            pygame.draw.rect(s, GOOD if active else TITLE_BAR, rect)
            shown = ("pause" if self.playing else "play") if label == "play" else label
            if label == "go to" and self.typing is not None:
                shown = f"# {self.typing}_"
            text = font(17).render(shown, True, DIM if disabled else (0, 0, 0) if active else TEXT)
            s.blit(text, (rect.centerx - text.get_width() // 2, rect.y + 5))
        message, colour = self.status
        help_line = ("Left/Right event  Shift step  Ctrl phase  PgUp/PgDn impulse  Home/End turn  Space play  "
                     "1-8 speed  G go to  P power  K kinds  F play on  Esc close")
        s.blit(font(15).render(fit(message or help_line, 15, width), True, colour if message else DIM),
               (t.x + 8, t.y + 92))
        if problems:  # a missing or changed plugin: say which, and what could not be shown
            note = "read-only replay: " + "; ".join(problems)
            if r.skipped:
                note += f"; {len(r.skipped)} event(s) not shown (first: {r.skipped[0]})"
            s.blit(font(15).render(fit(printable(note, 15), 15, width), True, ACCENT), (t.x + 8, t.y + 110))
        else:
            note = f"replay of {self.game.path.name} (read only: nothing here changes the save)"
            s.blit(font(15).render(fit(note, 15, width), True, DIM), (t.x + 8, t.y + 110))

    def _draw_slider(self) -> None:
        s, rect = self.screen, self.slider_rect()
        s.blit(self._slider_track(rect), (rect.x, rect.y - 3))
        x = self.slider_x(self.position)
        pygame.draw.rect(s, GOOD, (x - 4, rect.y - 4, 9, rect.h + 8))

    def _slider_track(self, rect: pygame.Rect) -> pygame.Surface:
        """The track with a tick per impulse and turn, drawn once per size (a long game has
        thousands of impulses, far more than the track has pixels)."""
        if getattr(self, "_track", None) is not None and self._track[0] == rect.size:
            return self._track[1]
        track = pygame.Surface((rect.w, rect.h + 6))
        track.fill(FORM)
        track.fill(SLIDER_TRACK, (0, 3, rect.w, rect.h))
        for kind, colour, top, width in (("impulse", IMPULSE_TICK, 3 + 8, 1), ("turn", TURN_TICK, 0, 2)):
            for x in sorted({self.slider_x(m.seq) - rect.x for m in self.replay.bookmarks[kind]}):
                pygame.draw.line(track, colour, (x, top), (x, rect.h + 5 if kind == "turn" else rect.h + 2), width)
        self._track = (rect.size, track)
        return track

    def _draw_history(self) -> None:
        s, r = self.screen, self.history_rect
        if r.h <= TITLE_H:
            return
        s.fill(FORM, r)
        pygame.draw.rect(s, TITLE_BAR, (r.x, r.y, r.w, TITLE_H))
        s.blit(font(17).render("History", True, TEXT), (r.x + 6, r.y + 2))
        for which, rect in self.filter_buttons():
            if which == "kind":
                continue  # the drop-down draws itself there (after the panels: see draw)
            value = (self.filter_power if which == "power" else self.filter_kind) or "all"
            pygame.draw.rect(s, GOOD if value != "all" else TITLE_BAR, rect)
            s.blit(font(16).render(f"{which}: {value}"[:40], True, (0, 0, 0) if value != "all" else TEXT),
                   (rect.x + 5, rect.y + 4))
        area = self.history_list_rect()
        old = s.get_clip()
        s.set_clip(area)
        self._history_hits = []
        y = area.y
        for row in self.history_rows():
            line = pygame.Rect(area.x, y, area.w, ROW_H)
            if row.seq == self.position:
                s.fill(CURRENT_ROW, line)
            colour = ACCENT if row.skipped else TEXT if row.seq <= self.position else DIM
            x = area.x + 4
            s.blit(font(15).render(f"{row.seq:>6} {row.when:<6}", True, DIM), (x, y + 3))
            x += 78
            for value in row.dice:  # the dice themselves, as small faces
                face = pygame.Rect(x, y + 2, 14, 14)
                pygame.draw.rect(s, DIE_FACE, face, border_radius=3)
                digit = font(15).render(str(value), True, (0, 0, 0))
                s.blit(digit, (face.centerx - digit.get_width() // 2, face.y + 2))
                x += 17
            s.blit(font(16).render(fit(row.text, 16, area.right - x - 6), True, colour), (x + 2, y + 3))
            self._history_hits.append((line, row.seq))
            y += ROW_H
        s.set_clip(old)

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
