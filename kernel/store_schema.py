"""The save file's tables, their numbered migrations, and the coded layout of schema 3.

Schema 3 (migration m003) stores the log coded, to keep a signed game small on disk:

- ``names`` (id -> text) holds every event type, actor, step id and player name once;
- ``event_log`` is the events table with those columns as name ids and ``cmd`` as the
  distance back to the command's first event (0 for most events: no bytes on disk);
- ``command_log`` is the signed commands table with its player as a name id, ``last_seq``
  as the count of further events, and the command's ``type`` and ``actor`` taken out of
  its JSON into name ids.  ``EventStore.commands`` puts them back: the command's canonical
  JSON is rebuilt byte for byte (checked when it is written, else it is stored whole), so
  the signature and the chain still cover exactly what the player signed.

``events`` stays, as a view giving the old columns in their old order, so SQL readers (the
replay history, ``wif`` tools, a cheater's sqlite shell) see what they always saw; its
INSTEAD OF triggers write through to ``event_log``, whose own append-only triggers keep
their old names (``events_no_update`` …) and refuse as before.  Old saves are migrated
when opened writable; opened read-only they are read in their own layout (EventStore).
"""

from __future__ import annotations

import json
import json.scanner
import time
from typing import Callable

import sqlite_utils

from .events import canonical_json

MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = []


def migration(step: Callable[[sqlite_utils.Database], None]) -> Callable[[sqlite_utils.Database], None]:
    """Numbered, applied in order, each recorded in _migrations."""
    MIGRATIONS.append(step)
    return step


@migration
def m001_initial(db: sqlite_utils.Database) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key", if_not_exists=True)
    db.execute(
        """CREATE TABLE IF NOT EXISTS events (
            seq INTEGER PRIMARY KEY, type TEXT NOT NULL, v INTEGER NOT NULL, actor TEXT NOT NULL,
            turn INTEGER NOT NULL, impulse INTEGER NOT NULL, step TEXT NOT NULL, cmd INTEGER NOT NULL,
            data TEXT NOT NULL, hash BLOB NOT NULL
        )"""
    )
    db["snapshots"].create(
        {"seq": int, "plugins_hash": str, "state": bytes},
        pk=("seq", "plugins_hash"),
        if_not_exists=True,
    )
    _append_only(db, "events", "events", "seq")


@migration
def m002_signed_commands(db: sqlite_utils.Database) -> None:
    """Every command with its player's signature (docs/FAIRPLAY.md); signed snapshots."""
    db.execute(
        """CREATE TABLE IF NOT EXISTS commands (
            first_seq INTEGER PRIMARY KEY, last_seq INTEGER NOT NULL, player TEXT NOT NULL,
            command TEXT NOT NULL, signature BLOB NOT NULL
        )"""
    )
    _append_only(db, "commands", "commands")
    columns = {r[1] for r in db.execute("PRAGMA table_info(snapshots)")}
    if "player" not in columns:
        db.execute("ALTER TABLE snapshots ADD COLUMN player TEXT")
        db.execute("ALTER TABLE snapshots ADD COLUMN signature BLOB")


