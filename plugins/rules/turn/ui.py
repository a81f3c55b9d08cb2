"""What the window asks the turn rules (the front end's hook ``activities_left``, specified in
app/uihooks.py; optional here, so a game without a window does not need it): seeds, "Activity
Limits (see RAC 10.2)": "The table tells you what activities, and how many of each, you have
remaining" — shown while the power acts, from the same ``remaining`` the limits are checked
against."""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.rules import core

from .activities import ACTION_NAMES, KIND_NAMES, remaining

__all__ = ["activities_left"]


@hookimpl(optionalhook=True)
def activities_left(state, power):
    action = core.action_of(state, power) if power in state.kernel.powers() else None
    if action is None:
        return None
    return {"action": ACTION_NAMES.get(action, action),
            "left": {KIND_NAMES[kind]: n for kind, n in remaining(state, power).items()}}
