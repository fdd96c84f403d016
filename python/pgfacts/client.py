"""The Python client: one method per SQL API function, sync and async from one definition.

Nothing here decides anything. Two surfaces, told apart by where they live:

- ``store.<function>(...)`` calls the SQL API function of that name (``api.py`` builds the
  call): a table comes back as a list of frozen dataclasses read by column name
  (``rows.py``), so a type checker sees ``hit.current``; a jsonb document as a dict; an id
  as an int.
- ``store.tools.<tool>(...)`` calls an agent tool through ``call_tool`` (the caller
  context travels in the same statement, so a tool call is one round trip) and returns the
  tool's JSON, camelCase keys and all: exactly what an agent sees.

Errors arrive as ``pgfacts.PgfactsError`` subclasses carrying the SQLSTATE, message,
detail and hint.

    store = FactStore(context=Context(tenant="acme", session_id="run-1", agent_id="planner"))
    store.store_fact("plan/step", {"n": 1})
    [fact] = store.read_facts(key_pattern="plan/*")          # fact.value == {"n": 1}
    store.tools.read_facts(key_pattern="plan/*")["facts"]    # what an agent would get

Pass ``connection=`` to run inside your own transaction instead of the store's pool.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, cast

import psycopg
from psycopg.abc import Buffer
from psycopg.rows import class_row
from psycopg.types.datetime import TimestamptzLoader
from psycopg.types.json import set_json_loads
from psycopg_pool import AsyncConnectionPool, ConnectionPool

from . import api, jsonsafe, queries
from .errors import translate
from .migrator import DEFAULT_SCHEMA, check_installed, check_schema_name
from .rows import JSONObject
from .runtime import resolve_dsn

R = TypeVar("R")
T = TypeVar("T")
P = ParamSpec("P")


@dataclass(frozen=True)
class Context:
    """Who is calling: set per transaction in the database, checked against role grants."""

    tenant: str
    session_id: str | None = None
    agent_id: str | None = None
    agent_kind: str = "agent"
    parent_session_id: str | None = None
    # agent | swarm (one execution's sessions share short-term memory) | none (incognito)
    memory_scope: str = "agent"

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


class Tools(Generic[R]):
    """The agent tools, one method each, called through ``call_tool`` exactly as an agent
    calls them: each returns the tool's JSON (camelCase keys, the agents' contract).

    ``store.tools.facts_search(...)`` is the tool; ``store.search(...)`` is the SQL
    function it wraps, returning typed rows.
    """

    def __init__(self, call_tool: Callable[[str, Mapping[str, Any]], R]) -> None:
        self._call_tool = call_tool

    def call(self, name: str, args: Mapping[str, Any] | None = None) -> R:
        """Any tool by name with JSON arguments."""
        return self._call_tool(name, args or {})

    def store_fact(
        self,
        key: str,
        value: Any,
        *,
        tags: list[str] | None = None,
        shared: bool = False,
        ttl_seconds: int | None = None,
    ) -> R:
        return self.call(
            "store_fact",
            _args(key=key, value=value, tags=tags, shared=shared, ttl_seconds=ttl_seconds),
        )

    def store_facts(self, facts: Sequence[Mapping[str, Any]]) -> R:
        """The store_fact tool's batch form ({facts: [...]})."""
        return self.call("store_fact", {"facts": [dict(f) for f in facts]})

    def bulk_store_facts(
        self,
        records: Sequence[Any] | None = None,
        *,
        source: str | None = None,
        sha256: str | None = None,
        expected_count: int | None = None,
        key_prefix: str | None = None,
    ) -> R:
        """The bulk_store_facts tool: records inline, or ``source``, a file's text, with the
        sha256 of its UTF-8 bytes."""
        return self.call(
            "bulk_store_facts",
            _args(
                records=list(records) if records is not None else None,
                source=source,
                sha256=sha256,
                expected_count=expected_count,
                key_prefix=key_prefix,
            ),
        )

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
        return self.call(
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
        """The read_facts tool given scopeKeys: the readable facts with these exact keys."""
        return self.call("read_facts", _args(scopeKeys=list(scope_keys), limit=limit))

    def delete_fact(
        self, key: str, *, shared: bool = False, pattern: bool = False, scope: str | None = None
    ) -> R:
        return self.call("delete_fact", _args(key=key, shared=shared, pattern=pattern, scope=scope))

    def delete_session(self, session_id: str) -> R:
        return self.call("delete_session", {"session_id": session_id})

    def fact_history(self, key: str, *, shared: bool = False, session_id: str | None = None) -> R:
        return self.call("fact_history", _args(key=key, shared=shared, session_id=session_id))

    def facts_read_uncrawled(self, *, key_prefix: str | None = None, limit: int | None = None) -> R:
        return self.call("facts_read_uncrawled", _args(keyPrefix=key_prefix, limit=limit))

    def facts_set_crawled(
        self,
        *,
        scope_keys: Sequence[Mapping[str, Any]] | None = None,
        key_prefix: str | None = None,
        crawled: bool = True,
    ) -> R:
        return self.call(
            "facts_set_crawled",
            _args(
                scopeKeys=[dict(k) for k in scope_keys] if scope_keys is not None else None,
                keyPrefix=key_prefix,
                crawled=crawled,
            ),
        )

    def facts_stats(self) -> R:
        return self.call("facts_stats", {})

    def facts_tombstone_stats(self, *, ttl_seconds: int | None = None) -> R:
        return self.call("facts_tombstone_stats", _args(ttlSeconds=ttl_seconds))

    def facts_purge_tombstones(
        self, *, ttl_seconds: int | None = None, limit: int | None = None
    ) -> R:
        return self.call("facts_purge_tombstones", _args(ttlSeconds=ttl_seconds, limit=limit))

    def facts_force_purge(
        self,
        cutoff: str,
        *,
        include_unreconciled: bool | None = None,
        key_prefix: str | None = None,
        limit: int | None = None,
    ) -> R:
        return self.call(
            "facts_force_purge",
            _args(
                cutoff=cutoff,
                includeUnreconciled=include_unreconciled,
                keyPrefix=key_prefix,
                limit=limit,
            ),
        )

    # The query vector is passed through as given: this client embeds nothing (the caller
    # embeds the query with its own model, as pgfacts.demo does, and passes vector and model).

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
        return self.call(
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
        return self.call("facts_similar", _args(scopeKey=scope_key, k=k, model=model))

    def search_skills(
        self,
        query: str,
        *,
        limit: int | None = None,
        vector: Sequence[float] | None = None,
        model: str | None = None,
    ) -> R:
        return self.call(
            "search_skills",
            _args(
                query=query,
                limit=limit,
                vector=list(vector) if vector is not None else None,
                model=model,
            ),
        )

    # -- graph: PilotSwarm's graph tools ---------------------------------------------------

    def graph_upsert_node(
        self,
        kind: str,
        name: str,
        *,
        namespace: str | None = None,
        aliases: Sequence[str] | None = None,
        evidence: Sequence[str] | None = None,
    ) -> R:
        return self.call(
            "graph_upsert_node",
            _args(
                kind=kind,
                name=name,
                namespace=namespace,
                aliases=_list(aliases),
                evidence=_list(evidence),
            ),
        )

    def graph_upsert_edge(
        self,
        from_key: str,
        to_key: str,
        predicate: str,
        *,
        namespace: str | None = None,
        confidence: float | None = None,
        evidence: Sequence[str] | None = None,
    ) -> R:
        return self.call(
            "graph_upsert_edge",
            _args(
                fromKey=from_key,
                toKey=to_key,
                predicate=predicate,
                namespace=namespace,
                confidence=confidence,
                evidence=_list(evidence),
            ),
        )

    def graph_merge_nodes(
        self,
        from_key: str,
        into_key: str,
        *,
        reason: str | None = None,
        namespace: str | None = None,
    ) -> R:
        return self.call(
            "graph_merge_nodes",
            _args(fromKey=from_key, intoKey=into_key, reason=reason, namespace=namespace),
        )

    def graph_delete_node(self, node_key: str, *, namespace: str | None = None) -> R:
        return self.call("graph_delete_node", _args(nodeKey=node_key, namespace=namespace))

    def graph_delete_edge(
        self, from_key: str, to_key: str, predicate_key: str, *, namespace: str | None = None
    ) -> R:
        return self.call(
            "graph_delete_edge",
            _args(fromKey=from_key, toKey=to_key, predicateKey=predicate_key, namespace=namespace),
        )

    def graph_remove_evidence(self, scope_key: str, *, namespace: str | None = None) -> R:
        return self.call("graph_remove_evidence", _args(scopeKey=scope_key, namespace=namespace))

    def graph_search_nodes(
        self,
        *,
        kind: str | None = None,
        name_like: str | None = None,
        namespace: str | None = None,
        seeds: Sequence[str] | None = None,
        depth: int | None = None,
        limit: int | None = None,
    ) -> R:
        return self.call(
            "graph_search_nodes",
            _args(
                kind=kind,
                nameLike=name_like,
                namespace=namespace,
                seeds=_list(seeds),
                depth=depth,
                limit=limit,
            ),
        )

    def graph_search_edges(
        self,
        *,
        predicate: str | None = None,
        predicate_key: str | None = None,
        from_key: str | None = None,
        to_key: str | None = None,
        min_confidence: float | None = None,
        namespace: str | None = None,
        limit: int | None = None,
    ) -> R:
        return self.call(
            "graph_search_edges",
            _args(
                predicate=predicate,
                predicateKey=predicate_key,
                fromKey=from_key,
                toKey=to_key,
                minConfidence=min_confidence,
                namespace=namespace,
                limit=limit,
            ),
        )

    def graph_neighbourhood(
        self,
        node_key: str | None = None,
        *,
        depth: int | None = None,
        seeds: Sequence[str] | None = None,
        namespace: str | None = None,
        limit: int | None = None,
        valid_at: str | None = None,
        known_at: str | None = None,
    ) -> R:
        return self.call(
            "graph_neighbourhood",
            _args(
                nodeKey=node_key,
                depth=depth,
                seeds=_list(seeds),
                namespace=namespace,
                limit=limit,
                valid_at=valid_at,
                known_at=known_at,
            ),
        )

    def graph_stats(self, *, namespace: str | None = None) -> R:
        return self.call("graph_stats", _args(namespace=namespace))

    # -- the pipeline ---------------------------------------------------------------------

    def record_memory(
        self,
        source_kind: str,
        source_ref: str,
        lines: Sequence[Mapping[str, str]],
        *,
        occurred_at: str | None = None,
        trust: str | None = None,
        content_hash: str | None = None,
    ) -> R:
        return self.call(
            "record_memory",
            _args(
                sourceKind=source_kind,
                sourceRef=source_ref,
                lines=[dict(line) for line in lines],
                occurredAt=occurred_at,
                trust=trust,
                contentHash=content_hash,
            ),
        )

    def extraction_status(self, event_id: int) -> R:
        return self.call("extraction_status", {"eventId": event_id})

    def force_extract(self, memory_id: int) -> R:
        return self.call("force_extract", {"memoryId": memory_id})

    def extraction_events(self, *, state: str | None = None, limit: int | None = None) -> R:
        return self.call("extraction_events", _args(state=state, limit=limit))

    def audit(
        self,
        *,
        since: str | None = None,
        until: str | None = None,
        operation: str | None = None,
        target: str | None = None,
        agent_id: str | None = None,
        session_id: str | None = None,
        limit: int | None = None,
    ) -> R:
        return self.call(
            "audit",
            _args(
                since=since,
                until=until,
                operation=operation,
                target=target,
                agentId=agent_id,
                sessionId=session_id,
                limit=limit,
            ),
        )

    def review_queue(self, *, limit: int | None = None) -> R:
        return self.call("review_queue", _args(limit=limit))

    def review_candidate(self, candidate_id: int) -> R:
        return self.call("review_candidate", {"candidateId": candidate_id})

    def review_approve(self, candidate_id: int, *, note: str | None = None) -> R:
        return self.call("review_approve", _args(candidateId=candidate_id, note=note))

    def review_reject(self, candidate_id: int, *, note: str | None = None) -> R:
        return self.call("review_reject", _args(candidateId=candidate_id, note=note))

    def fact_review_queue(self, *, limit: int | None = None) -> R:
        return self.call("fact_review_queue", _args(limit=limit))

    def fact_review_approve(self, candidate_id: int, *, note: str | None = None) -> R:
        return self.call("fact_review_approve", _args(candidateId=candidate_id, note=note))

    def fact_review_reject(self, candidate_id: int, *, note: str | None = None) -> R:
        return self.call("fact_review_reject", _args(candidateId=candidate_id, note=note))


def _args(**kwargs: Any) -> dict[str, Any]:
    """Tool arguments: an argument left out takes the tool's default (in SQL)."""
    return {k: v for k, v in kwargs.items() if v is not None}


def _list(values: Sequence[str] | None) -> list[str] | None:
    return list(values) if values is not None else None


def _moved_to_tools(name: str) -> Any:
    """A tool method's old place on the store: warns, then calls ``store.tools.<name>``."""
    target = "search_skills" if name == "search_skills_tool" else name

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        warnings.warn(
            f"store.{name}() is store.tools.{target}() now (removed in the next release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(self.tools, target)(*args, **kwargs)

    method.__name__ = name
    return method


class StoreBase:
    """What a call is built from: the caller context and the schema name."""

    def __init__(self, context: Context | None, schema: str) -> None:
        self.context = context
        self.schema = check_schema_name(schema)
        self._schema_checked = False

    def _version_params(self) -> dict[str, Any]:
        return {"function": f"{self.schema}.schema_version()"}

    # Deprecated: the tool methods whose names no SQL function took stay callable here for
    # one release. (store_fact, read_facts, ... are the SQL functions now; see docs/python.md.)
    facts_tombstone_stats = _moved_to_tools("facts_tombstone_stats")
    facts_purge_tombstones = _moved_to_tools("facts_purge_tombstones")
    facts_force_purge = _moved_to_tools("facts_force_purge")
    facts_search = _moved_to_tools("facts_search")
    facts_similar = _moved_to_tools("facts_similar")
    search_skills_tool = _moved_to_tools("search_skills_tool")


def _signature(build: Callable[..., Any], returns: str) -> inspect.Signature:
    """The builder's signature with what the store method returns (for help())."""
    signature = inspect.signature(build)
    result = str(signature.return_annotation).removeprefix("Call[").removesuffix("]")
    return signature.replace(return_annotation=returns.format(result))


def _sync(
    build: Callable[Concatenate[StoreBase, P], api.Call[T]],
) -> Callable[Concatenate[FactStore, P], T]:
    """The FactStore method of an api function: build the call, run it, return its result."""

    @functools.wraps(build)
    def method(self: FactStore, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self._run(build(self, *args, **kwargs))

    method.__signature__ = _signature(build, "{}")  # type: ignore[attr-defined]
    return method


def _async(
    build: Callable[Concatenate[StoreBase, P], api.Call[T]],
) -> Callable[Concatenate[AsyncFactStore, P], Awaitable[T]]:
    """The AsyncFactStore method of an api function: the same call, awaited."""

    @functools.wraps(build)
    def method(self: AsyncFactStore, /, *args: P.args, **kwargs: P.kwargs) -> Awaitable[T]:
        return self._run(build(self, *args, **kwargs))

    method.__signature__ = _signature(build, "Awaitable[{}]")  # type: ignore[attr-defined]
    return method


class _TimestamptzLoader(TimestamptzLoader):
    """timestamptz with PostgreSQL's ``infinity`` and ``-infinity``, which a claim's valid
    range may hold and ``datetime`` cannot: read as ``datetime.max`` / ``datetime.min``
    (UTC), so they still sort after and before every instant."""

    def load(self, data: Buffer) -> datetime:
        if bytes(data) == b"infinity":
            return datetime.max.replace(tzinfo=UTC)
        if bytes(data) == b"-infinity":
            return datetime.min.replace(tzinfo=UTC)
        return super().load(data)


def _adapt(cursor: psycopg.Cursor[Any] | psycopg.AsyncCursor[Any]) -> None:
    """How a store's cursor reads values. JSON is decoded defensively (jsonsafe): one deep
    value must not break every reader. Set on the cursor, so a caller's own connection is
    left as it was."""
    set_json_loads(jsonsafe.loads, cursor)
    cursor.adapters.register_loader("timestamptz", _TimestamptzLoader)


def _cursor(conn: psycopg.Connection[Any], row: type | None) -> psycopg.Cursor[Any]:
    """A cursor that builds ``row`` objects by column name (or plain tuples)."""
    cursor: psycopg.Cursor[Any] = (
        conn.cursor(row_factory=class_row(row)) if row is not None else conn.cursor()
    )
    _adapt(cursor)
    return cursor


def _async_cursor(conn: psycopg.AsyncConnection[Any], row: type | None) -> psycopg.AsyncCursor[Any]:
    cursor: psycopg.AsyncCursor[Any] = (
        conn.cursor(row_factory=class_row(row)) if row is not None else conn.cursor()
    )
    _adapt(cursor)
    return cursor


def _result(call: api.Call[T], rows: list[Any]) -> T:
    """What a call returns: its rows (built by name), its first column, or its one value."""
    if call.row is not None:
        return cast(T, rows)
    if call.column:
        return cast(T, [r[0] for r in rows])
    return cast(T, rows[0][0] if rows else None)


def _checked_dsn(dsn: str | None, own_pool: bool) -> str | None:
    """A store that will open its own pool refuses a non-PostgreSQL DSN when it is made."""
    if own_pool and (dsn or os.environ.get("PGFACTS_DSN")):
        resolve_dsn(dsn)
    return dsn


def _context_params(context: Context) -> dict[str, Any]:
    return asdict(context)


class FactStore(StoreBase):
    """Synchronous client. Thread-safe when it owns its pool.

    A method per SQL API function, named and parametrised as in SQL: a table comes back as
    a list of frozen dataclasses (``pgfacts.rows``), a JSON document as a dict. The agent
    tools, with their JSON, are ``store.tools``.
    """

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
        self.tools: Tools[JSONObject] = Tools(self.call_tool)

    def with_context(self, **changes: Any) -> FactStore:
        """A store for another caller that shares this one's connections (and pool)."""
        base = self.context or Context(tenant=changes.get("tenant", ""))
        return FactStore(
            context=replace(base, **changes),
            schema=self.schema,
            connection=self._connection,
            pool=self._ensure_pool() if self._connection is None else None,
        )

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

    def _run(self, call: api.Call[T]) -> T:
        try:
            with self._conn() as conn:
                if not self._schema_checked:
                    self._check_schema(conn)
                if call.after is None and (not call.with_context or self.context is None):
                    rows = _cursor(conn, call.row).execute(call.sql, call.params).fetchall()
                    return _result(call, rows)
                with conn.transaction():
                    if call.with_context and self.context is not None:
                        conn.execute(
                            queries.SET_CONTEXT.format(schema=self.schema),
                            _context_params(self.context),
                        )
                    cursor = _cursor(conn, call.row)
                    result = _result(call, cursor.execute(call.sql, call.params).fetchall())
                    # A reranker runs before the commit: if it fails, the call is undone.
                    return call.after(result) if call.after else result
        except psycopg.Error as exc:
            raise translate(exc) from exc

    def close(self) -> None:
        if self._own_pool and self._pool is not None:
            self._pool.close()

    def __enter__(self) -> FactStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the tool contract -------------------------------------------------------------------
    call_tool = _sync(api.call_tool)
    tool_definitions = _sync(api.tool_definitions)
    agent_prompt = _sync(api.agent_prompt)
    available_tools = _sync(api.available_tools)
    schema_version = _sync(api.schema_version)

    # -- working memory ----------------------------------------------------------------------
    store_fact = _sync(api.store_fact)
    store_facts = _sync(api.store_facts)
    bulk_store_facts = _sync(api.bulk_store_facts)
    read_facts = _sync(api.read_facts)
    read_facts_by_scope_keys = _sync(api.read_facts_by_scope_keys)
    read_facts_page = _sync(api.read_facts_page)
    fact_history = _sync(api.fact_history)
    delete_fact = _sync(api.delete_fact)
    register_session = _sync(api.register_session)
    end_session = _sync(api.end_session)
    delete_session = _sync(api.delete_session)
    spawn_tree = _sync(api.spawn_tree)
    session_tree = _sync(api.session_tree)
    read_intake = _sync(api.read_intake)
    facts_read_uncrawled = _sync(api.facts_read_uncrawled)
    facts_set_crawled = _sync(api.facts_set_crawled)
    facts_stats = _sync(api.facts_stats)
    purge_tombstones = _sync(api.purge_tombstones)
    tombstone_stats = _sync(api.tombstone_stats)
    purge_tombstones_before = _sync(api.purge_tombstones_before)
    prune_facts = _sync(api.prune_facts)
    run_maintenance = _sync(api.run_maintenance)
    set_setting = _sync(api.set_setting)

    # -- knowledge ---------------------------------------------------------------------------
    define_predicate = _sync(api.define_predicate)
    ensure_entity = _sync(api.ensure_entity)
    ingest = _sync(api.ingest)
    as_of = _sync(api.as_of)
    claim_history = _sync(api.claim_history)
    history = _sync(api.history)
    current_claims = _sync(api.current_claims)
    changes = _sync(api.changes)
    explain_claim = _sync(api.explain_claim)
    explain = _sync(api.explain)
    retract = _sync(api.retract)
    restore = _sync(api.restore)
    purge_source = _sync(api.purge_source)
    verify_slot = _sync(api.verify_slot)
    override = _sync(api.override)

    # -- retrieval ---------------------------------------------------------------------------
    search = _sync(api.search)
    nearest = _sync(api.nearest)
    detect_intent = _sync(api.detect_intent)
    context_pack = _sync(api.context_pack)
    find_keys = _sync(api.find_keys)
    search_claims = _sync(api.search_claims)
    similar_facts = _sync(api.similar_facts)
    search_skills = _sync(api.search_skills)
    register_embedding_model = _sync(api.register_embedding_model)
    set_embeddings = _sync(api.set_embeddings)
    claim_embedding_work = _sync(api.claim_embedding_work)
    fail_embedding_work = _sync(api.fail_embedding_work)
    embedding_backlog = _sync(api.embedding_backlog)
    embedding_backlog_by_tenant = _sync(api.embedding_backlog_by_tenant)

    # -- graph -------------------------------------------------------------------------------
    graph_upsert_node = _sync(api.graph_upsert_node)
    graph_upsert_edge = _sync(api.graph_upsert_edge)
    graph_merge_nodes = _sync(api.graph_merge_nodes)
    graph_delete_node = _sync(api.graph_delete_node)
    graph_delete_edge = _sync(api.graph_delete_edge)
    graph_remove_evidence = _sync(api.graph_remove_evidence)
    graph_search_nodes = _sync(api.graph_search_nodes)
    graph_search_edges = _sync(api.graph_search_edges)
    graph_neighbourhood = _sync(api.graph_neighbourhood)
    graph_stats = _sync(api.graph_stats)
    graph_projection_name = _sync(api.graph_projection_name)
    graph_cypher = _sync(api.graph_cypher)
    sync_graph_projection = _sync(api.sync_graph_projection)
    rebuild_graph_projection = _sync(api.rebuild_graph_projection)
    verify_graph_projection = _sync(api.verify_graph_projection)
    graph_projection_backlog = _sync(api.graph_projection_backlog)
    maintenance_jobs = _sync(api.maintenance_jobs)
    schedule_maintenance = _sync(api.schedule_maintenance)
    unschedule_maintenance = _sync(api.unschedule_maintenance)
    sync_graph_projections = _sync(api.sync_graph_projections)
    apply_retention_everywhere = _sync(api.apply_retention_everywhere)
    record_memory = _sync(api.record_memory)
    force_extract = _sync(api.force_extract)
    extraction_status = _sync(api.extraction_status)
    extraction_events = _sync(api.extraction_events)
    claim_extraction_work = _sync(api.claim_extraction_work)
    complete_extraction = _sync(api.complete_extraction)
    complete_extractions = _sync(api.complete_extractions)
    fail_extraction = _sync(api.fail_extraction)
    release_extraction = _sync(api.release_extraction)
    audit = _sync(api.audit)
    purge_audit_log = _sync(api.purge_audit_log)
    redaction_placeholders = _sync(api.redaction_placeholders)
    set_redaction_placeholders = _sync(api.set_redaction_placeholders)
    review_queue = _sync(api.review_queue)
    review_candidate = _sync(api.review_candidate)
    approve_claim = _sync(api.approve_claim)
    reject_claim = _sync(api.reject_claim)
    lift_rejection = _sync(api.lift_rejection)
    review_key_prefixes = _sync(api.review_key_prefixes)
    set_review_key_prefixes = _sync(api.set_review_key_prefixes)
    fact_review_queue = _sync(api.fact_review_queue)
    approve_fact = _sync(api.approve_fact)
    reject_fact = _sync(api.reject_fact)
    export_tenant = _sync(api.export_tenant)
    import_open = _sync(api.import_open)
    import_staged = _sync(api.import_staged)
    import_batch = _sync(api.import_batch)
    import_abandon = _sync(api.import_abandon)
    extraction_backlog = _sync(api.extraction_backlog)
    apply_retention = _sync(api.apply_retention)
    retention_backlog = _sync(api.retention_backlog)
    extraction_health = _sync(api.extraction_health)
    validate_extraction = _sync(api.validate_extraction)
    extraction_context = _sync(api.extraction_context)
    extraction_prompt = _sync(api.extraction_prompt)
    parse_extraction_reply = _sync(api.parse_extraction_reply)


class AsyncFactStore(StoreBase):
    """Asynchronous client with the same methods as FactStore, each awaitable (and
    ``store.tools``, each tool awaitable)."""

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
        self.tools: Tools[Awaitable[JSONObject]] = Tools(self.call_tool)

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

    def with_context(self, **changes: Any) -> AsyncFactStore:
        """A store for another caller that shares this one's connections (and pool)."""
        base = self.context or Context(tenant=changes.get("tenant", ""))
        return AsyncFactStore(
            context=replace(base, **changes),
            schema=self.schema,
            connection=self._connection,
            pool=self._pool_object() if self._connection is None else None,
        )

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
    async def _conn(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        if self._connection is not None:
            yield self._connection
            return
        pool = await self._ensure_pool()
        async with pool.connection() as conn:
            yield conn

    async def _run(self, call: api.Call[T]) -> T:
        try:
            async with self._conn() as conn:
                if not self._schema_checked:
                    await self._check_schema(conn)
                if call.after is None and (not call.with_context or self.context is None):
                    cursor = await _async_cursor(conn, call.row).execute(call.sql, call.params)
                    return _result(call, await cursor.fetchall())
                async with conn.transaction():
                    if call.with_context and self.context is not None:
                        await conn.execute(
                            queries.SET_CONTEXT.format(schema=self.schema),
                            _context_params(self.context),
                        )
                    cursor = await _async_cursor(conn, call.row).execute(call.sql, call.params)
                    result = _result(call, await cursor.fetchall())
                    if call.after is None:
                        return result
                    # The reranker's model runs in a thread (it would hold the event loop),
                    # before the commit: if it fails, the call is undone.
                    return cast(T, await asyncio.to_thread(call.after, result))
        except psycopg.Error as exc:
            raise translate(exc) from exc

    async def close(self) -> None:
        if self._own_pool and self._pool is not None:
            await self._pool.close()

    async def __aenter__(self) -> AsyncFactStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the tool contract -------------------------------------------------------------------
    call_tool = _async(api.call_tool)
    tool_definitions = _async(api.tool_definitions)
    agent_prompt = _async(api.agent_prompt)
    available_tools = _async(api.available_tools)
    schema_version = _async(api.schema_version)

    # -- working memory ----------------------------------------------------------------------
    store_fact = _async(api.store_fact)
    store_facts = _async(api.store_facts)
    bulk_store_facts = _async(api.bulk_store_facts)
    read_facts = _async(api.read_facts)
    read_facts_by_scope_keys = _async(api.read_facts_by_scope_keys)
    read_facts_page = _async(api.read_facts_page)
    fact_history = _async(api.fact_history)
    delete_fact = _async(api.delete_fact)
    register_session = _async(api.register_session)
    end_session = _async(api.end_session)
    delete_session = _async(api.delete_session)
    spawn_tree = _async(api.spawn_tree)
    session_tree = _async(api.session_tree)
    read_intake = _async(api.read_intake)
    facts_read_uncrawled = _async(api.facts_read_uncrawled)
    facts_set_crawled = _async(api.facts_set_crawled)
    facts_stats = _async(api.facts_stats)
    purge_tombstones = _async(api.purge_tombstones)
    tombstone_stats = _async(api.tombstone_stats)
    purge_tombstones_before = _async(api.purge_tombstones_before)
    prune_facts = _async(api.prune_facts)
    run_maintenance = _async(api.run_maintenance)
    set_setting = _async(api.set_setting)

    # -- knowledge ---------------------------------------------------------------------------
    define_predicate = _async(api.define_predicate)
    ensure_entity = _async(api.ensure_entity)
    ingest = _async(api.ingest)
    as_of = _async(api.as_of)
    claim_history = _async(api.claim_history)
    history = _async(api.history)
    current_claims = _async(api.current_claims)
    changes = _async(api.changes)
    explain_claim = _async(api.explain_claim)
    explain = _async(api.explain)
    retract = _async(api.retract)
    restore = _async(api.restore)
    purge_source = _async(api.purge_source)
    verify_slot = _async(api.verify_slot)
    override = _async(api.override)

    # -- retrieval ---------------------------------------------------------------------------
    search = _async(api.search)
    nearest = _async(api.nearest)
    detect_intent = _async(api.detect_intent)
    context_pack = _async(api.context_pack)
    find_keys = _async(api.find_keys)
    search_claims = _async(api.search_claims)
    similar_facts = _async(api.similar_facts)
    search_skills = _async(api.search_skills)
    register_embedding_model = _async(api.register_embedding_model)
    set_embeddings = _async(api.set_embeddings)
    claim_embedding_work = _async(api.claim_embedding_work)
    fail_embedding_work = _async(api.fail_embedding_work)
    embedding_backlog = _async(api.embedding_backlog)
    embedding_backlog_by_tenant = _async(api.embedding_backlog_by_tenant)

    # -- graph -------------------------------------------------------------------------------
    graph_upsert_node = _async(api.graph_upsert_node)
    graph_upsert_edge = _async(api.graph_upsert_edge)
    graph_merge_nodes = _async(api.graph_merge_nodes)
    graph_delete_node = _async(api.graph_delete_node)
    graph_delete_edge = _async(api.graph_delete_edge)
    graph_remove_evidence = _async(api.graph_remove_evidence)
    graph_search_nodes = _async(api.graph_search_nodes)
    graph_search_edges = _async(api.graph_search_edges)
    graph_neighbourhood = _async(api.graph_neighbourhood)
    graph_stats = _async(api.graph_stats)
    graph_projection_name = _async(api.graph_projection_name)
    graph_cypher = _async(api.graph_cypher)
    sync_graph_projection = _async(api.sync_graph_projection)
    rebuild_graph_projection = _async(api.rebuild_graph_projection)
    verify_graph_projection = _async(api.verify_graph_projection)
    graph_projection_backlog = _async(api.graph_projection_backlog)
    maintenance_jobs = _async(api.maintenance_jobs)
    schedule_maintenance = _async(api.schedule_maintenance)
    unschedule_maintenance = _async(api.unschedule_maintenance)
    sync_graph_projections = _async(api.sync_graph_projections)
    apply_retention_everywhere = _async(api.apply_retention_everywhere)
    record_memory = _async(api.record_memory)
    force_extract = _async(api.force_extract)
    extraction_status = _async(api.extraction_status)
    extraction_events = _async(api.extraction_events)
    claim_extraction_work = _async(api.claim_extraction_work)
    complete_extraction = _async(api.complete_extraction)
    complete_extractions = _async(api.complete_extractions)
    fail_extraction = _async(api.fail_extraction)
    release_extraction = _async(api.release_extraction)
    audit = _async(api.audit)
    purge_audit_log = _async(api.purge_audit_log)
    redaction_placeholders = _async(api.redaction_placeholders)
    set_redaction_placeholders = _async(api.set_redaction_placeholders)
    review_queue = _async(api.review_queue)
    review_candidate = _async(api.review_candidate)
    approve_claim = _async(api.approve_claim)
    reject_claim = _async(api.reject_claim)
    lift_rejection = _async(api.lift_rejection)
    review_key_prefixes = _async(api.review_key_prefixes)
    set_review_key_prefixes = _async(api.set_review_key_prefixes)
    fact_review_queue = _async(api.fact_review_queue)
    approve_fact = _async(api.approve_fact)
    reject_fact = _async(api.reject_fact)
    export_tenant = _async(api.export_tenant)
    import_open = _async(api.import_open)
    import_staged = _async(api.import_staged)
    import_batch = _async(api.import_batch)
    import_abandon = _async(api.import_abandon)
    extraction_backlog = _async(api.extraction_backlog)
    apply_retention = _async(api.apply_retention)
    retention_backlog = _async(api.retention_backlog)
    extraction_health = _async(api.extraction_health)
    validate_extraction = _async(api.validate_extraction)
    extraction_context = _async(api.extraction_context)
    extraction_prompt = _async(api.extraction_prompt)
    parse_extraction_reply = _async(api.parse_extraction_reply)