@migration
def m003_coded_log(db: sqlite_utils.Database) -> None:
    """The coded layout (this module's docstring); a schema-2 save's rows are carried over
    unchanged in meaning (the chain hashes are over the text, which decodes the same)."""
    db.execute("CREATE TABLE IF NOT EXISTS names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
    db.execute(
        """CREATE TABLE event_log (
            seq INTEGER PRIMARY KEY, type INTEGER NOT NULL, v INTEGER NOT NULL, actor INTEGER NOT NULL,
            turn INTEGER NOT NULL, impulse INTEGER NOT NULL, step INTEGER NOT NULL,
            cmd_back INTEGER NOT NULL, data TEXT NOT NULL, hash BLOB NOT NULL
        )"""
    )
    db.execute(
        """CREATE TABLE command_log (
            first_seq INTEGER PRIMARY KEY, more INTEGER NOT NULL, player INTEGER NOT NULL,
            type INTEGER, actor INTEGER, command TEXT NOT NULL, signature BLOB NOT NULL
        )"""
    )
    db.execute("INSERT OR IGNORE INTO names (name) SELECT type FROM events UNION SELECT actor FROM events "
               "UNION SELECT step FROM events")
    db.execute("INSERT INTO event_log SELECT e.seq, t.id, e.v, a.id, e.turn, e.impulse, s.id, e.seq - e.cmd, "
               "e.data, e.hash FROM events e JOIN names t ON t.name = e.type JOIN names a ON a.name = e.actor "
               "JOIN names s ON s.name = e.step ORDER BY e.seq")
    codes = NameCodes(db.conn)
    rows = db.execute("SELECT first_seq, last_seq, player, command, signature FROM commands ORDER BY first_seq")
    db.conn.executemany("INSERT INTO command_log VALUES (?,?,?,?,?,?,?)",
                        [coded_command(codes, row, []) for row in rows.fetchall()])
    db.execute("DROP TABLE events")  # its triggers go with it
    db.execute("DROP TABLE commands")
    _append_only(db, "event_log", "events", "seq")
    _append_only(db, "command_log", "commands")
    db.execute(
        "CREATE VIEW events AS SELECT e.seq AS seq, t.name AS type, e.v AS v, a.name AS actor, e.turn AS turn, "
        "e.impulse AS impulse, s.name AS step, e.seq - e.cmd_back AS cmd, e.data AS data, e.hash AS hash "
        "FROM event_log e JOIN names t ON t.id = e.type JOIN names a ON a.id = e.actor JOIN names s ON s.id = e.step"
    )
    ids = "(SELECT id FROM names WHERE name = NEW.{0})"
    names = "INSERT OR IGNORE INTO names (name) VALUES (NEW.type); INSERT OR IGNORE INTO names (name) " \
            "VALUES (NEW.actor); INSERT OR IGNORE INTO names (name) VALUES (NEW.step);"
    values = f"{ids.format('type')}, NEW.v, {ids.format('actor')}, NEW.turn, NEW.impulse, {ids.format('step')}, " \
             "NEW.seq - NEW.cmd, NEW.data, NEW.hash"
    db.execute(f"CREATE TRIGGER events_write_through_insert INSTEAD OF INSERT ON events BEGIN {names} "
               f"INSERT INTO event_log VALUES (NEW.seq, {values}); END")
    db.execute(f"CREATE TRIGGER events_write_through_update INSTEAD OF UPDATE ON events BEGIN {names} "
               f"UPDATE event_log SET (seq, type, v, actor, turn, impulse, step, cmd_back, data, hash) = "
               f"(NEW.seq, {values}) WHERE seq = OLD.seq; END")
    db.execute("CREATE TRIGGER events_write_through_delete INSTEAD OF DELETE ON events BEGIN "
               "DELETE FROM event_log WHERE seq = OLD.seq; END")


def _append_only(db: sqlite_utils.Database, table: str, word: str, gapless: str | None = None) -> None:
    """Triggers refusing UPDATE and DELETE (and, for events, an INSERT that leaves a gap);
    named after what they guard (``events_no_update`` …) whatever the table's layout."""
    for verb in ("UPDATE", "DELETE"):
        db.execute(f"CREATE TRIGGER IF NOT EXISTS {word}_no_{verb.lower()} BEFORE {verb} ON {table} "
                   f"BEGIN SELECT RAISE(ABORT, '{word} are append-only: {verb} refused'); END")
    if gapless:
        db.execute(f"CREATE TRIGGER IF NOT EXISTS {word}_no_gap BEFORE INSERT ON {table} "
                   f"WHEN NEW.{gapless} != (SELECT COALESCE(MAX({gapless}), 0) + 1 FROM {table}) "
                   f"BEGIN SELECT RAISE(ABORT, '{word} must be appended with the next seq'); END")


def migrate(db: sqlite_utils.Database) -> None:
    db["_migrations"].create({"name": str, "applied_at": float}, pk="name", if_not_exists=True)
    applied = {row["name"] for row in db["_migrations"].rows}
    for step in MIGRATIONS:
        if step.__name__ not in applied:
            step(db)
            db["_migrations"].insert({"name": step.__name__, "applied_at": time.time()})


# ---------------------------------------------------------------- the names table
class NameCodes:
    """The ``names`` table in memory: text <-> id.  Ids are never reused or changed, so a
    cached one stays right; an id another process added is read on first sight."""

    def __init__(self, conn):
        self.conn = conn
        self.names: list[str | None] = [None]
        self.ids: dict[str, int] = {}
        self.reload()

    def reload(self) -> None:
        for id_, name in self.conn.execute("SELECT id, name FROM names WHERE id >= ? ORDER BY id", (len(self.names),)):
            self.names.extend([None] * (id_ - len(self.names) + 1))
            self.names[id_] = name
            self.ids[name] = id_

    def name(self, id_: int) -> str:
        if id_ >= len(self.names) or self.names[id_] is None:
            self.reload()
        return self.names[id_]

    def id(self, name: str, added: list[str]) -> int:
        """The id of ``name``, adding it inside the caller's transaction; ``added`` collects
        the new ones, forgotten again if that transaction rolls back (``forget``)."""
        found = self.ids.get(name)
        if found is None:
            self.conn.execute("INSERT OR IGNORE INTO names (name) VALUES (?)", (name,))
            found = self.conn.execute("SELECT id FROM names WHERE name = ?", (name,)).fetchone()[0]
            self.ids[name] = found
            self.names.extend([None] * (found - len(self.names) + 1))
            self.names[found] = name
            added.append(name)
        return found

    def forget(self, added: list[str]) -> None:
        for name in added:
            id_ = self.ids.pop(name, None)
            if id_ is not None and id_ < len(self.names):
                self.names[id_] = None


def coded_command(codes: NameCodes, row: tuple, added: list[str]) -> tuple:
    """(first_seq, last_seq, player, command_json, signature) -> a ``command_log`` row.  The
    command's type and actor leave its JSON only if the JSON comes back byte for byte."""
    first, last, player, command_json, signature = row
    type_id = actor_id = None
    stored = command_json
    try:
        command = json.loads(command_json)
    except (TypeError, ValueError, RecursionError):
        command = None
    if isinstance(command, dict):
        type_, actor = command.pop("type", None), command.pop("actor", None)
        if isinstance(type_, str) and isinstance(actor, str) and command_text(type_, actor, canonical_json(command)) == command_json:
            stored = canonical_json(command)
            type_id, actor_id = codes.id(type_, added), codes.id(actor, added)
    return (first, last - first, codes.id(player, added), type_id, actor_id, stored, signature)


def command_text(type_: str | None, actor: str | None, stored: str) -> str:
    """A stored command's canonical JSON, its type and actor put back (ValueError: the
    stored rest is not a JSON object)."""
    if type_ is None:
        return stored
    try:
        command, end = _scan_json(stored, 0)  # what this module wrote: canonical, no spaces
    except StopIteration:
        raise ValueError("not JSON") from None
    if end != len(stored) or not isinstance(command, dict):
        raise ValueError("not a JSON object")
    command["type"], command["actor"] = type_, actor
    return canonical_json(command)


_scan_json = json.scanner.make_scanner(json.JSONDecoder())
