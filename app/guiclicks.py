"""Where on screen a player clicks to do a thing, for the driver of app/guidriver.py: a form's
button, a list's row, a drop-down menu's option, a hex or a unit on the detailed map.

Everything here is found the way a player finds it, on the screen as drawn: an element's
rectangle, clipped by the form that holds it and not hidden under another form; a hex's
point on the detailed map that no form covers.  When the hex is off the map's view, the map
is first centred on it by the map's own control (a click on the global map, which moves the
linked detailed map there; seeds, "Global Map"), or by the arrow keys; when it shows on the
map but under a form or panel, the map is dragged (left button held) until the hex lies in
the middle of the part of the map nothing covers, as a player pans it before clicking."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

FREE_STEP = 16  # pixels between the points tried when looking for the map's uncovered middle
DRAG_AT_LEAST = 8  # pixels: a shorter drag would be taken for a click (windowstyle.DRAG_THRESHOLD is 5)
NOTCH = 40  # pixels a list scrolls for one notch of the wheel (pygame_gui's scroll_wheel_speed)
SPIN_AT_MOST = 8  # notches in one fast spin of the wheel
ROW_SHOWN = 14  # pixels of a list row that must show for the driver to click it
HEX_PROBES = ((0, 0), (0, -0.3), (0, 0.3), (-0.3, 0), (0.3, 0), (-0.25, -0.25), (0.25, 0.25), (0.25, -0.25),
              (-0.25, 0.25))  # points of a hex tried in turn, as fractions of its size


@dataclass
class Action:
    """One input: a left click at ``pos``, a wheel turn at ``pos``, a drag from ``pos`` to
    ``to``, or a key."""

    kind: str  # "click" | "wheel" | "drag" | "key" | "move" (the pointer only) | "wait" (no input)
    pos: tuple[int, int] = (0, 0)
    amount: int = 0
    key: int = 0
    mod: int = 0
    what: str = ""  # what is clicked, for a report when a click is swallowed
    to: tuple[int, int] = (0, 0)  # a drag: where the button is let go


def events_of(action: Action) -> list[pygame.event.Event]:
    """The pygame events a player's mouse or keyboard would produce."""
    if action.kind == "wait":
        return []
    if action.kind == "key":
        return [pygame.event.Event(pygame.KEYDOWN, key=action.key, mod=action.mod, unicode="", scancode=0),
                pygame.event.Event(pygame.KEYUP, key=action.key, mod=action.mod, unicode="", scancode=0)]
    move = pygame.event.Event(pygame.MOUSEMOTION, pos=action.pos, rel=(0, 0), buttons=(0, 0, 0), touch=False)
    if action.kind == "move":
        return [move]
    if action.kind == "drag":  # press, move with the button held, let go
        rel = (action.to[0] - action.pos[0], action.to[1] - action.pos[1])
        return [move, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=action.pos, button=1, touch=False),
                pygame.event.Event(pygame.MOUSEMOTION, pos=action.to, rel=rel, buttons=(1, 0, 0), touch=False),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=action.to, button=1, touch=False)]
    if action.kind == "wheel":
        return [move, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=action.amount, flipped=False, precise_x=0.0,
                                         precise_y=float(action.amount), touch=False)]
    return [move, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=action.pos, button=1, touch=False),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=action.pos, button=1, touch=False)]


def post(action: Action) -> None:
    """Post the action's events; the pointer is moved there too, so pygame_gui's hover (which
    reads the mouse, not the events) sees it where the events say."""
    if action.kind not in ("key", "wait") and pygame.display.get_surface() is not None:
        pygame.mouse.set_pos(action.pos)
    for event in events_of(action):
        pygame.event.post(event)


# ---------------------------------------------------------------------- forms
def _windows(gui) -> list:
    """The visible pygame_gui windows, bottom first."""
    from pygame_gui.elements import UIWindow

    if not gui.active:
        return []
    return [w for w in gui.manager.get_root_container().elements if isinstance(w, UIWindow) and w.visible]


def _on_top(gui, element, pos) -> bool:
    """No window above the one holding ``element`` covers ``pos`` (pygame_gui gives each
    window a band of layers above the windows under it)."""
    return all(w.layer <= element.layer for w in _windows(gui) if w.get_abs_rect().collidepoint(pos))


