"""What a player may do now: ``Game.choices``, ``Game.preview`` and ``Game.dry_run``.

A mixin of ``Game`` (kernel/game.py), kept apart so the game's store and submit path stay
short; the choices tree itself is kernel/choices.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import pbem_dice, plugins as plugin_mod
from .choices import Choices, CommandChoice, Decision, prune, schema_fields
from .engine import Context, validate_command
from .errors import Rejected, WifError
from .events import EventRecord
from .state import GameState

SOLO = "solo"  # the player who controls every power unless the game says otherwise


@dataclass
class Outcome:
    """The answer to a submitted command."""

    accepted: bool
    events: list[EventRecord] = field(default_factory=list)
    reason: str = ""

    def as_dict(self) -> dict:
        if self.accepted:
            return {"accepted": True, "events": [e.as_dict() for e in self.events]}
        return {"accepted": False, "reason": self.reason}


class Decisions:
    # ------------------------------------------------------------ what a player may do
    def players(self) -> list[str]:
        """The players of this game (the names ``--as`` accepts)."""
        return sorted(set(self.state.kernel.controllers.values()))

    def choices(self, player: str | None = None) -> Choices:
        """For every decision pending now that ``player`` answers for (all of them when
        None), the commands its decider may submit and each field's legal values.

        A player who decides nothing now gets an empty answer; an unknown player an error."""
        k = self.state.kernel
        if player is not None and player not in self.players():
            raise WifError(f"{player!r} is not a player of this game (players: {', '.join(self.players()) or 'none'})")
        seq = k.sequence
        out = Choices(player, finished=seq.finished)
        spec = self.sequence_index.specs.get(seq.current) if (self.sequence_index and seq.current) else None
        waits = pbem_dice.waiting_note(self) if self.identity.dice == pbem_dice.JOINT else None
        if waits:  # a PBEM roll declared at the head: nothing is decided before it is rolled
            out.waiting = waits
            return out
        if seq.finished or not seq.waiting or spec is None or self.replay_error is not None:
            if k.lab and self.replay_error is None and seq.current:
                self._anytime_choices(out, player, seq.current)  # a lab game may be rigged anywhere
            return out
        for who in seq.pending:
            powers = k.sides[who] if who in k.sides else [who]
            mine = [p for p in powers if player is None or k.controllers.get(p) == player]
            if not mine:
                continue
            decision = Decision(who, seq.current, spec.title)
            for name in spec.commands:
                if name == "FinishStep" or name not in self.host.commands:
                    continue
                for power in mine:
                    choice = self._command_choice(name, power, seq.current)
                    if choice is not None:
                        decision.commands.append(choice)
                        if choice.source == "schema" and name not in out.schema_only:
                            out.schema_only.append(name)
            refusal = self.host.pm.hook.finish_step_refusal(state=self.state, step_id=seq.current, power=mine[0])
            if not refusal:
                decision.commands.append(CommandChoice("FinishStep", mine[0], plugin="kernel"))
            out.decisions.append(decision)
        self._anytime_choices(out, player, seq.current)
        return out

    def _anytime_choices(self, out: Choices, player: str | None, step: str) -> None:
        """Commands a power may submit whether or not the step waits for it (a demand for
        an initiative re-roll, an optional rule switched in play): offered as decisions that
        do not hold the game up (``pending`` False), and only where a choices function
        says they are legal now."""
        k = self.state.kernel
        spec = self.sequence_index.specs.get(step)
        for name, command in self.host.commands.items():
            entry = self.host.choices.get(name)
            if not command.anytime or name == "FinishStep" or entry is None or entry.choices is None:
                continue
            for power in k.powers():
                if player is not None and k.controllers.get(power) != player:
                    continue
                if any(c.type == name and c.actor == power for c in out.commands()):
                    continue
                choice = self._command_choice(name, power, step)
                if choice is None:
                    continue
                found = next((d for d in out.decisions if d.decider == power and not d.pending), None)
                if found is None:
                    found = Decision(power, step, spec.title if spec else step, pending=False)
                    out.decisions.append(found)
                found.commands.append(choice)

    def _command_choice(self, name: str, actor: str, step: str) -> CommandChoice | None:
        entry = self.host.choices.get(name)
        command = self.host.commands[name]
        if entry is None or entry.choices is None:
            return CommandChoice(name, actor, schema_fields(command.model), source="schema", plugin=command.plugin)
        try:
            fields = entry.choices(self.state, actor, step, **_extra(entry.choices, self.host))
            if fields is None:
                return None
            fields = prune(list(fields))
        except (Rejected, WifError):
            raise
        except Exception as exc:
            raise WifError(f"plugin {entry.plugin!r}: choices for {name} raised {plugin_mod._where(exc)}") from exc
        if fields is None:
            return None
        return CommandChoice(name, actor, fields, plugin=entry.plugin)

    def preview(self, command: dict[str, Any], player: str | None = SOLO) -> dict:
        """What ``command`` would do, without doing it: ``{"legal": True, ...}`` with what the
        command's plugin tells (path and cost, odds and table, activities), or ``{"legal":
        False, "reason": ...}`` with the reason a submit would give."""
        try:
            entry, cmd = validate_command(self.host, command)
            self._check_allowed(entry, cmd, player)
            found = self.host.choices.get(type(cmd).__name__)
            if found is None or found.preview is None:
                return {"legal": True}
            try:
                told = found.preview(self.state, cmd, **_extra(found.preview, self.host)) or {}
            except (Rejected, WifError):
                raise
            except Exception as exc:
                raise WifError(f"plugin {found.plugin!r}: preview of {type(cmd).__name__} raised "
                               f"{plugin_mod._where(exc)}") from exc
        except Rejected as exc:
            return {"legal": False, "reason": str(exc)}
        return {"legal": True, **told}

    def dry_run(self, command: dict[str, Any], player: str | None = SOLO) -> Outcome:
        """Decide ``command`` as ``submit`` would, then put everything back: nothing is stored
        and the state is as before.  For tests of the choices contract and for bots that look
        ahead (the dice it rolls are not the dice a real submit would roll)."""
        if self.read_only:
            return Outcome(False, reason=f"{self.path} is open read-only: " + "; ".join(self.problems))
        # Decide on a copy: the state object callers hold (and lazily built choices read)
        # is never touched.
        original, last_hash = self.state, self._last_hash
        self.state = GameState.from_json(original.to_snapshot_json(), self.host.state_models)  # dict order kept
        try:
            entry, cmd = validate_command(self.host, command)
            self._check_allowed(entry, cmd, player)
            ctx = Context(self, actor=cmd.actor, dry_run=True)  # its own dice, never the game's
            try:
                entry.handler(ctx, cmd)
            except (Rejected, WifError):
                raise
            except Exception as exc:
                raise WifError(f"plugin {entry.plugin!r}: handler for {type(cmd).__name__} raised "
                               f"{plugin_mod._where(exc)}") from exc
            return Outcome(True, ctx.records)
        except (Rejected, WifError) as exc:
            return Outcome(False, reason=str(exc))
        finally:
            self.state = original
            self._last_hash = last_hash



def _extra(fn, host) -> dict:
    """A choices or preview function that names a ``host`` parameter gets the plugin host
    (to ask hooks, e.g. optional rules' modifiers); the rest get the state alone."""
    cached = getattr(fn, "_wif_wants_host", None)
    if cached is None:
        import inspect

        try:
            cached = "host" in inspect.signature(fn).parameters
        except (TypeError, ValueError):
            cached = False
        try:
            fn._wif_wants_host = cached
        except AttributeError:
            pass
    return {"host": host} if cached else {}
