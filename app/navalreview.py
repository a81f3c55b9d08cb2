"""The Naval Review form (Ctrl+N): the seeds' Naval Review Summary and Naval Review Details side
by side in one window ("Each of the NRD and NRS forms only uses half of the minimum screen
area, so these forms can always be shown side by side").

- Summary (left half): per major power, its naval units by class at sea and in port, how many
  are damaged and how many units are aboard (carrier air units, cargo); then every sea area and
  port holding naval units ("Naval Review Summary": carriers "n:m" with m the carrier air units
  aboard, cruisers, naval transport, subs, and for sea areas the occupied "Sea Boxes"), one row
  each: a click shows it in the details.
- Details (right half): the units of one sea area or port in the seeds' four columns,
  "carriers, battleships, cruisers, and transports + submarines", each ship with what it
  carries to its right, and its section in a sea area; a damaged ship is marked.
- Side filter ("Mine, Allied, Axis" in the seeds: here all sides or one side), First / Previous
  / Next / Last to cycle through the locations ("empty ports/sea areas are skipped"), Map
  (centres the detailed map on the location), Close.

Everything shown is the game's answer to the front-end hooks ``naval_review`` and
``naval_review_details`` (app/uihooks.py; the naval rules' ui.py answers): the form reads no
rule.  A game without naval rules says so instead of opening."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UIImage, UILabel, UIScrollingContainer

from .counters import counter_picture
from .forms import FormWindow, gui_text
from .uihooks import ask_game
from .windowstyle import DIM

SIZE = (1000, 620)
ROW_H = 26
PICTURE = 34
COLUMNS = (("carriers", "Carriers"), ("battleships", "Battleships"), ("cruisers", "Cruisers"),
           ("transports", "TRS + subs"))
ALL_SIDES = "all sides"
ROW_THEME = {"#naval_row": {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "6"}}}


def class_counts(counts: dict) -> str:
    return ", ".join(f"{n} {t.upper()}" for t, n in counts.items()) or "none"


def fit(text: str, width: int) -> str:
    """``text`` cut (with an ellipsis) to about what fits ``width`` pixels of the forms' font."""
    most = max(4, width // 8)
    return text if len(text) <= most else text[:most - 1] + "…"


def power_lines(review: dict) -> list[str]:
    """One line per major power: its ships by class at sea and in port, damaged, aboard."""
    out = []
    for power, p in review["powers"].items():
        out.append(f"{power.title()}: at sea {class_counts(p['at_sea'])}; in port {class_counts(p['in_port'])}; "
                   f"damaged {p['damaged']}; aboard {p['aboard']}")
    return out


def location_line(loc: dict, side: str) -> str:
    """A Naval Review Summary column as one row."""
    parts = []
    for s, t in loc["sides"].items():
        if side != ALL_SIDES and s != side:
            continue
        bits = [f"CV {t['carriers']}:{t['carrier_air']}" if t["carriers"] else "",
                f"BB {t['battleships']}" if t["battleships"] else "",
                f"CA/CL/DD {t['cruisers']}" if t["cruisers"] else "",
                f"TRS {t['transports']}" if t["transports"] else "", f"SUB {t['subs']}" if t["subs"] else "",
                f"convoy {t['convoy_points']}" if t["convoy_points"] else ""]
        parts.append(f"{s}: " + " ".join(b for b in bits if b))
    boxes = f" [sections {', '.join(str(s) for s in loc['sections'])}]" if loc["kind"] == "sea" else ""
    kind = "sea" if loc["kind"] == "sea" else "port"
    return f"{loc['name']} ({kind}){boxes}  " + "; ".join(parts)


class NavalReview:
    def __init__(self, window):
        self.window = window
        self.gui = window.gui
        self.game = window.game
        self.closed = False
        self.side = ALL_SIDES
        self.location: str | None = None  # the location shown in the details ("col,row" or area code)
        self.rows: list[tuple[str, UIButton]] = []
        self.summary_list: UIScrollingContainer | None = None
        self.details_list: UIScrollingContainer | None = None
        self.review = self.ask_review()
        sw, sh = self.gui.size
        w, h = min(SIZE[0], sw), min(SIZE[1], sh)
        self.size = (w, h)
        self.half = w // 2
        self.form = FormWindow(self.gui, pygame.Rect(max(0, (sw - w) // 2), max(0, (sh - h) // 2), w, h),
                               "Naval Review", object_id="#naval_review")
        m = self.gui.manager
        m.get_theme().load_theme(ROW_THEME)
        sides = [ALL_SIDES] + list(self.game.state.kernel.sides)
        self.side_menu = UIDropDownMenu(sides, ALL_SIDES, pygame.Rect(8, 4, 150, 30), m, container=self.form)
        self.gui.on(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, self.side_menu, self.set_side)
        self.form.owned.append(self.side_menu)
        self.powers_label = pygame_gui.elements.UITextBox(
            "<br>".join(gui_text(line) for line in power_lines(self.review)) or "no naval units",
            pygame.Rect(8, 38, self.half - 16, 110), m, container=self.form)
        self.form.owned.append(self.powers_label)
        self.title = UILabel(pygame.Rect(self.half + 4, 4, self.half - 20, 24), "", m, container=self.form)
        self.form.owned.append(self.title)
        for i, (text, go) in enumerate((("First", 0), ("Previous", -1), ("Next", 1), ("Last", None))):
            self.form.button((self.half + 4 + i * 84, 30, 80, 28), text, lambda go=go: self.cycle(go))
        self.form.button((w - 230, h - 72, 100, 30), "Map", self.centre_map)
        self.form.button((w - 122, h - 72, 100, 30), "Close", self.close)
        self.show_summary()
        locations = self.locations()
        if locations:
            self.show(locations[0]["id"])

    # ------------------------------------------------------------ the game's answers
    def ask_review(self) -> dict:
        return ask_game(self.game, "naval_review", state=self.game.state) or {"powers": {}, "locations": []}

    def details(self, location: str) -> dict:
        return ask_game(self.game, "naval_review_details", state=self.game.state, location=location)

    def locations(self) -> list[dict]:
        """The sea areas and ports with units of the side shown (empty ones skipped)."""
        return [loc for loc in self.review["locations"] if self.side == ALL_SIDES or self.side in loc["sides"]]

    # ------------------------------------------------------------ summary
    def set_side(self, text: str) -> None:
        self.side = text
        self.show_summary()
        if self.location is not None:
            self.show(self.location)

    def show_summary(self) -> None:
        for _, button in self.rows:
            self.gui.forget(button)
        if self.summary_list is not None:
            self.summary_list.kill()
        w, h = self.size
        m = self.gui.manager
        locations = self.locations()
        self.summary_list = UIScrollingContainer(pygame.Rect(8, 152, self.half - 16, h - 236), m, container=self.form,
                                                 allow_scroll_x=False)
        inner = self.half - 16 - 22
        self.summary_list.set_scrollable_area_dimensions((inner, max(1, len(locations)) * ROW_H))
        self.rows = []
        for i, loc in enumerate(locations):
            button = UIButton(pygame.Rect(0, i * ROW_H, inner, ROW_H - 2), gui_text(location_line(loc, self.side)), m,
                              container=self.summary_list, object_id="#naval_row",
                              tool_tip_text=gui_text(location_line(loc, self.side)))
            self.gui.on(pygame_gui.UI_BUTTON_PRESSED, button, lambda key=loc["id"]: self.show(key))
            self.rows.append((loc["id"], button))
        self.form.owned.append(self.summary_list)

    # ------------------------------------------------------------ details
    def show(self, location: str) -> dict:
        """Show one sea area ("CO") or port ("col,row") in the details half; its answer."""
        found = self.details(location)
        self.location = found["id"]
        if self.details_list is not None:
            self.details_list.kill()
        w, h = self.size
        m = self.gui.manager
        self.title.set_text(gui_text(f"{found['name']} ({'sea area' if found['kind'] == 'sea' else 'port'})"))
        self.details_list = UIScrollingContainer(pygame.Rect(self.half + 4, 62, self.half - 12, h - 146), m,
                                                 container=self.form, allow_scroll_x=False)
        col_w = (self.half - 12 - 22) // len(COLUMNS)
        units = self.game.state["units"].units if "units" in self.game.state.sections else {}
        tallest = 1
        for c, (key, heading) in enumerate(COLUMNS):
            UILabel(pygame.Rect(c * col_w, 0, col_w, 20), heading, m, container=self.details_list)
            y = 22
            for row in found["columns"][key]:
                shown = [uid for uid in row if self.side == ALL_SIDES or found["units"][uid]["side"] == self.side]
                if not shown or shown[0] != row[0]:
                    continue
                for k, uid in enumerate(shown[:3]):
                    unit = units.get(uid)
                    if unit is not None:
                        UIImage(pygame.Rect(c * col_w + k * (PICTURE + 2), y, PICTURE, PICTURE),
                                counter_picture(unit, PICTURE), m, container=self.details_list)
                info = found["units"][row[0]]
                where = f" s{info['section']}" if info["section"] is not None else ""
                text = f"{info['name']}{where}{' DAMAGED' if info['damaged'] else ''}"
                UILabel(pygame.Rect(c * col_w, y + PICTURE, col_w, 20), gui_text(fit(text, col_w)), m,
                        container=self.details_list)
                y += PICTURE + 22
            tallest = max(tallest, y)
        self.details_list.set_scrollable_area_dimensions((self.half - 12 - 22, tallest))
        self.form.owned.append(self.details_list)
        self.shown = found
        return found

    def cycle(self, go: int | None) -> str | None:
        """First (0), Previous (-1), Next (1), Last (None) among the locations listed."""
        keys = [loc["id"] for loc in self.locations()]
        if not keys:
            return None
        if go == 0 or self.location not in keys:
            key = keys[0] if go != -1 and go is not None else keys[-1]
        elif go is None:
            key = keys[-1]
        else:
            key = keys[(keys.index(self.location) + go) % len(keys)]
        self.show(key)
        return key

    def centre_map(self) -> None:
        if self.location is None or self.window.primary is None:
            return
        hex_ = tuple(self.shown["hex"])
        self.window.primary.center_on(hex_)
        self.window.say(f"Naval Review: {self.shown['name']} at {hex_[0]},{hex_[1]}", DIM)

    def close(self) -> None:
        if not self.closed:
            for _, button in self.rows:
                self.gui.forget(button)
            self.gui.close(self.form)
            self.closed = True