def clipped_rect(element) -> pygame.Rect | None:
    """What shows of ``element``: its rectangle clipped by every container holding it; None
    when it or one of them is hidden."""
    if element is None or not element.alive() or not element.visible:
        return None
    rect = element.get_abs_rect() if hasattr(element, "get_abs_rect") else element.rect
    container, seen = element.ui_container, set()
    while container is not None and id(container) not in seen:  # the root container is its own parent
        seen.add(id(container))
        clip = container.get_abs_rect() if hasattr(container, "get_abs_rect") else container.rect
        rect = rect.clip(clip)
        if not getattr(container, "visible", True):
            return None
        container = getattr(container, "ui_container", None)
    return rect


def visible_point(gui, element) -> tuple[int, int] | None:
    """A point of ``element`` a click reaches: inside every container that clips it, enabled
    and visible, and not under another window; None if there is none."""
    if hasattr(element, "is_enabled") and not element.is_enabled:
        return None
    rect = clipped_rect(element)
    if rect is None or rect.width < 3 or rect.height < 3:
        return None
    pos = rect.center
    return pos if _on_top(gui, element, pos) else None


def scroll_to(gui, element, what: str, areas) -> Action | None:
    """A wheel turn over the scrolling area (of ``areas``, UIScrollingContainers) holding
    ``element`` that brings it into view; None when it is in none of them, or in view."""
    for area in areas:
        if area is None or not area.alive() or element.ui_container is not area.get_container():
            continue
        view = area.get_abs_rect()
        rect = element.get_abs_rect()
        # over the area's own scroll bar: over a list inside it, the wheel would scroll the list
        middle = visible_point(gui, area.vert_scroll_bar) if area.vert_scroll_bar is not None else None
        if middle is None or view.contains(rect):
            return None
        return Action("wheel", middle, amount=-1 if rect.bottom > view.bottom else 1, what=f"scroll to {what}")
    return None


def find_button(form, **tags) -> object | None:
    """The form's button carrying every tag (``sets=("unit", "g-inf")``, ``finishes=True``)."""
    if form is None:
        return None
    for b in getattr(form, "owned", ()):
        if all(_equal(getattr(b, name, None), value) for name, value in tags.items()):
            return b
    return None


def _equal(a, b) -> bool:
    norm = (lambda v: [norm(x) for x in v] if isinstance(v, (list, tuple))
            else {k: norm(x) for k, x in v.items()} if isinstance(v, dict) else v)
    return norm(a) == norm(b)


def list_row(gui, lst, index: int, what: str) -> Action | None:
    """A click on row ``index`` of a UISelectionList, or a wheel turn over the list that
    brings the row into view; None when the list itself cannot be reached."""
    inner = lst.list_and_scroll_bar_container.get_abs_rect() if hasattr(lst, "list_and_scroll_bar_container") \
        else lst.get_abs_rect()
    item = lst.item_list[index]
    button = item.get("button_element")
    if button is not None:
        pos = visible_point(gui, button)
        shown = clipped_rect(button)
        # a row cut by the list's edge to a few pixels takes no click there (pygame_gui clips
        # a little inside): a player scrolls it into view first, and so does the driver
        if pos is not None and inner.collidepoint(pos) and shown.height >= min(ROW_SHOWN, button.get_abs_rect().height):
            return Action("click", pos, what=what)
    middle = visible_point(gui, lst)
    if middle is None:
        return None
    bar = getattr(lst, "scroll_bar", None)
    on_bar = visible_point(gui, getattr(bar, "sliding_button", None)) if bar is not None else None
    middle = on_bar or middle  # over the list's own scroll bar: the form's may take a wheel over the rows
    first = next((i for i, it in enumerate(lst.item_list) if it.get("button_element") is not None), 0)
    # a row half cut off at the list's top has its button already: the wheel goes up for it
    up = index < first or (button is not None and button.get_abs_rect().centery < inner.centery)
    if bar is None:
        return Action("wheel", middle, amount=1 if up else -1, what=f"scroll to {what}")
    spin = _spin(lst, bar, index, inner.height)
    if spin is None and _gliding(bar):  # the list glides on to where the row shows: watch it come
        return Action("wait", middle, what=f"{what} to come into view")
    return Action("wheel", middle, amount=spin or (1 if up else -1), what=f"scroll to {what}")


def _rest(bar) -> float:
    """Where a scroll bar's handle comes to rest: pygame_gui leaves a wheel's target past the
    ends and glides to the end."""
    handle = bar.sliding_button.relative_rect.height if bar.sliding_button is not None else 0
    return min(max(bar.target_scroll_position, bar.top_limit), bar.bottom_limit - handle)


def _gliding(bar) -> bool:
    return bar.scroll_wheel_moved or abs(bar.scroll_position - _rest(bar)) > 0.5


