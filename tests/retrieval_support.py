"""Helpers for the retrieval tests: one caller of the SQL API, a transaction per call."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from .conftest import Database


class Caller:
    def __init__(
        self,
        db: Database,
        login: str = "app",
        *,
        tenant: str = "t1",
        kind: str = "operator",
        session: str | None = None,
        parent: str | None = None,
    ) -> None:
        self.conn = db.connect(login)
        self.tenant, self.kind, self.session, self.parent = tenant, kind, session, parent

    def _ctx(self) -> None:
        self.conn.execute(
            "SELECT pgfacts.set_context(tenant => %s, session_id => %s, agent_kind => %s, "
            "parent_session_id => %s)",
            (self.tenant, self.session, self.kind, self.parent),
        )

    def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with self.conn.transaction():
            self._ctx()
            return self.conn.execute(sql, params).fetchall()

    def one(self, sql: str, *params: Any) -> Any:
        rows = self.rows(sql, *params)
        return rows[0][0] if rows else None

    def fact(
        self, key: str, value: Any, *, shared: bool = True, tags: list[str] | None = None
    ) -> Any:
        return self.one(
            "SELECT pgfacts.store_fact(%s, %s, tags => %s, shared => %s)",
            key,
            Jsonb(value),
            tags,
            shared,
        )

    def refs(self, query: str, **kwargs: Any) -> list[str]:
        args = "".join(f', "{k}" => %s' for k in kwargs)
        return [
            r[0]
            for r in self.rows(f"SELECT ref FROM pgfacts.search(%s{args})", query, *kwargs.values())
        ]

    def search(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
        args = "".join(f', "{k}" => %s' for k in kwargs)
        return list(
            self.one(
                f"SELECT coalesce(jsonb_agg(to_jsonb(s)), '[]') FROM pgfacts.search(%s{args}) s",
                query,
                *kwargs.values(),
            )
        )

    def entity(self, name: str) -> int:
        return self.one("SELECT pgfacts.ensure_entity('person', %s)", name)  # type: ignore[no-any-return]

    def ingest(
        self,
        ref: str,
        claims: list[dict[str, Any]],
        *,
        kind: str = "note",
        content: str = "v1",
        trust: str = "agent",
    ) -> Any:
        episode = {"source_kind": kind, "source_ref": ref, "content_hash": content, "trust": trust}
        return self.one("SELECT pgfacts.ingest(%s, %s)", Jsonb(episode), Jsonb(claims))

    def close(self) -> None:
        self.conn.close()


def raises(sqlstate: str, fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except psycopg.Error as exc:
        assert exc.sqlstate == sqlstate, exc
        return
    raise AssertionError(f"expected {sqlstate}")
