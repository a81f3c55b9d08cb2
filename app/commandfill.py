"""Filling in one offered command, field by field, as a player does on a form or on the map.

A ``CommandChoice`` (kernel/choices.py) is a tree: each field's options, and under an
option the fields that depend on it (a move's destinations under the unit moved).  A
``CommandFill`` walks that tree in the order a command is built (a field, the fields its
chosen option opens, then the next field) and holds what the player chose so far.  Values are
only ever taken from the offered options, so a complete fill is a command the game accepts.
"""

from __future__ import annotations

import re
from typing import Any

from kernel.choices import CommandChoice, Field, Option

SINGLE = ("unit", "hex", "option", "bool")  # kinds whose value is one of the options


def same(a: Any, b: Any) -> bool:
    """Option values compare as JSON does (a hex may be a tuple or a list).  Asked for every
    option of a field at each lookup (a form's redraw looks up hundreds), so equal values
    answer at once and only sequences of different kinds are compared item by item."""
    if a == b:
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(x == y or same(x, y) for x, y in zip(a, b))
    return False


def title_of(command_type: str) -> str:
    """``DeclareAttack`` -> ``Declare attack``, ``FlyCAP`` -> ``Fly CAP``."""
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z]|$)|[A-Z]?[a-z]+|\d+", command_type) or [command_type]
    return " ".join([words[0]] + [w if w.isupper() and len(w) > 1 else w.lower() for w in words[1:]])


def one_click(choice: CommandChoice, most: int = 12) -> Field | None:
    """The single field of a command decided by one click (one option among a few, nothing
    depending on it: an action, a side, a combat table), else None."""
    if len(choice.fields) != 1:
        return None
    f = choice.fields[0]
    if f.kind not in ("option", "bool"):
        return None
    options = f.all_options()
    if len(options) > most or any(callable(o.then) or o.then for o in options):
        return None
    return f


class CommandFill:
    def __init__(self, choice: CommandChoice):
        self.choice = choice
        self.values: dict[str, Any] = {}
        for f in choice.fields:
            self._default(f)

    @property
    def type(self) -> str:
        return self.choice.type

    @property
    def actor(self) -> str:
        return self.choice.actor

    # ------------------------------------------------------------ the path through the tree
    def walk(self) -> tuple[list[Field], Field | None]:
        """The fields on the chosen path (up to the first one still to fill) and that field
        (None: the command is complete)."""
        path: list[Field] = []

        def visit(fields: list[Field]) -> Field | None:
            for f in fields:
                path.append(f)
                self._default(f)
                if not self.satisfied(f):
                    return f
                option = self.chosen_option(f)
                if option is not None:
                    missing = visit(option.next_fields())
                    if missing is not None:
                        return missing
            return None

        pending = visit(self.choice.fields)
        return path, pending

    def fields(self) -> list[Field]:
        return self.walk()[0]

    def pending(self) -> Field | None:
        return self.walk()[1]

    def complete(self) -> bool:
        return self.pending() is None

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields() if f.name == name), None)

    def _default(self, f: Field) -> None:
        if f.name in self.values:
            return
        if f.kind == "units":
            self.values[f.name] = []
        elif f.kind == "number" and f.min is not None:
            self.values[f.name] = f.min
        elif f.kind == "text":
            self.values[f.name] = ""

    def satisfied(self, f: Field) -> bool:
        value = self.values.get(f.name)
        if f.kind in SINGLE:
            return f.name in self.values and self.option(f, value) is not None
        if f.kind == "units":
            n = len(value or [])
            return (f.min or 0) <= n and (f.max is None or n <= f.max)
        return f.name in self.values

    # ------------------------------------------------------------ options
    @staticmethod
    def option(f: Field, value: Any) -> Option | None:
        return next((o for o in f.all_options() if same(o.value, value)), None)

    def chosen_option(self, f: Field) -> Option | None:
        return self.option(f, self.values[f.name]) if f.kind in SINGLE and f.name in self.values else None

    def label(self, f: Field, value: Any = None) -> str:
        value = self.values.get(f.name) if value is None else value
        if f.kind == "units":
            return ", ".join(self.label(f, v) for v in value or []) or "none"
        option = self.option(f, value) if f.kind in SINGLE + ("units",) else None
        return option.label if option is not None and option.label else _text(value)

    # ------------------------------------------------------------ choosing
    def set(self, name: str, value: Any) -> bool:
        """Choose ``value`` for the field ``name`` on the path; False when it is not offered.
        The fields that depended on the old value are forgotten."""
        f = self.field(name)
        if f is None:
            return False
        if f.kind in SINGLE:
            if self.option(f, value) is None:
                return False
            self._forget_below(f)
        elif f.kind == "units":
            offered = f.all_options()
            if not all(any(same(o.value, v) for o in offered) for v in value):
                return False
        elif f.kind == "number":
            if not (f.min is None or value >= f.min) or not (f.max is None or value <= f.max):
                return False
        self.values[name] = list(value) if f.kind == "units" else value
        return True

    def toggle(self, name: str, values: list) -> bool:
        """Add ``values`` to the ``units`` field ``name`` (or take them out when all are in)."""
        f = self.field(name)
        if f is None or f.kind != "units":
            return False
        current = list(self.values.get(name) or [])
        if all(any(same(v, c) for c in current) for v in values):
            current = [c for c in current if not any(same(v, c) for v in values)]
        else:
            current += [v for v in values if not any(same(v, c) for c in current)]
        if f.max is not None and len(current) > f.max:
            return False
        return self.set(name, current)

    def clear(self, name: str) -> None:
        f = self.field(name)
        if f is not None:
            self._forget_below(f)
        self.values.pop(name, None)

    def _forget_below(self, f: Field) -> None:
        option = self.chosen_option(f)
        if option is None:
            return
        for g in option.next_fields():
            self._forget_below(g)
            self.values.pop(g.name, None)

    def command(self, **extra) -> dict:
        """The command as filled so far (complete when ``complete()``)."""
        out = self.choice.base()
        for f in self.fields():
            if f.name in self.values and (f.kind != "text" or self.values[f.name]):
                value = self.values[f.name]
                out[f.name] = list(value) if isinstance(value, tuple) else value
        out.update(extra)
        return out

    # ------------------------------------------------------------ what the map asks
    def units_chosen(self) -> list:
        out = []
        for f in self.fields():
            if f.kind == "unit" and f.name in self.values:
                out.append(self.values[f.name])
            elif f.kind == "units":
                out += list(self.values.get(f.name) or [])
        return out

    def hexes_chosen(self) -> list[tuple]:
        return [tuple(self.values[f.name]) for f in self.fields() if f.kind == "hex" and f.name in self.values]


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"{value[0]},{value[1]}"
    return "-" if value is None else str(value)
