"""Errors the kernel raises.  Each names the thing at fault (file, seq, plugin, step)."""

from __future__ import annotations


class WifError(Exception):
    """Base of every error the kernel reports to a player or a script."""


class SaveFileError(WifError):
    """A save file cannot be read: not a save, damaged, or from a newer version."""


class PluginError(WifError):
    """A plugin is missing, malformed, conflicting, or raised while loading."""


class PluginSetMismatch(PluginError):
    """A game's recorded plugin set differs from the plugins installed now."""

    def __init__(self, path, problems: list[str]):
        self.path, self.problems = path, problems
        super().__init__(
            f"{path}: this game was played with other plugins: " + "; ".join(problems)
            + " (open it with read_only=True / --read-only to look at it)"
        )

    def __reduce__(self):  # rebuilt from its own arguments when it crosses a process pool
        return type(self), (self.path, self.problems)


class ReducerError(WifError):
    """A reducer raised while folding an event."""

    def __init__(self, plugin: str, seq: int, event_type: str, cause: BaseException):
        self.plugin, self.seq, self.event_type, self.cause = plugin, seq, event_type, cause
        super().__init__(
            f"plugin {plugin!r}: reducer for {event_type} raised at event seq {seq}: "
            f"{type(cause).__name__}: {cause}"
        )

    def __reduce__(self):
        return type(self), (self.plugin, self.seq, self.event_type, self.cause)


class EventDataError(WifError):
    """A stored or emitted event does not match its registered model, or has no model."""

    def __init__(self, message: str, seq: int | None = None):
        super().__init__(message)
        self.seq = seq  # the stored event at fault, when there is one


class ReadOnlyGame(WifError):
    """The game was opened read-only (plugins changed or replay failed)."""


class Rejected(WifError):
    """A command was refused; the message is the reason shown to the player."""


class GameMovedOn(Rejected):
    """Another process stored events since this game last read its save: the command was
    decided on an old state, so it is refused; refresh and decide again."""