def scroll_positions(gui) -> tuple:
    """Where every scroll bar of the forms stands: a wheel turn that changes none of them moved
    nothing."""
    from pygame_gui.elements import UIHorizontalScrollBar, UIVerticalScrollBar

    if not gui.active:
        return ()
    return tuple(round(bar.scroll_position, 1) for bar in gui.manager.get_sprite_group().sprites()
                 if isinstance(bar, (UIVerticalScrollBar, UIHorizontalScrollBar)))


def _spin(lst, bar, index: int, view_height: int) -> int | None:
    """How far the wheel is spun for row ``index`` (up positive): a player spins it fast
    towards a row far down a long list, then notch by notch (pygame_gui scrolls a list about 40
    pixels a notch, and a fast spin comes as one event of several notches).  Measured from
    where the list is gliding to, not where it shows mid-glide, so a spin never adds to one
    still under way; None when the row shows there."""
    top = _rest(bar) / max(bar.scrollable_height, 1) * lst.total_height_of_list
    row_top = index * lst.list_item_height
    if row_top < top:
        return min(SPIN_AT_MOST, max(1, int(top - row_top) // NOTCH))
    below = row_top + lst.list_item_height - (top + view_height)
    if below > 0:
        return -min(SPIN_AT_MOST, max(1, int(below) // NOTCH))
    return None


def drop_down(gui, menu, option: str) -> Action | None:
    """Open the drop-down ``menu``, then click ``option`` in it."""
    state = menu.current_state
    selection = getattr(state, "options_selection_list", None)
    if selection is not None:
        for i, item in enumerate(selection.item_list):
            if item["text"] == option:
                return list_row(gui, selection, i, option)
        return None
    button = getattr(state, "selected_option_button", None) or getattr(state, "open_button", None)
    pos = visible_point(gui, button)
    return Action("click", pos, what=f"open the menu for {option}") if pos else None


# ---------------------------------------------------------------------- the map
def _detailed(window):
    """The primary detailed map's panel and map, or (None, None) when none shows."""
    panel = window.panels.get("detailed") or next((p for k, p in window.panels.items() if k in window.detailed), None)
    dmap = window.detailed.get(panel.key) if panel is not None else None
    if dmap is None or panel.geometry.rolled:
        return None, None
    return panel, dmap


def _uncovered(window, panel, pos) -> bool:
    """``pos`` is on the map's panel, and no other panel or form lies over it there."""
    return panel.body.collidepoint(pos) and window.panel_at(pos) is panel and not window.gui.over_form(pos)


def hex_point(window, hex_) -> tuple[int, int] | None:
    """A point of ``hex_`` on the primary detailed map that a click reaches (no form or
    other panel over it), or None when the hex is not on screen there."""
    panel, dmap = _detailed(window)
    if dmap is None:
        return None
    g = dmap.geometry
    cx, cy = dmap.hex_to_screen(tuple(hex_))
    for fx, fy in HEX_PROBES:
        pos = (panel.body.x + int(cx + fx * g.w), panel.body.y + int(cy + fy * g.h))
        if not _uncovered(window, panel, pos) or _layer_at(window, panel, dmap, pos):
            continue
        if dmap.screen_to_hex((pos[0] - panel.body.x, pos[1] - panel.body.y)) == tuple(hex_):
            return pos
    return None


def _layer_at(window, panel, dmap, pos) -> bool:
    """A map layer's drawing (a sea box) takes a click at ``pos``, not the hex under it."""
    from .navalclicks import layer_hit

    return layer_hit(window, dmap, (pos[0] - panel.body.x, pos[1] - panel.body.y)) is not None


def under_layer(window, hex_) -> bool:
    """``hex_`` shows on the detailed map, uncovered by forms, but a map layer's drawing (a sea
    box, anchored to its sea area) lies over it: moving the map does not uncover it."""
    panel, dmap = _detailed(window)
    if dmap is None:
        return False
    cx, cy = dmap.hex_to_screen(tuple(hex_))
    at = (panel.body.x + cx, panel.body.y + cy)
    return _uncovered(window, panel, at) and _layer_at(window, panel, dmap, at) and hex_point(window, hex_) is None


def free_middle(window, panel) -> tuple[int, int] | None:
    """The point of the map's uncovered part farthest from whatever covers it or the panel's
    edge (the middle of the free map a player looks at), found on a grid of FREE_STEP pixels;
    None when nothing of the map is uncovered."""
    body = panel.body
    cols, rows = body.w // FREE_STEP, body.h // FREE_STEP
    point = {(i, j): (body.x + FREE_STEP // 2 + i * FREE_STEP, body.y + FREE_STEP // 2 + j * FREE_STEP)
             for i in range(cols) for j in range(rows)}
    free = {ij for ij, pos in point.items() if _uncovered(window, panel, pos)}
    # distance (in grid steps) of each free point to the nearest covered point or the edge
    depth = {ij: 1 for ij in free if any((ij[0] + di, ij[1] + dj) not in free
                                        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)))}
    frontier = list(depth)
    while frontier:
        nxt = []
        for i, j in frontier:
            for n in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if n in free and n not in depth:
                    depth[n] = depth[(i, j)] + 1
                    nxt.append(n)
        frontier = nxt
    if not depth:
        return None
    best = max(depth.values())
    middle = (cols / 2, rows / 2)
    i, j = min((ij for ij, d in depth.items() if d == best),
               key=lambda ij: (ij[0] - middle[0]) ** 2 + (ij[1] - middle[1]) ** 2)
    return point[(i, j)]


def drag_into_view(window, hex_) -> Action | None:
    """When ``hex_`` shows on the detailed map but under a form or another panel: a drag of
    the map (from and to uncovered points) that brings it towards the middle of the free
    map; None when the hex is off the map's view (centre on it first) or in the free map."""
    panel, dmap = _detailed(window)
    if dmap is None:
        return None
    cx, cy = dmap.hex_to_screen(tuple(hex_))
    at = (panel.body.x + cx, panel.body.y + cy)
    if not panel.body.collidepoint(at):
        return None
    target = free_middle(window, panel)
    if target is None:
        return None
    dx, dy = target[0] - at[0], target[1] - at[1]
    while max(abs(dx), abs(dy)) > DRAG_AT_LEAST:
        # a drag centred on the free middle, shortened until both its ends are uncovered
        start = (target[0] - dx // 2, target[1] - dy // 2)
        end = (start[0] + dx, start[1] + dy)
        if _uncovered(window, panel, start) and _uncovered(window, panel, end):
            return Action("drag", start, to=end, what=f"drag the map towards {hex_[0]},{hex_[1]}")
        dx, dy = int(dx / 2), int(dy / 2)
    return None


def centre_on(window, hex_) -> Action | None:
    """A click on the global map that moves the detailed map to ``hex_`` (its centre)."""
    panel = next((p for p in window.panels.values() if p.kind == "global" and not p.geometry.rolled), None)
    dmap = window.primary
    if panel is None or dmap is None:
        return None
    kept = (dmap.fx, dmap.fy)
    dmap.center_on(tuple(hex_))  # where the map's own centring would put its origin...
    fx, fy = dmap.fx, dmap.fy
    dmap.fx, dmap.fy = kept  # ...only to find the point of the global map that means it
    gm = window.global_map
    image = window._global_image_rect(panel)
    s = gm.scale
    w = gm.image_size()[0]
    x = int(round((fx + 0.25) * s - gm.scroll_x)) % w
    y = int(round((fy + 0.5) * s))
    pos = (image.x + x, image.y + y)
    if not image.collidepoint(pos) or window.panel_at(pos) is not panel or window.gui.over_form(pos):
        return None
    return Action("click", pos, what=f"global map at {hex_[0]},{hex_[1]}")


def scroll_towards(window, hex_) -> Action:
    """Without a global map on screen: the arrow key that scrolls the detailed map towards
    ``hex_`` (with Ctrl, a page at a time, while it is more than half a page away)."""
    dmap = window.primary
    col, row = dmap.centre_hex
    cols = window.model.grid.cols
    dc, dr = (hex_[0] - col + cols // 2) % cols - cols // 2, hex_[1] - row
    page_cols, page_rows = dmap.size[0] / dmap.geometry.w, dmap.size[1] / dmap.geometry.h
    if abs(dc) / page_cols >= abs(dr) / page_rows:
        key, far = (pygame.K_RIGHT if dc > 0 else pygame.K_LEFT), abs(dc) > page_cols / 2
    else:
        key, far = (pygame.K_DOWN if dr > 0 else pygame.K_UP), abs(dr) > page_rows / 2
    return Action("key", key=key, mod=pygame.KMOD_CTRL if far else 0, what=f"scroll towards {hex_[0]},{hex_[1]}")


def on_map(window, hex_, what: str) -> Action:
    """A click on ``hex_``, after dragging the map when the hex lies under a form, or centring
    the map on it when it is off the map's view."""
    pos = hex_point(window, hex_)
    if pos is not None:
        return Action("click", pos, what=what)
    return drag_into_view(window, hex_) or centre_on(window, hex_) or scroll_towards(window, hex_)
