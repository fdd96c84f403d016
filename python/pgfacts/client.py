"""The Python client: one method per SQL API function, sync and async from one definition.

Nothing here decides anything: every method sends one call to the SQL API (the agent
tools through ``call_tool``, which takes the caller context in the same statement, so a
tool call is one round trip) and returns the JSON the database produced. Errors arrive as
``pgfacts.PgfactsError`` subclasses carrying the SQLSTATE, message, detail and hint.

    store = FactStore(context=Context(tenant="acme", session_id="run-1", agent_id="planner"))
    store.store_fact("plan/step", {"n": 1})
    store.read_facts(key_pattern="plan/*")

Pass ``connection=`` to run inside your own transaction instead of the store's pool.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import asdict, dataclass, replace
from typing import Any, Generic, TypeVar

import psycopg
from psycopg.types.json import Jsonb, set_json_loads
from psycopg_pool import AsyncConnectionPool, ConnectionPool

from . import jsonsafe, queries
from .errors import translate
from .migrator import DEFAULT_SCHEMA, check_installed, check_schema_name
from .runtime import resolve_dsn

R = TypeVar("R")


@dataclass(frozen=True)
class Context:
    """Who is calling: set per transaction in the database, checked against role grants."""

    tenant: str
    session_id: str | None = None
    agent_id: str | None = None
    agent_kind: str = "agent"
    parent_session_id: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class _Call:
    sql: str
    params: Mapping[str, Any]
    with_context: bool  # False: the context is already inside the statement


def _args(**kwargs: Any) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items() if v is not None}


class _Api(Generic[R]):
    """Every public method builds one call; the sync and async stores only run it."""

    def __init__(self, context: Context | None, schema: str) -> None:
        self.context = context
        self.schema = check_schema_name(schema)
        self._schema_checked = False

    def _run(self, call: _Call) -> R:
        raise NotImplementedError

    def _share(self, context: Context) -> Any:
        """A store of the same class for ``context`` on this store's connections."""
        raise NotImplementedError

    def with_context(self, **changes: Any) -> Any:
        """A store for another caller that shares this one's connections (and pool)."""
        base = self.context or Context(tenant=changes.get("tenant", ""))
        return self._share(replace(base, **changes))

    def _version_params(self) -> dict[str, Any]:
        return {"function": f"{self.schema}.schema_version()"}

    def _tool(self, name: str, args: Mapping[str, Any]) -> R:
        context = self.context.as_json() if self.context else None
        params = {
            "name": name,
            "args": Jsonb(dict(args)),
            "context": Jsonb(context) if context is not None else None,
        }
        return self._run(_Call(queries.CALL_TOOL.format(schema=self.schema), params, False))

    def _api(self, sql: str, **params: Any) -> R:
        return self._run(_Call(sql.format(schema=self.schema), params, True))

    # -- the agent tools (call_tool) ---------------------------------------------------

    def call_tool(self, name: str, args: Mapping[str, Any] | None = None) -> R:
        """Run any tool by name with JSON arguments, exactly as an agent would."""
        return self._tool(name, args or {})

    def store_fact(
        self, key: str, value: Any, *, tags: list[str] | None = None, shared: bool = False
    ) -> R:
        return self._tool("store_fact", _args(key=key, value=value, tags=tags, shared=shared))

    def store_facts(self, facts: Sequence[Mapping[str, Any]]) -> R:
        return self._tool("store_fact", {"facts": list(facts)})

    def read_facts(
        self,
        *,
        key_pattern: str | None = None,
        tags: list[str] | None = None,
        session_id: str | None = None,
        agent_id: str | None = None,
        limit: int | None = None,
        scope: str | None = None,
        known_at: str | None = None,
    ) -> R:
        return self._tool(
            "read_facts",
            _args(
                key_pattern=key_pattern,
                tags=tags,
                session_id=session_id,
                agent_id=agent_id,
                limit=limit,
                scope=scope,
                known_at=known_at,
            ),
        )

    def read_facts_by_scope_keys(self, scope_keys: Sequence[str], *, limit: int | None = None) -> R:
        """The readable facts with these exact scope keys (the read_facts tool's scopeKeys)."""
        return self._tool("read_facts", _args(scopeKeys=list(scope_keys), limit=limit))

    def delete_fact(
        self, key: str, *, shared: bool = False, pattern: bool = False, scope: str | None = None
    ) -> R:
        return self._tool(
            "delete_fact", _args(key=key, shared=shared, pattern=pattern, scope=scope)
        )

    def delete_session(self, session_id: str) -> R:
        return self._tool("delete_session", {"session_id": session_id})

    def fact_history(self, key: str, *, shared: bool = False, session_id: str | None = None) -> R:
        return self._tool("fact_history", _args(key=key, shared=shared, session_id=session_id))

    def facts_read_uncrawled(self, *, key_prefix: str | None = None, limit: int | None = None) -> R:
        return self._tool("facts_read_uncrawled", _args(keyPrefix=key_prefix, limit=limit))

    def facts_set_crawled(
        self,
        *,
        scope_keys: Sequence[Mapping[str, Any]] | None = None,
        key_prefix: str | None = None,
        crawled: bool = True,
    ) -> R:
        return self._tool(
            "facts_set_crawled",
            _args(scopeKeys=scope_keys, keyPrefix=key_prefix, crawled=crawled),
        )

    def facts_stats(self) -> R:
        return self._tool("facts_stats", {})

    def facts_tombstone_stats(self, *, ttl_seconds: int | None = None) -> R:
        return self._tool("facts_tombstone_stats", _args(ttlSeconds=ttl_seconds))

    def facts_purge_tombstones(
        self, *, ttl_seconds: int | None = None, limit: int | None = None
    ) -> R:
        return self._tool("facts_purge_tombstones", _args(ttlSeconds=ttl_seconds, limit=limit))

    def facts_force_purge(
        self,
        cutoff: str,
        *,
        include_unreconciled: bool | None = None,
        key_prefix: str | None = None,
        limit: int | None = None,
    ) -> R:
        return self._tool(
            "facts_force_purge",
            _args(
                cutoff=cutoff,
                includeUnreconciled=include_unreconciled,
                keyPrefix=key_prefix,
                limit=limit,
            ),
        )

    # -- the rest of the SQL API -------------------------------------------------------

    def tool_definitions(self) -> R:
        return self._run(_Call(queries.TOOL_DEFINITIONS.format(schema=self.schema), {}, False))

    def schema_version(self) -> R:
        """The migrations applied to the database (the store checks them on first use)."""
        return self._run(_Call(queries.SCHEMA_VERSION.format(schema=self.schema), {}, False))

    def register_session(
        self,
        session_id: str,
        *,
        parent_session_id: str | None = None,
        agent_id: str | None = None,
    ) -> R:
        return self._api(
            queries.REGISTER_SESSION,
            session_id=session_id,
            parent_session_id=parent_session_id,
            agent_id=agent_id,
        )

    def end_session(self, session_id: str) -> R:
        return self._api(queries.END_SESSION, session_id=session_id)

    def spawn_tree(self, session_id: str | None = None) -> R:
        return self._api(queries.SPAWN_TREE, session_id=session_id)

    def read_intake(self, *, limit: int = 100) -> R:
        """What the intake doorbell (LISTEN <schema>_intake, empty payloads) announces."""
        return self._api(queries.READ_INTAKE, limit=limit)

    def purge_tombstones(self, *, ttl_seconds: int | None = None, limit: int = 1000) -> R:
        return self._api(queries.PURGE_TOMBSTONES, ttl_seconds=ttl_seconds, limit=limit)

    def tombstone_stats(self, ttl_seconds: int | None = None) -> R:
        return self._api(queries.TOMBSTONE_STATS, ttl_seconds=ttl_seconds)

    def purge_tombstones_before(
        self,
        cutoff: Any,
        *,
        include_unreconciled: bool = False,
        key_prefix: str | None = None,
        limit: int = 1000,
    ) -> R:
        return self._api(
            queries.PURGE_TOMBSTONES_BEFORE,
            cutoff=cutoff,
            include_unreconciled=include_unreconciled,
            key_prefix=key_prefix,
            limit=limit,
        )

    def run_maintenance(self) -> R:
        return self._api(queries.RUN_MAINTENANCE)

    def set_setting(self, name: str, value: Any) -> R:
        return self._api(queries.SET_SETTING, name=name, value=Jsonb(value))

    # -- knowledge ---------------------------------------------------------------------

    def define_predicate(self, name: str, cardinality: str, description: str = "") -> R:
        return self._api(
            queries.DEFINE_PREDICATE, name=name, cardinality=cardinality, description=description
        )

    def ensure_entity(
        self,
        kind: str,
        name: str,
        *,
        aliases: Sequence[str] | None = None,
        external_ref: str | None = None,
    ) -> R:
        return self._api(
            queries.ENSURE_ENTITY,
            kind=kind,
            name=name,
            aliases=list(aliases) if aliases is not None else None,
            external_ref=external_ref,
        )

    def ingest(self, episode: Mapping[str, Any], claims: Sequence[Mapping[str, Any]]) -> R:
        return self._api(queries.INGEST, episode=Jsonb(dict(episode)), claims=Jsonb(list(claims)))

    def as_of(
        self, subject: int, predicate: str, *, valid_at: Any = None, known_at: Any = None
    ) -> R:
        return self._api(
            queries.AS_OF,
            subject=subject,
            predicate=predicate,
            valid_at=valid_at,
            known_at=known_at,
        )

    def claim_history(self, subject: int, predicate: str) -> R:
        return self._api(queries.CLAIM_HISTORY, subject=subject, predicate=predicate)

    def history(self, subject: int, predicate: str) -> R:
        """Deprecated alias of :meth:`claim_history` (removed in the next release)."""
        return self.claim_history(subject, predicate)

    def current_claims(self, subject: int) -> R:
        return self._api(queries.CURRENT_CLAIMS, subject=subject)

    def changes(self, since: Any, until: Any = None) -> R:
        return self._api(queries.CHANGES, since=since, until=until)

    def explain_claim(self, claim_id: int) -> R:
        return self._api(queries.EXPLAIN_CLAIM, claim_id=claim_id)

    def explain(self, claim_id: int) -> R:
        """Deprecated alias of :meth:`explain_claim` (removed in the next release)."""
        return self.explain_claim(claim_id)

    def retract(self, claim_id: int) -> R:
        return self._api(queries.RETRACT, claim_id=claim_id)

    def restore(self, claim_id: int) -> R:
        return self._api(queries.RESTORE, claim_id=claim_id)

    def purge_source(self, source_kind: str, source_ref: str) -> R:
        return self._api(queries.PURGE_SOURCE, source_kind=source_kind, source_ref=source_ref)

    def verify_slot(self, subject: int, predicate: str) -> R:
        return self._api(queries.VERIFY_SLOT, subject=subject, predicate=predicate)

    def override(self, idempotency_key: str, claim: Mapping[str, Any]) -> R:
        return self._api(
            queries.OVERRIDE, idempotency_key=idempotency_key, claim=Jsonb(dict(claim))
        )

    # -- retrieval ---------------------------------------------------------------------
    # The query vector is passed through as given: SQL cannot embed text, and this client
    # embeds nothing. The caller embeds the query with its own model (for example
    # ``embedder.embed([query])`` of a ``pgfacts.retrieval`` Embedder, as pgfacts.demo does)
    # and passes vector and model; without them facts_search and search are lexical only.

    def facts_search(
        self,
        query: str,
        *,
        mode: str | None = None,
        scope: str | None = None,
        tags: list[str] | None = None,
        key_prefix: str | None = None,
        limit: int | None = None,
        weights: Mapping[str, float] | None = None,
        vector: Sequence[float] | None = None,
        model: str | None = None,
    ) -> R:
        return self._tool(
            "facts_search",
            _args(
                query=query,
                mode=mode,
                scope=scope,
                tags=tags,
                keyPrefix=key_prefix,
                limit=limit,
                weights=dict(weights) if weights is not None else None,
                vector=list(vector) if vector is not None else None,
                model=model,
            ),
        )

    def facts_similar(self, scope_key: str, *, k: int | None = None, model: str | None = None) -> R:
        return self._tool("facts_similar", _args(scopeKey=scope_key, k=k, model=model))

    def search_skills_tool(
        self,
        query: str,
        *,
        limit: int | None = None,
        vector: Sequence[float] | None = None,
        model: str | None = None,
    ) -> R:
        """The search_skills agent tool ({count, skills}); :meth:`search_skills` is the SQL API."""
        return self._tool(
            "search_skills",
            _args(
                query=query,
                limit=limit,
                vector=list(vector) if vector is not None else None,
                model=model,
            ),
        )

    def search(
        self,
        query: str,
        *,
        query_vector: Sequence[float] | None = None,
        model: str | None = None,
        limit: int = 20,
        scope: str = "accessible",
        item_kinds: Sequence[str] = ("fact", "claim"),
        key_prefix: str | None = None,
        tags: list[str] | None = None,
        intent: str | None = None,
        valid_at: Any = None,
        known_at: Any = None,
        text_weight: float = 1.0,
        vector_weight: float = 1.0,
    ) -> R:
        return self._api(
            queries.SEARCH,
            query=query,
            query_vector=_vector(query_vector),
            model=model,
            limit=limit,
            scope=scope,
            item_kinds=list(item_kinds),
            key_prefix=key_prefix,
            tags=tags,
            intent=intent,
            valid_at=valid_at,
            known_at=known_at,
            text_weight=text_weight,
            vector_weight=vector_weight,
        )

    def nearest(
        self,
        model: str,
        query_vector: Sequence[float],
        *,
        k: int = 10,
        item_kinds: Sequence[str] = ("fact", "claim"),
        scope: str = "accessible",
        valid_at: Any = None,
        known_at: Any = None,
        include_history: bool = False,
    ) -> R:
        return self._api(
            queries.NEAREST,
            model=model,
            query_vector=_vector(query_vector),
            k=k,
            item_kinds=list(item_kinds),
            scope=scope,
            valid_at=valid_at,
            known_at=known_at,
            include_history=include_history,
        )

    def detect_intent(self, query: str) -> R:
        return self._api(queries.DETECT_INTENT, query=query)

    def context_pack(
        self,
        query: str,
        *,
        token_budget: int = 2000,
        query_vector: Sequence[float] | None = None,
        model: str | None = None,
        scope: str = "accessible",
        limit: int = 20,
        chars_per_token: float = 4.0,
    ) -> R:
        return self._api(
            queries.CONTEXT_PACK,
            query=query,
            token_budget=token_budget,
            query_vector=_vector(query_vector),
            model=model,
            scope=scope,
            limit=limit,
            chars_per_token=chars_per_token,
        )

    def find_keys(self, pattern: str, *, limit: int = 10, scope: str = "accessible") -> R:
        return self._api(queries.FIND_KEYS, pattern=pattern, limit=limit, scope=scope)

    def search_claims(
        self,
        query: str,
        *,
        min_confidence: float | None = None,
        include_history: bool = False,
        limit: int = 8,
    ) -> R:
        return self._api(
            queries.SEARCH_CLAIMS,
            query=query,
            min_confidence=min_confidence,
            include_history=include_history,
            limit=limit,
        )

    def similar_facts(self, scope_key: str, *, k: int = 8, model: str | None = None) -> R:
        return self._api(queries.SIMILAR_FACTS, scope_key=scope_key, k=k, model=model)

    def search_skills(
        self,
        query: str,
        *,
        query_vector: Sequence[float] | None = None,
        model: str | None = None,
        limit: int = 8,
    ) -> R:
        return self._api(
            queries.SEARCH_SKILLS,
            query=query,
            query_vector=_vector(query_vector),
            model=model,
            limit=limit,
        )

    def register_embedding_model(self, model: str, dimension: int) -> R:
        return self._api(queries.REGISTER_EMBEDDING_MODEL, model=model, dimension=dimension)

    def set_embeddings(self, model: str, rows: Sequence[Mapping[str, Any]]) -> R:
        return self._api(queries.SET_EMBEDDINGS, model=model, rows=Jsonb([dict(r) for r in rows]))

    def claim_embedding_work(self, batch_size: int = 64) -> R:
        return self._api(queries.CLAIM_EMBEDDING_WORK, batch_size=batch_size)

    def fail_embedding_work(self, items: Sequence[Mapping[str, Any]], error_code: int) -> R:
        return self._api(
            queries.FAIL_EMBEDDING_WORK,
            items=Jsonb([dict(i) for i in items]),
            error_code=error_code,
        )

    def embedding_backlog(self) -> R:
        return self._api(queries.EMBEDDING_BACKLOG)


