"""The event store: one SQLite file per game (the save game *is* that file).

Tables: ``meta`` (key -> JSON), ``events`` (append-only, refused UPDATE/DELETE by
triggers), ``snapshots`` (state at a seq, zlib-compressed canonical JSON),
``_migrations`` (which numbered migrations ran).  The append path is one prepared INSERT
per event inside ``BEGIN IMMEDIATE … COMMIT`` in WAL mode; sqlite-utils serves the schema
and migrations, where its convenience costs nothing.
"""

from __future__ import annotations

import json
import sqlite3
import time
import zlib
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import sqlite_utils

from .errors import SaveFileError
from .events import EventRecord, canonical_json

SCHEMA_VERSION = 1
SQLITE_HEADER = b"SQLite format 3\x00"

# ---------------------------------------------------------------- migrations
# Numbered, applied in order, each recorded in _migrations (the llm habit).
MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = []
migration = MIGRATIONS.append


@migration
def m001_initial(db: sqlite_utils.Database) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key", if_not_exists=True)
    db.execute(
        """CREATE TABLE IF NOT EXISTS events (
            seq INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            v INTEGER NOT NULL,
            actor TEXT NOT NULL,
            turn INTEGER NOT NULL,
            impulse INTEGER NOT NULL,
            step TEXT NOT NULL,
            cmd INTEGER NOT NULL,
            data TEXT NOT NULL,
            hash BLOB NOT NULL
        )"""
    )
    db["snapshots"].create(
        {"seq": int, "plugins_hash": str, "state": bytes},
        pk=("seq", "plugins_hash"),
        if_not_exists=True,
    )
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END"
    )
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END"
    )
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS events_no_gap BEFORE INSERT ON events "
        "WHEN NEW.seq != (SELECT COALESCE(MAX(seq), 0) + 1 FROM events) "
        "BEGIN SELECT RAISE(ABORT, 'events must be appended with the next seq'); END"
    )


def _migrate(db: sqlite_utils.Database) -> None:
    db["_migrations"].create({"name": str, "applied_at": float}, pk="name", if_not_exists=True)
    applied = {row["name"] for row in db["_migrations"].rows}
    for step in MIGRATIONS:
        if step.__name__ not in applied:
            step(db)
            db["_migrations"].insert({"name": step.__name__, "applied_at": time.time()})


_INSERT = "INSERT INTO events (seq, type, v, actor, turn, impulse, step, cmd, data, hash) VALUES (?,?,?,?,?,?,?,?,?,?)"
_SELECT = "SELECT seq, type, v, actor, turn, impulse, step, cmd, data, hash FROM events"


