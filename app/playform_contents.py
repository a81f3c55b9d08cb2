"""What the Play form shows (split from app/playforms.py): the "Sequence of Play" header with
the flag of the deciding power, the activities left (seeds, "Activity Limits"), every offered
command (``app.fieldforms``), the end-of-phase button, the status and the log; in hot seat the
question who is at the screen.  A mixin of ``PlayForms``: the state it reads (the command
being filled in, the status, the log) and what a click does live there."""

from __future__ import annotations

import pygame

from . import mapstyle
from .commandfill import one_click, title_of
from .fieldforms import FieldWidgets, fillable
from .forms import FormBody, FormWindow, gui_text
from .setuptray import TRAY_COMMANDS
from .uihooks import ask_game
from .wording import game_time, in_words, power_name

FINISH = "End phase (finish this step)"


def flag_surface(power: str, size=(36, 24)) -> pygame.Surface:
    """The deciding power's flag (drawn by app/flags.py, shared with the map's forms)."""
    return mapstyle.flag_surface(power, size)


class PlayFormContents:
    """The Play form's widgets, built from the game's choices and previews."""

    def build_play_form(self) -> None:
        if self.form is None:
            self.form = FormWindow(self.gui, self.form_rect("play"), "Play", object_id="#play_form")
        if self.body is not None and self.body.fits():
            self.body.clear()
        else:
            scroll = self.body.scroll() if self.body is not None and self.body.area.alive() else 0.0
            self.form.clear()
            self.body = FormBody(self.form, scroll)
        form = self.body
        k = self.game.state.kernel
        width = min(self.WIDTH - 40, form.width - 8)
        y = self._build_play_form(form, k, width)
        # the scrolling area shrinks only for a new step, actor or command: resizing it rebuilds its
        # scroll bar (~4 ms), and within a step the form alternates between the units left (after a
        # move) and a chosen unit's destinations; the view never shows the kept room (finish)
        same_step = self._finished_at is not None and self._position is not None \
            and self._position[1:] == self._finished_at[1:] and not self._top_again
        form.finish(y + 4, shrink=not same_step)
        self._finished_at = self._position
        if self._top_again and form.area.vert_scroll_bar is not None:  # a new position: read from the top
            form.area.vert_scroll_bar.set_scroll_from_start_percentage(0.0)
        self._top_again = False
        form.keep_whole(self.essential_buttons())  # issue 11 item 9: never a sliver of them at the edge

    def essential_buttons(self) -> list:
        """The buttons a player needs next: the filled-in command's own button once it is
        complete, then End phase."""
        owned = self.form.owned if self.form is not None else []
        ready = self.fill.command() if self.fill is not None and self.fill.complete() else None
        submit = [b for b in owned if ready is not None and getattr(b, "command", None) == ready]
        return submit + [b for b in owned if getattr(b, "finishes", False)]

    def _build_play_form(self, form, k, width: int) -> int:
        y = 4
        actor = self.actor()
        if actor:
            form.picture((4, y, 36, 24), flag_surface(actor), ("flag", actor))
        form.label((44, y, width - 44, 24), f"{game_time(k)}  {power_name(actor) or '-'}")
        y += 26
        header = form.text_box(self.sequence_text(), (4, y, width, -1))
        y += header.rect.height + 2
        if k.sequence.finished:
            form.label((4, y, width, 24), "The game is over.")
            return y + 26
        if self.hidden() and getattr(self.game, "remote", False):  # a server game (app/netplay.py)
            box = form.text_box(gui_text(self.game.waiting_text()), (4, y, width, -1))  # app/net/remote.py
            box.status_text = self.game.waiting_text()
            return y + box.rect.height + 2
        if self.hidden():
            player = self.decisions.deciding_player()
            form.label((4, y, width, 24), f"Pass the screen to {player}.")
            form.button((4, y + 28, width, 32), f"I am {player}: show my decisions",
                        lambda: self.take_screen(player)).takes_screen = player
            return y + 62
        y = self.build_decisions(form, y, width)
        if self.decisions.decision() is not None:
            button = form.button((4, y, width, 32), FINISH, self.finish_step, tip=self.finish_refusal())
            button.finishes = True
            if self.decisions.finish() is None:
                button.disable()  # a mandatory decision is left: the tip says which
            y += 36
        if self.status[0]:
            # plates (app/textplate.py): these change with every move; as tall as their text, the
            # form scrolls when they need more room
            box = form.plate(gui_text(self.status[0]), (4, y, width, -1))
            box.status_text = self.status[0]
            y += max(64, box.rect.height) + 2
        if self.log:
            box = form.plate("<br>".join(self.log[-6:]), (4, y, width, -1))
            y += max(120, box.rect.height) + 4
        return y

    def build_decisions(self, form: FormWindow, y: int, width: int) -> int:
        widgets = FieldWidgets(form, width, self.submit, self.fill_changed)
        widgets.words = self.worded
        widgets.show_on_map = self.map.show
        self._hover_box = None
        y = self.build_activities(form, y, width)
        fillable_here = []
        tray = self.tray.active()
        if tray:
            form.label((4, y, width, 22), "Setup Tray: pick units, click a hex")
            y += 24
        anytime = self.decisions.anytime()
        for choice in self.decisions.commands() + anytime:
            if choice.type == "FinishStep" or (tray and choice.type in TRAY_COMMANDS):
                continue
            if anytime and choice is anytime[0]:
                y = widgets.title("At any time:", y)
            if not fillable(choice):
                y = widgets.not_fillable(choice, y)
            elif not choice.fields:
                y = widgets.plain(choice, y)
            elif one_click(choice) is not None:
                y = widgets.one_click(choice, y)
            else:
                fillable_here.append(choice)
        if len(fillable_here) > 1:  # which command the map and the fields below fill in
            for choice in fillable_here:
                active = self.fill is not None and self.fill.choice is choice
                label = f"{title_of(choice.type)} ({choice.actor})" if len({c.actor for c in fillable_here}) > 1 \
                    else title_of(choice.type)
                button = form.button((4, y, width, 28), ("> " if active else "") + label,
                                     lambda c=choice: self.fill_in(c))
                button.fills = (choice.type, choice.actor)
                if active:
                    button.disable()
                y += 30
        if self.fill is not None and self.fill.choice in fillable_here:
            hovered = self.map.hover_hex if not self.fill.complete() else None
            y = widgets.fill(self.fill, self.preview(), y, hovered)
            self._hover_box = widgets.hover_box
        return y

    def worded(self, label: str) -> str:
        """``in_words`` of a rule's label, remembered: a click rebuilds the form with the same
        labels (a unit's destinations, the units left), each put into words by a dozen
        patterns.  In words a label changes only with the units there are (a unit's id dropped)."""
        units = self.game.state["units"].units if "units" in self.game.state.sections else {}
        cache = self.__dict__.get("_worded")
        if cache is None or cache[0] != len(units) or len(cache[1]) > 4000:
            cache = self._worded = (len(units), {})
        shown = cache[1].get(label)
        if shown is None:
            shown = cache[1][label] = in_words(self.game, label)
        return shown

    def build_activities(self, form, y: int, width: int) -> int:
        """Seeds, "Activity Limits": what the deciding power may still do this impulse (from
        the rules, through the front-end hook ``activities_left``)."""
        actor = self.actor()
        left = ask_game(self.game, "activities_left", state=self.game.state, power=actor) if actor else None
        if not left or not left.get("action"):
            return y
        text = ", ".join(f"{kind} {'any' if n is None else n}" for kind, n in left["left"].items() if n != 0) \
            or "nothing"
        # as tall as its text (height -1): every activity left stays readable while acting
        box = form.plate(f"action <b>{left['action']}</b>; left: {text}", (4, y, width, -1))
        return y + box.rect.height + 2

    def sequence_text(self) -> str:
        """Seeds, "Sequence of Play": stage > phase > step of the current step."""
        current = self.game.state.kernel.sequence.current
        index = self.game.sequence_index
        if not current or index is None:
            return "-"
        parts = current.split(".")
        titles = []
        for n in range(2, len(parts) + 1):
            spec = index.specs.get(".".join(parts[:n]))
            titles.append(spec.title if spec is not None and spec.title else parts[n - 1])
        return " &gt; ".join(titles[:-1]) + (" &gt; " if len(titles) > 1 else "") + f"<b>{titles[-1]}</b>"
