"""One caller of the SQL API for every test: a login and a caller context.

SQL runs in a transaction of its own with the context set first (``rows``, ``one``), the
way an app server names the tenant per transaction. Tool calls (``caller(name, args)``)
pass the context to ``call_tool`` in the same statement, the way every client does, on an
autocommit connection per login; each call may name another login or context.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from ..conftest import Database

CONTEXT = (
    "SELECT pgfacts.set_context(tenant => %s, session_id => %s, agent_id => %s, "
    "agent_kind => %s, parent_session_id => %s)"
)


def no_internal_error(error: psycopg.Error) -> None:
    """An integrity violation or an internal error is never an answer to a caller: every
    test, the property tests included, fails on one."""
    state = error.sqlstate or ""
    assert not state.startswith(("23", "XX")), f"internal error {state}: {error}"


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
        agent: str | None = None,
        local_settings: dict[str, str] | None = None,
    ) -> None:
        self.db = db
        self.login = login
        self.tenant, self.kind, self.session, self.parent, self.agent = (
            tenant,
            kind,
            session,
            parent,
            agent,
        )
        # Settings of each transaction, as SET LOCAL would make them.
        self.local_settings = local_settings or {}
        self.conn = db.connect(login)
        self._tool_connections: dict[str, psycopg.Connection] = {}

    # -- SQL, a transaction per call ------------------------------------------------------

    def set_context(self) -> None:
        self.conn.execute(CONTEXT, (self.tenant, self.session, self.agent, self.kind, self.parent))
        for name, value in self.local_settings.items():
            self.conn.execute("SELECT set_config(%s, %s, true)", (name, value))

    def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        return self._run(sql, params, many=True)  # type: ignore[no-any-return]

    def one(self, sql: str, *params: Any) -> Any:
        row = self._run(sql, params, many=False)
        return row[0] if row else None

    def refused(self, sql: str, *params: Any) -> str | None:
        """The SQLSTATE a statement is refused with; None when it runs."""
        try:
            self.rows(sql, *params)
        except psycopg.Error as exc:
            return exc.sqlstate
        return None

    def _run(self, sql: str, params: tuple[Any, ...], *, many: bool) -> Any:
        try:
            with self.conn.transaction():
                self.set_context()
                cursor = self.conn.execute(sql, params)
                return cursor.fetchall() if many else cursor.fetchone()
        except psycopg.Error as error:
            no_internal_error(error)
            raise

    # -- working memory and retrieval -----------------------------------------------------

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

    # -- knowledge ------------------------------------------------------------------------

    def entity(self, name: str) -> int:
        return self.one("SELECT pgfacts.ensure_entity('person', %s)", name)  # type: ignore[no-any-return]

    def ingest(
        self,
        ref: str,
        claims: list[dict[str, Any]],
        *,
        kind: str = "note",
        content: str | None = None,
        trust: str = "agent",
    ) -> dict[str, Any]:
        episode = {
            "source_kind": kind,
            "source_ref": ref,
            "content_hash": content or f"hash-of-{ref}",
            "trust": trust,
        }
        return self.one("SELECT pgfacts.ingest(%s, %s)", Jsonb(episode), Jsonb(claims))  # type: ignore[no-any-return]

    def as_of(self, subject: int, predicate: str, valid_at: str, known_at: Any = None) -> list[Any]:
        return [
            r[0]
            for r in self.rows(
                "SELECT object_value FROM pgfacts.as_of(%s, %s, %s, %s)",
                subject,
                predicate,
                valid_at,
                known_at,
            )
        ]

    def history(self, subject: int, predicate: str) -> list[tuple[Any, ...]]:
        return self.rows(
            "SELECT object_value, valid_from::date::text, valid_to::date::text, "
            "retired_reason FROM pgfacts.claim_history(%s, %s)",
            subject,
            predicate,
        )

    def now(self) -> Any:
        return self.one("SELECT clock_timestamp()")

    # -- tools: call_tool with the context in the same statement --------------------------

    def tool_conn(self, login: str) -> psycopg.Connection:
        if login not in self._tool_connections:
            self._tool_connections[login] = self.db.connect(login, autocommit=True)
        return self._tool_connections[login]

    def __call__(
        self,
        name: str,
        args: dict[str, object] | None = None,
        *,
        login: str | None = None,
        tenant: str | None = None,
        session: str | None = None,
        parent: str | None = None,
        agent: str | None = None,
        kind: str | None = None,
    ) -> dict:  # type: ignore[type-arg]
        """One tool call; a context field not named is the caller's own."""
        context = {
            "tenant": self.tenant if tenant is None else tenant,
            "agent_kind": self.kind if kind is None else kind,
        }
        for field, value in (
            ("session_id", self.session if session is None else session),
            ("parent_session_id", self.parent if parent is None else parent),
            ("agent_id", self.agent if agent is None else agent),
        ):
            if value is not None:
                context[field] = value
        try:
            row = (
                self.tool_conn(self.login if login is None else login)
                .execute(
                    "SELECT pgfacts.call_tool(%s, %s, %s)",
                    (name, Jsonb(args or {}), Jsonb(context)),
                )
                .fetchone()
            )
        except psycopg.Error as error:
            no_internal_error(error)
            raise
        assert row is not None
        return row[0]  # type: ignore[no-any-return]

    def close(self) -> None:
        self.conn.close()
        for conn in self._tool_connections.values():
            conn.close()


def raises(sqlstate: str, fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except psycopg.Error as exc:
        assert exc.sqlstate == sqlstate, exc
        return
    raise AssertionError(f"expected {sqlstate}")