class EventStore:
    """Low-level access to one save file.  Knows rows, not rules."""

    def __init__(self, path: str | Path, conn: sqlite3.Connection):
        self.path = Path(path)
        self.conn = conn

    # ------------------------------------------------------------ open / create
    @classmethod
    def create(cls, path: str | Path, meta: dict[str, Any]) -> "EventStore":
        path = Path(path)
        if path.exists():
            raise SaveFileError(f"{path}: a file of that name exists already; choose another save name")
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = cls._connect(path)
        db = sqlite_utils.Database(conn)
        conn.execute("BEGIN IMMEDIATE")
        try:
            _migrate(db)
            store = cls(path, conn)
            store._write_meta({"schema_version": SCHEMA_VERSION, "created_at": time.time(), **meta})
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            conn.close()
            path.unlink(missing_ok=True)
            raise
        return store

    @classmethod
    def open(cls, path: str | Path, writable: bool = True) -> "EventStore":
        path = Path(path)
        if not path.exists():
            raise SaveFileError(f"{path}: no such save file")
        with open(path, "rb") as f:
            header = f.read(len(SQLITE_HEADER))
        if header != SQLITE_HEADER:
            raise SaveFileError(f"{path}: not a World in Flames save (not an SQLite database)")
        try:
            conn = cls._connect(path)
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.DatabaseError as exc:
            raise SaveFileError(f"{path}: the save file is damaged ({exc})") from exc
        if not {"meta", "events", "snapshots"} <= tables:
            conn.close()
            raise SaveFileError(f"{path}: not a World in Flames save (tables meta/events/snapshots missing)")
        store = cls(path, conn)
        try:
            version = store.meta("schema_version")
            # Counting reads every page of the events table: a truncated file fails here.
            store.conn.execute("SELECT COUNT(*), MAX(seq) FROM events").fetchone()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise SaveFileError(f"{path}: the save file is damaged ({exc})") from exc
        if not isinstance(version, int):
            conn.close()
            raise SaveFileError(f"{path}: not a World in Flames save (no schema version in meta)")
        if version > SCHEMA_VERSION:
            conn.close()
            raise SaveFileError(
                f"{path}: written by a newer version of the game (save schema {version}; "
                f"this build reads up to {SCHEMA_VERSION}); update the game to open it"
            )
        if version < SCHEMA_VERSION and writable:
            conn.execute("BEGIN IMMEDIATE")
            _migrate(sqlite_utils.Database(conn))
            store.set_meta("schema_version", SCHEMA_VERSION, _in_tx=True)
            conn.execute("COMMIT")
        return store

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        # isolation_level=None: autocommit, we issue BEGIN/COMMIT ourselves.
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def close(self) -> None:
        self.conn.close()

    # ------------------------------------------------------------ meta
    def meta(self, key: str, default: Any = None) -> Any:
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def all_meta(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self.conn.execute("SELECT key, value FROM meta")}

    def _write_meta(self, values: dict[str, Any]) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
            [(k, canonical_json(v)) for k, v in values.items()],
        )

    def set_meta(self, key: str, value: Any, _in_tx: bool = False) -> None:
        if _in_tx:
            self._write_meta({key: value})
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self._write_meta({key: value})
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------ events
    def append(self, rows: Iterable[tuple], snapshots: Iterable[tuple[int, str, str]] = ()) -> None:
        """Append one command's events (and any snapshots taken meanwhile) atomically.

        ``rows`` are tuples in column order (seq, type, v, actor, turn, impulse, step, cmd,
        data_json, hash).
        """
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany(_INSERT, rows)
            for seq, plugins_hash, state_json in snapshots:
                conn.execute(
                    "INSERT OR REPLACE INTO snapshots (seq, plugins_hash, state) VALUES (?,?,?)",
                    (seq, plugins_hash, zlib.compress(state_json.encode(), 6)),
                )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def last(self) -> tuple[int, bytes]:
        row = self.conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        return (row[0], row[1]) if row else (0, b"\x00" * 32)

    def rows(self, from_seq: int = 1, to_seq: int | None = None) -> Iterator[tuple]:
        """Raw rows in seq order (seq, type, v, actor, turn, impulse, step, cmd, data, hash)."""
        if to_seq is None:
            return self.conn.execute(_SELECT + " WHERE seq >= ? ORDER BY seq", (from_seq,))
        return self.conn.execute(_SELECT + " WHERE seq >= ? AND seq <= ? ORDER BY seq", (from_seq, to_seq))

    def records(self, from_seq: int = 1, to_seq: int | None = None) -> Iterator[EventRecord]:
        loads = json.loads
        for seq, type_, v, actor, turn, impulse, step, cmd, data, hash_ in self.rows(from_seq, to_seq):
            yield EventRecord(seq, type_, v, actor, turn, impulse, step, cmd, loads(data), hash_)

    # ------------------------------------------------------------ snapshots
    def nearest_snapshot(self, seq: int, plugins_hash: str) -> tuple[int, str] | None:
        row = self.conn.execute(
            "SELECT seq, state FROM snapshots WHERE seq <= ? AND plugins_hash = ? ORDER BY seq DESC LIMIT 1",
            (seq, plugins_hash),
        ).fetchone()
        if row is None:
            return None
        return row[0], zlib.decompress(row[1]).decode()

    def snapshots(self) -> Iterator[tuple[int, str, str]]:
        for seq, plugins_hash, blob in self.conn.execute(
            "SELECT seq, plugins_hash, state FROM snapshots ORDER BY seq"
        ):
            yield seq, plugins_hash, zlib.decompress(blob).decode()

    def snapshot_seqs(self, plugins_hash: str) -> list[int]:
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT seq FROM snapshots WHERE plugins_hash=? ORDER BY seq", (plugins_hash,)
            )
        ]
