"""What the player at the window may decide now: ``Game.choices`` and ``Game.preview``, read
once per position of the game.

The forms are built from this and from nothing else: which commands to offer, each field's
legal values (units, hexes, options), and what a command would do (a move's path and cost, an
attack's odds).  ``position`` changes with every event and every step, so a form rebuilt
when it changes always shows the current step's commands (a Rail Movement form never
outlives its step)."""

from __future__ import annotations

from kernel.choices import Choices, CommandChoice, Decision
from kernel.decisions import Outcome

PREVIEWS_KEPT = 512  # previews of hovered hexes, per position
OWN_FORMS = ("ToggleOptionalRule",)  # any-time commands with a form of their own (Ctrl+O)


def player_of(game, power: str | None) -> str | None:
    """The player who answers for ``power`` (a power, or a side: its first power's player)."""
    k = game.state.kernel
    if power in k.sides:
        power = k.sides[power][0] if k.sides[power] else None
    return k.controllers.get(power) if power else None


class Decisions:
    def __init__(self, game):
        self.game = game
        self._position = None
        self._choices: Choices | None = None
        self._previews: dict[str, dict] = {}

    # ------------------------------------------------------------ where the game is
    def position(self, player: str | None = None) -> tuple:
        k = self.game.state.kernel
        return (k.seq, k.sequence.current, tuple(k.sequence.pending), player)

    def player_of(self, power: str | None) -> str | None:
        """The player who answers for ``power`` (a power or a side)."""
        return player_of(self.game, power)

    def acting_power(self) -> str | None:
        return self.game.state.kernel.acting_power()

    def deciding_player(self) -> str | None:
        """The player the game waits for first (his decisions are the ones shown)."""
        return self.player_of(self.acting_power())

    # ------------------------------------------------------------ what may be decided
    def choices(self) -> Choices:
        player = self.deciding_player()
        position = self.position(player)
        if position != self._position or self._choices is None:
            self._position = position
            self._previews = {}
            k = self.game.state.kernel
            if player is None or k.sequence.finished:
                self._choices = Choices(player, finished=k.sequence.finished)
            else:
                self._choices = self.game.choices(player)
        return self._choices

    def decision(self) -> Decision | None:
        """The decision the game waits for first, of the deciding player."""
        return next((d for d in self.choices().decisions if d.pending), None)

    def commands(self) -> list[CommandChoice]:
        decision = self.decision()
        return list(decision.commands) if decision is not None else []

    def anytime(self) -> list[CommandChoice]:
        """Commands the deciding player may also submit now, though the game does not wait for
        them (a demand for an initiative re-roll), but for those with a form of their own."""
        return [c for d in self.choices().decisions if not d.pending for c in d.commands if c.type not in OWN_FORMS]

    def offered(self, *types: str) -> list[CommandChoice]:
        """The commands of the awaited decision, then the any-time ones (of ``types``, if given)."""
        return [c for c in self.commands() + self.anytime() if not types or c.type in types]

    def finish(self) -> CommandChoice | None:
        """FinishStep, when the game offers it (no mandatory decision is left)."""
        return next(iter(self.offered("FinishStep")), None)

    def decider(self) -> str | None:
        """The power that answers for the shown decision (FinishStep's actor)."""
        decision = self.decision()
        if decision is None:
            return self.acting_power()
        k = self.game.state.kernel
        return k.sides[decision.decider][0] if decision.decider in k.sides and k.sides[decision.decider] \
            else decision.decider

    # ------------------------------------------------------------ what a command would do
    def preview(self, command: dict) -> dict:
        """``Game.preview`` of ``command`` as the player of its actor, kept for this position."""
        self.choices()  # forget the previews of an earlier position
        key = repr(sorted(command.items()))
        found = self._previews.get(key)
        if found is None:
            found = self.game.preview(command, player=self.player_of(command.get("actor")))
            if len(self._previews) >= PREVIEWS_KEPT:
                self._previews.pop(next(iter(self._previews)))
            self._previews[key] = found
        return found

    def submit(self, command: dict, player: str | None = None):
        """Submit as ``player`` (hot seat: the player at the screen), else as the player who
        controls the command's actor; never as nobody (the kernel checks a named player's
        control, and would skip the check for None)."""
        player = player or self.player_of(command.get("actor"))
        if player is None:
            return Outcome(False, reason=f"no player controls {command.get('actor')!r}: nobody may decide for it here")
        return self.game.submit(command, player=player)
