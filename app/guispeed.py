"""pygame_gui 0.6 shortcuts that change no picture and no behaviour, only the work done for
them (issue 11: a click on the map must be drawn within 50 ms, and most of a click's window
time was pygame_gui's own bookkeeping).  Installed once, by ``forms.Gui`` when it makes its
manager (``install``).

- A scroll bar asked about an event first asks whether the mouse is over anything in the
  container it scrolls (a walk over every widget in it, for every event: ~3 ms a click on
  the Play form with its scrolling lists), then whether the event is a wheel turn, the only
  event it reacts to.  Here the cheap question comes first.
- A button given a new text (``set_text``: a unit's destinations, a list's rows given new
  units) or built anew draws its text on all five of its looks at once (normal, hovered,
  selected, active and, since the button has a disabled look, that one too): one now, the
  others one a frame after.  Most are never shown before the next new text.  Here only the
  look on screen is drawn; pygame_gui already draws a look it has not drawn when the button
  takes it (``DrawableShape.set_active_state``).  Only for shapes with a hovered look
  (buttons and list rows), which show their looks only through ``set_active_state``; a
  text entry line, which reads its disabled look directly, keeps pygame_gui's way.
"""

from __future__ import annotations

from collections import deque

import pygame


def install() -> None:
    _scroll_bars_ask_wheel_first()
    _looks_drawn_when_shown()


def _scroll_bars_ask_wheel_first() -> None:
    from pygame_gui.elements import UIHorizontalScrollBar, UIVerticalScrollBar

    for cls in (UIVerticalScrollBar, UIHorizontalScrollBar):
        slow = cls.process_event
        if getattr(slow, "quick", False):
            continue

        def process_event(self, event, slow=slow) -> bool:
            if event.type != pygame.MOUSEWHEEL:
                return False  # what pygame_gui answers for any other event, after its hover walk
            return slow(self, event)

        process_event.quick = True
        cls.process_event = process_event


def _looks_drawn_when_shown() -> None:
    from pygame_gui.core.drawable_shapes.rect_drawable_shape import RectDrawableShape

    every = RectDrawableShape.redraw_all_states
    if getattr(every, "quick", False):
        return

    def redraw_all_states(self, force_full_redraw: bool = False) -> None:
        if "hovered" not in self.states or self.active_state is None:
            every(self, force_full_redraw)
            return
        self.states_to_redraw_queue = deque()
        for state in self.states.values():
            state.generated = False  # drawn by set_active_state when the button takes that look
        self.redraw_state(self.active_state.state_id)

    redraw_all_states.quick = True
    RectDrawableShape.redraw_all_states = redraw_all_states