def _vector(values: Sequence[float] | None) -> str | None:
    """A query vector in pgvector's text form (cast to vector in SQL)."""
    if values is None:
        return None
    return "[" + ",".join(repr(float(v)) for v in values) + "]"


def _cursor(conn: psycopg.Connection[Any]) -> psycopg.Cursor[Any]:
    """A cursor that decodes JSON defensively (jsonsafe): one deep value must not break
    every reader. Set on the cursor, so a caller's own connection is left as it was."""
    cursor = conn.cursor()
    set_json_loads(jsonsafe.loads, cursor)
    return cursor


def _async_cursor(conn: psycopg.AsyncConnection[Any]) -> psycopg.AsyncCursor[Any]:
    cursor = conn.cursor()
    set_json_loads(jsonsafe.loads, cursor)
    return cursor


def _checked_dsn(dsn: str | None, own_pool: bool) -> str | None:
    """A store that will open its own pool refuses a non-PostgreSQL DSN when it is made."""
    if own_pool and (dsn or os.environ.get("PGFACTS_DSN")):
        resolve_dsn(dsn)
    return dsn


def _context_params(context: Context) -> dict[str, Any]:
    return asdict(context)


class FactStore(_Api[Any]):
    """Synchronous client. Thread-safe when it owns its pool."""

    def __init__(
        self,
        dsn: str | None = None,
        *,
        context: Context | None = None,
        schema: str = DEFAULT_SCHEMA,
        connection: psycopg.Connection[Any] | None = None,
        pool: ConnectionPool | None = None,
    ) -> None:
        super().__init__(context, schema)
        self._connection = connection
        self._own_pool = pool is None and connection is None
        self._pool = pool
        self._dsn = _checked_dsn(dsn, self._own_pool)

    def _share(self, context: Context) -> FactStore:
        return FactStore(
            context=context,
            schema=self.schema,
            connection=self._connection,
            pool=self._ensure_pool() if self._connection is None else None,
        )

    def with_context(self, **changes: Any) -> FactStore:
        return super().with_context(**changes)  # type: ignore[no-any-return]

    def _check_schema(self, conn: psycopg.Connection[Any]) -> None:
        row = conn.execute(queries.SCHEMA_VERSION_CALLABLE, self._version_params()).fetchone()
        version = None
        if row and row[0]:
            version = conn.execute(queries.SCHEMA_VERSION.format(schema=self.schema)).fetchone()
        check_installed(version[0] if version else None, self.schema)
        self._schema_checked = True

    def _ensure_pool(self) -> ConnectionPool:
        if self._pool is None:
            self._pool = ConnectionPool(
                resolve_dsn(self._dsn),
                min_size=1,
                max_size=8,
                open=True,
                kwargs={"autocommit": True},
            )
        return self._pool

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[Any]]:
        if self._connection is not None:
            yield self._connection
            return
        with self._ensure_pool().connection() as conn:
            yield conn

    def _run(self, call: _Call) -> Any:
        try:
            with self._conn() as conn:
                if not self._schema_checked:
                    self._check_schema(conn)
                if not call.with_context or self.context is None:
                    row = _cursor(conn).execute(call.sql, call.params).fetchone()
                else:
                    with conn.transaction():
                        conn.execute(
                            queries.SET_CONTEXT.format(schema=self.schema),
                            _context_params(self.context),
                        )
                        row = _cursor(conn).execute(call.sql, call.params).fetchone()
        except psycopg.Error as exc:
            raise translate(exc) from exc
        return row[0] if row else None

    def close(self) -> None:
        if self._own_pool and self._pool is not None:
            self._pool.close()

    def __enter__(self) -> FactStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncFactStore(_Api[Awaitable[Any]]):
    """Asynchronous client with the same methods as FactStore, each awaitable."""

    def __init__(
        self,
        dsn: str | None = None,
        *,
        context: Context | None = None,
        schema: str = DEFAULT_SCHEMA,
        connection: psycopg.AsyncConnection[Any] | None = None,
        pool: AsyncConnectionPool | None = None,
    ) -> None:
        super().__init__(context, schema)
        self._connection = connection
        self._own_pool = pool is None and connection is None
        self._pool = pool
        self._dsn = _checked_dsn(dsn, self._own_pool)

    def _pool_object(self) -> AsyncConnectionPool:
        # Built here, opened on first use, so with_context can share it before any await.
        if self._pool is None:
            self._pool = AsyncConnectionPool(
                resolve_dsn(self._dsn),
                min_size=1,
                max_size=8,
                open=False,
                kwargs={"autocommit": True},
            )
        return self._pool

    async def _ensure_pool(self) -> AsyncConnectionPool:
        pool = self._pool_object()
        await pool.open()  # a no-op once open
        return pool

    def _share(self, context: Context) -> AsyncFactStore:
        return AsyncFactStore(
            context=context,
            schema=self.schema,
            connection=self._connection,
            pool=self._pool_object() if self._connection is None else None,
        )

    def with_context(self, **changes: Any) -> AsyncFactStore:
        return super().with_context(**changes)  # type: ignore[no-any-return]

    async def _check_schema(self, conn: psycopg.AsyncConnection[Any]) -> None:
        cursor = await conn.execute(queries.SCHEMA_VERSION_CALLABLE, self._version_params())
        row = await cursor.fetchone()
        version = None
        if row and row[0]:
            cursor = await conn.execute(queries.SCHEMA_VERSION.format(schema=self.schema))
            version = await cursor.fetchone()
        check_installed(version[0] if version else None, self.schema)
        self._schema_checked = True

    @asynccontextmanager
    async def _conn(self) -> Any:
        if self._connection is not None:
            yield self._connection
            return
        pool = await self._ensure_pool()
        async with pool.connection() as conn:
            yield conn

    async def _execute(self, call: _Call) -> Any:
        try:
            async with self._conn() as conn:
                if not self._schema_checked:
                    await self._check_schema(conn)
                if not call.with_context or self.context is None:
                    cursor = await _async_cursor(conn).execute(call.sql, call.params)
                else:
                    async with conn.transaction():
                        await conn.execute(
                            queries.SET_CONTEXT.format(schema=self.schema),
                            _context_params(self.context),
                        )
                        cursor = await _async_cursor(conn).execute(call.sql, call.params)
                row = await cursor.fetchone()
        except psycopg.Error as exc:
            raise translate(exc) from exc
        return row[0] if row else None

    def _run(self, call: _Call) -> Awaitable[Any]:
        return self._execute(call)

    async def close(self) -> None:
        if self._own_pool and self._pool is not None:
            await self._pool.close()

    async def __aenter__(self) -> AsyncFactStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
