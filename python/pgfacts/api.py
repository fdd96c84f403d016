"""One function per SQL API function: the statement to send and how to read its result.

Each function here builds a :class:`Call` and runs nothing; ``FactStore`` and
``AsyncFactStore`` turn each one into a method (``client.py``), so the two stores share one
definition per function, with its parameters and its typed result. A function returning a
table is read by column name into its row dataclass (``rows.py``); one returning a single
value (a jsonb document, an id) gives that value. Parameters keep the SQL names, and plain
defaults repeat the SQL ones so they show in help and type checks; a default that depends
on data stays in SQL (``None`` is passed, never a copy of the value).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from uuid import UUID

from psycopg.types.json import Jsonb

from . import queries, rerank
from .rerank import Reranker
from .rows import (
    JSON,
    AuditEntry,
    ClaimAsOf,
    ClaimChange,
    ClaimHit,
    ClaimVersion,
    CurrentClaim,
    EmbeddingBacklog,
    EmbeddingWork,
    ExtractionBacklog,
    ExtractionWork,
    Fact,
    FactVersion,
    GraphEdge,
    GraphNode,
    GraphProjection,
    JSONObject,
    KeyMatch,
    Neighbour,
    ProjectionDifference,
    RetentionDue,
    ReviewCandidate,
    SearchHit,
    SessionNode,
    SimilarFact,
    Skill,
    SlotDifference,
)

if TYPE_CHECKING:
    from .client import StoreBase

T = TypeVar("T")
Row = TypeVar("Row")


@dataclass(frozen=True)
class Call(Generic[T]):
    """One statement and the shape of its answer (``T`` is what the store returns)."""

    sql: str
    params: Mapping[str, Any]
    # False: the statement carries the context itself (call_tool) or needs none.
    with_context: bool = True
    # A row class: every row, built by column name. None: the first column, see below.
    row: type | None = None
    # True: the first column of every row (SETOF text). False: the value of the one row.
    column: bool = False
    # What the store does with the answer before the call's transaction ends (a reranker's
    # re-ordering): if it raises, the transaction is rolled back.
    after: Callable[[Any], Any] | None = None


def _value(store: StoreBase, sql: str, /, **params: Any) -> Call[Any]:
    return Call(sql.format(schema=store.schema), params)


def _rows(store: StoreBase, sql: str, row: type[Row], /, **params: Any) -> Call[list[Row]]:
    return Call(sql.format(schema=store.schema), params, row=row)


def _vector(values: Sequence[float] | None) -> str | None:
    """A query vector in pgvector's text form (cast to vector in SQL)."""
    if values is None:
        return None
    return "[" + ",".join(repr(float(v)) for v in values) + "]"


# -- the tool contract -------------------------------------------------------------------


def call_tool(self: StoreBase, name: str, args: Mapping[str, Any] | None = None) -> Call[JSON]:
    """Run the agent tool ``name`` with JSON arguments, exactly as an agent would (one
    statement: the store's context travels inside it)."""
    context = self.context.as_json() if self.context else None
    params = {
        "name": name,
        "args": Jsonb(dict(args or {})),
        "context": Jsonb(context) if context is not None else None,
    }
    return Call(queries.CALL_TOOL.format(schema=self.schema), params, with_context=False)


def tool_definitions(self: StoreBase) -> Call[list[JSONObject]]:
    """Every tool's name, description, input schema and kinds (``pgfacts.tools`` renders
    them for OpenAI, Anthropic and MCP)."""
    return Call(queries.TOOL_DEFINITIONS.format(schema=self.schema), {}, with_context=False)


def agent_prompt(self: StoreBase, max_skills: int = 5) -> Call[str]:
    """The memory section of the caller's system prompt, for what its kind and tenant can
    do (``pgfacts prompt`` prints it)."""
    return _value(self, queries.AGENT_PROMPT, max_skills=max_skills)


def available_tools(self: StoreBase) -> Call[list[JSONObject]]:
    """The tools the store's context may use: its kind's, those its tenant's data supports
    (the rule is in SQL; an MCP server lists exactly these)."""
    return Call(queries.AVAILABLE_TOOLS.format(schema=self.schema), {})


def schema_version(self: StoreBase) -> Call[JSONObject]:
    """The migrations applied to the database (the store checks them on first use)."""
    return Call(queries.SCHEMA_VERSION.format(schema=self.schema), {}, with_context=False)


# -- working memory ----------------------------------------------------------------------


def store_fact(
    self: StoreBase,
    key: str,
    value: JSON,
    *,
    tags: Sequence[str] | None = None,
    shared: bool = False,
    ttl_seconds: int | None = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.STORE_FACT,
        key=key,
        value=Jsonb(value),
        tags=list(tags) if tags is not None else None,
        shared=shared,
        ttl_seconds=ttl_seconds,
    )


def store_facts(self: StoreBase, facts: Sequence[Mapping[str, Any]]) -> Call[JSONObject]:
    return _value(self, queries.STORE_FACTS, facts=Jsonb([dict(f) for f in facts]))


def bulk_store_facts(
    self: StoreBase,
    records: Sequence[Any] | None = None,
    *,
    source: bytes | None = None,
    sha256: str | None = None,
    expected_count: int | None = None,
    key_prefix: str | None = None,
) -> Call[JSONObject]:
    """Many facts, the valid ones committed: ``records`` inline, or ``source``, a file's
    bytes as read (SQL checks them against ``sha256``, decodes and parses them)."""
    return _value(
        self,
        queries.BULK_STORE_FACTS,
        records=Jsonb(list(records)) if records is not None else None,
        source=bytes(source) if source is not None else None,
        sha256=sha256,
        expected_count=expected_count,
        key_prefix=key_prefix,
    )


def read_facts(
    self: StoreBase,
    *,
    key_pattern: str | None = None,
    tags: Sequence[str] | None = None,
    session_id: str | None = None,
    agent_id: str | None = None,
    limit: int = 50,
    scope: str = "accessible",
    known_at: Any = None,
) -> Call[list[Fact]]:
    return _rows(
        self,
        queries.READ_FACTS,
        Fact,
        key_pattern=key_pattern,
        tags=list(tags) if tags is not None else None,
        session_id=session_id,
        agent_id=agent_id,
        limit=limit,
        scope=scope,
        known_at=known_at,
    )


def read_facts_page(
    self: StoreBase,
    *,
    key_pattern: str | None = None,
    after: str | None = None,
    limit: int = 1000,
    scope: str = "accessible",
) -> Call[list[Fact]]:
    """The facts ``read_facts`` finds, by key (then scope), at most ``limit`` after the
    ``scope_key`` ``after`` of the previous page's last row: page until a short page."""
    return _rows(
        self,
        queries.READ_FACTS_PAGE,
        Fact,
        key_pattern=key_pattern,
        after=after,
        limit=limit,
        scope=scope,
    )


def read_facts_by_scope_keys(
    self: StoreBase, scope_keys: Sequence[str], *, limit: int = 1000
) -> Call[list[Fact]]:
    """The readable facts with these exact scope keys, in the order asked."""
    return _rows(
        self, queries.READ_FACTS_BY_SCOPE_KEYS, Fact, scope_keys=list(scope_keys), limit=limit
    )


def fact_history(
    self: StoreBase, key: str, *, shared: bool = False, session_id: str | None = None
) -> Call[list[FactVersion]]:
    return _rows(
        self, queries.FACT_HISTORY, FactVersion, key=key, shared=shared, session_id=session_id
    )


def delete_fact(
    self: StoreBase,
    key: str,
    *,
    shared: bool = False,
    pattern: bool = False,
    scope: str | None = None,
) -> Call[JSONObject]:
    return _value(self, queries.DELETE_FACT, key=key, shared=shared, pattern=pattern, scope=scope)


def register_session(
    self: StoreBase,
    session_id: str,
    *,
    parent_session_id: str | None = None,
    agent_id: str | None = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.REGISTER_SESSION,
        session_id=session_id,
        parent_session_id=parent_session_id,
        agent_id=agent_id,
    )


def end_session(self: StoreBase, session_id: str) -> Call[JSONObject]:
    return _value(self, queries.END_SESSION, session_id=session_id)


def delete_session(self: StoreBase, session_id: str) -> Call[JSONObject]:
    return _value(self, queries.DELETE_SESSION, session_id=session_id)


def spawn_tree(self: StoreBase, session_id: str | None = None) -> Call[list[str]]:
    """The session ids of the spawn tree of session_id (default: the caller's)."""
    return Call(
        queries.SPAWN_TREE.format(schema=self.schema), {"session_id": session_id}, column=True
    )


def session_tree(self: StoreBase, session_id: str | None = None) -> Call[list[SessionNode]]:
    """The spawn tree of session_id (default: the caller's) with parents, in tree order."""
    return _rows(self, queries.SESSION_TREE, SessionNode, session_id=session_id)


def read_intake(self: StoreBase, *, limit: int = 100) -> Call[JSONObject]:
    """What the intake doorbell (LISTEN <schema>_intake, empty payloads) announces."""
    return _value(self, queries.READ_INTAKE, limit=limit)


def facts_read_uncrawled(
    self: StoreBase, *, key_prefix: str | None = None, limit: int = 20
) -> Call[JSONObject]:
    return _value(self, queries.FACTS_READ_UNCRAWLED, key_prefix=key_prefix, limit=limit)


def facts_set_crawled(
    self: StoreBase,
    *,
    scope_keys: Sequence[Mapping[str, Any]] | None = None,
    key_prefix: str | None = None,
    crawled: bool = True,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.FACTS_SET_CRAWLED,
        scope_keys=Jsonb([dict(k) for k in scope_keys]) if scope_keys is not None else None,
        key_prefix=key_prefix,
        crawled=crawled,
    )


def facts_stats(self: StoreBase) -> Call[JSONObject]:
    return _value(self, queries.FACTS_STATS)


def purge_tombstones(
    self: StoreBase, *, ttl_seconds: int | None = None, limit: int = 1000
) -> Call[JSONObject]:
    return _value(self, queries.PURGE_TOMBSTONES, ttl_seconds=ttl_seconds, limit=limit)


def tombstone_stats(self: StoreBase, ttl_seconds: int | None = None) -> Call[JSONObject]:
    return _value(self, queries.TOMBSTONE_STATS, ttl_seconds=ttl_seconds)


def purge_tombstones_before(
    self: StoreBase,
    cutoff: Any,
    *,
    include_unreconciled: bool = False,
    key_prefix: str | None = None,
    limit: int = 1000,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.PURGE_TOMBSTONES_BEFORE,
        cutoff=cutoff,
        include_unreconciled=include_unreconciled,
        key_prefix=key_prefix,
        limit=limit,
    )


def run_maintenance(self: StoreBase) -> Call[JSONObject]:
    return _value(self, queries.RUN_MAINTENANCE)


def prune_facts(
    self: StoreBase,
    keep: int,
    *,
    per: str = "session",
    keep_by: str = "newest",
    session_id: str | None = None,
    agent_id: str | None = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.PRUNE_FACTS,
        keep=keep,
        per=per,
        keep_by=keep_by,
        session_id=session_id,
        agent_id=agent_id,
    )


def set_setting(self: StoreBase, name: str, value: JSON) -> Call[JSONObject]:
    return _value(self, queries.SET_SETTING, name=name, value=Jsonb(value))


# -- knowledge ---------------------------------------------------------------------------


def define_predicate(
    self: StoreBase, name: str, cardinality: str, description: str = ""
) -> Call[JSONObject]:
    return _value(
        self,
        queries.DEFINE_PREDICATE,
        name=name,
        cardinality=cardinality,
        description=description,
    )


def ensure_entity(
    self: StoreBase,
    kind: str,
    name: str,
    *,
    aliases: Sequence[str] | None = None,
    external_ref: str | None = None,
) -> Call[int]:
    """The entity's id (created when new)."""
    return _value(
        self,
        queries.ENSURE_ENTITY,
        kind=kind,
        name=name,
        aliases=list(aliases) if aliases is not None else None,
        external_ref=external_ref,
    )


def ingest(
    self: StoreBase, episode: Mapping[str, Any], claims: Sequence[Mapping[str, Any]]
) -> Call[JSONObject]:
    return _value(
        self,
        queries.INGEST,
        episode=Jsonb(dict(episode)),
        claims=Jsonb([dict(c) for c in claims]),
    )


def as_of(
    self: StoreBase,
    subject: int,
    predicate: str,
    *,
    valid_at: Any = None,
    known_at: Any = None,
) -> Call[list[ClaimAsOf]]:
    return _rows(
        self,
        queries.AS_OF,
        ClaimAsOf,
        subject=subject,
        predicate=predicate,
        valid_at=valid_at,
        known_at=known_at,
    )


def claim_history(self: StoreBase, subject: int, predicate: str) -> Call[list[ClaimVersion]]:
    return _rows(self, queries.CLAIM_HISTORY, ClaimVersion, subject=subject, predicate=predicate)


def history(self: StoreBase, subject: int, predicate: str) -> Call[list[ClaimVersion]]:
    """Deprecated alias of ``claim_history`` (removed in the next release)."""
    return claim_history(self, subject, predicate)


def current_claims(self: StoreBase, subject: int) -> Call[list[CurrentClaim]]:
    return _rows(self, queries.CURRENT_CLAIMS, CurrentClaim, subject=subject)


def changes(self: StoreBase, since: Any, until: Any = None) -> Call[list[ClaimChange]]:
    return _rows(self, queries.CHANGES, ClaimChange, since=since, until=until)


def explain_claim(self: StoreBase, claim_id: int) -> Call[JSONObject]:
    return _value(self, queries.EXPLAIN_CLAIM, claim_id=claim_id)


def explain(self: StoreBase, claim_id: int) -> Call[JSONObject]:
    """Deprecated alias of ``explain_claim`` (removed in the next release)."""
    return explain_claim(self, claim_id)


def retract(self: StoreBase, claim_id: int) -> Call[JSONObject]:
    return _value(self, queries.RETRACT, claim_id=claim_id)


def restore(self: StoreBase, claim_id: int) -> Call[JSONObject]:
    return _value(self, queries.RESTORE, claim_id=claim_id)


def purge_source(self: StoreBase, source_kind: str, source_ref: str) -> Call[JSONObject]:
    return _value(self, queries.PURGE_SOURCE, source_kind=source_kind, source_ref=source_ref)


def verify_slot(self: StoreBase, subject: int, predicate: str) -> Call[list[SlotDifference]]:
    return _rows(self, queries.VERIFY_SLOT, SlotDifference, subject=subject, predicate=predicate)


def override(self: StoreBase, idempotency_key: str, claim: Mapping[str, Any]) -> Call[JSONObject]:
    return _value(self, queries.OVERRIDE, idempotency_key=idempotency_key, claim=Jsonb(dict(claim)))


# -- retrieval ---------------------------------------------------------------------------
# The query vector is passed through as given: SQL cannot embed text, and this client
# embeds nothing. The caller embeds the query with its own model (for example
# ``embedder.embed([query])`` of a ``pgfacts.retrieval`` Embedder, as pgfacts.demo does)
# and passes vector and model; without them search is lexical only. A reranker
# (``pgfacts.rerank``, off by default) re-orders the rows search returned, in the call's
# transaction: it adds and drops nothing.


def search(
    self: StoreBase,
    query: str,
    *,
    query_vector: Sequence[float] | None = None,
    model: str | None = None,
    limit: int = 20,
    scope: str = "accessible",
    item_kinds: Sequence[str] = ("fact", "claim"),
    key_prefix: str | None = None,
    tags: Sequence[str] | None = None,
    intent: str | None = None,
    valid_at: Any = None,
    known_at: Any = None,
    text_weight: float = 1.0,
    vector_weight: float = 1.0,
    reranker: Reranker | None = None,
    rerank_top_n: int | None = None,
) -> Call[list[SearchHit]]:
    call = _rows(
        self,
        queries.SEARCH,
        SearchHit,
        query=query,
        query_vector=_vector(query_vector),
        model=model,
        limit=limit,
        scope=scope,
        item_kinds=list(item_kinds),
        key_prefix=key_prefix,
        tags=list(tags) if tags is not None else None,
        intent=intent,
        valid_at=valid_at,
        known_at=known_at,
        text_weight=text_weight,
        vector_weight=vector_weight,
    )
    if not rerank.stage_runs(reranker, rerank_top_n):
        return call
    return replace(call, after=lambda hits: rerank.rerank_hits(query, hits, reranker, rerank_top_n))


def nearest(
    self: StoreBase,
    model: str,
    query_vector: Sequence[float],
    *,
    k: int = 10,
    item_kinds: Sequence[str] = ("fact", "claim"),
    scope: str = "accessible",
    valid_at: Any = None,
    known_at: Any = None,
    include_history: bool = False,
) -> Call[list[Neighbour]]:
    return _rows(
        self,
        queries.NEAREST,
        Neighbour,
        model=model,
        query_vector=_vector(query_vector),
        k=k,
        item_kinds=list(item_kinds),
        scope=scope,
        valid_at=valid_at,
        known_at=known_at,
        include_history=include_history,
    )


def detect_intent(self: StoreBase, query: str) -> Call[JSONObject]:
    return _value(self, queries.DETECT_INTENT, query=query)


def context_pack(
    self: StoreBase,
    query: str,
    *,
    token_budget: int = 2000,
    query_vector: Sequence[float] | None = None,
    model: str | None = None,
    scope: str = "accessible",
    limit: int = 20,
    chars_per_token: float = 4.0,
    include_candidates: bool = False,
    neighbours: int = 0,
    reranker: Reranker | None = None,
    rerank_top_n: int | None = None,
) -> Call[JSONObject]:
    call = _value(
        self,
        queries.CONTEXT_PACK,
        query=query,
        token_budget=token_budget,
        query_vector=_vector(query_vector),
        model=model,
        scope=scope,
        limit=limit,
        chars_per_token=chars_per_token,
        include_candidates=include_candidates,
        neighbours=neighbours,
    )
    if not rerank.stage_runs(reranker, rerank_top_n):
        return call
    return replace(call, after=lambda pack: rerank.rerank_pack(query, pack, reranker, rerank_top_n))


def find_keys(
    self: StoreBase, pattern: str, *, limit: int = 10, scope: str = "accessible"
) -> Call[list[KeyMatch]]:
    return _rows(self, queries.FIND_KEYS, KeyMatch, pattern=pattern, limit=limit, scope=scope)


def search_claims(
    self: StoreBase,
    query: str,
    *,
    min_confidence: float | None = None,
    include_history: bool = False,
    limit: int = 8,
) -> Call[list[ClaimHit]]:
    return _rows(
        self,
        queries.SEARCH_CLAIMS,
        ClaimHit,
        query=query,
        min_confidence=min_confidence,
        include_history=include_history,
        limit=limit,
    )


def similar_facts(
    self: StoreBase, scope_key: str, *, k: int = 8, model: str | None = None
) -> Call[list[SimilarFact]]:
    return _rows(self, queries.SIMILAR_FACTS, SimilarFact, scope_key=scope_key, k=k, model=model)


def search_skills(
    self: StoreBase,
    query: str,
    *,
    query_vector: Sequence[float] | None = None,
    model: str | None = None,
    limit: int = 8,
) -> Call[list[Skill]]:
    return _rows(
        self,
        queries.SEARCH_SKILLS,
        Skill,
        query=query,
        query_vector=_vector(query_vector),
        model=model,
        limit=limit,
    )


def register_embedding_model(self: StoreBase, model: str, dimension: int) -> Call[JSONObject]:
    return _value(self, queries.REGISTER_EMBEDDING_MODEL, model=model, dimension=dimension)


def set_embeddings(
    self: StoreBase, model: str, rows: Sequence[Mapping[str, Any]]
) -> Call[JSONObject]:
    return _value(self, queries.SET_EMBEDDINGS, model=model, rows=Jsonb([dict(r) for r in rows]))


def claim_embedding_work(self: StoreBase, batch_size: int = 64) -> Call[list[EmbeddingWork]]:
    return _rows(self, queries.CLAIM_EMBEDDING_WORK, EmbeddingWork, batch_size=batch_size)


def fail_embedding_work(
    self: StoreBase, items: Sequence[Mapping[str, Any]], error_code: int
) -> Call[JSONObject]:
    return _value(
        self,
        queries.FAIL_EMBEDDING_WORK,
        items=Jsonb([dict(i) for i in items]),
        error_code=error_code,
    )


def embedding_backlog(self: StoreBase) -> Call[JSONObject]:
    return _value(self, queries.EMBEDDING_BACKLOG)


def embedding_backlog_by_tenant(
    self: StoreBase, model: str | None = None
) -> Call[list[EmbeddingBacklog]]:
    return _rows(self, queries.EMBEDDING_BACKLOG_BY_TENANT, EmbeddingBacklog, model=model)


# -- graph -------------------------------------------------------------------------------
# Evidence is a list of fact scope keys (shared:<key>, session:<id>:<key>) and claim:<id>.


def _texts(values: Sequence[str] | None) -> list[str] | None:
    return list(values) if values is not None else None


def graph_upsert_node(
    self: StoreBase,
    kind: str,
    name: str,
    *,
    namespace: str | None = None,
    aliases: Sequence[str] | None = None,
    evidence: Sequence[str] | None = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.GRAPH_UPSERT_NODE,
        kind=kind,
        name=name,
        namespace=namespace,
        aliases=_texts(aliases),
        evidence=_texts(evidence),
    )


def graph_upsert_edge(
    self: StoreBase,
    from_key: str,
    to_key: str,
    predicate: str,
    *,
    namespace: str | None = None,
    confidence: float = 1.0,
    evidence: Sequence[str] | None = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.GRAPH_UPSERT_EDGE,
        from_key=from_key,
        to_key=to_key,
        predicate=predicate,
        namespace=namespace,
        confidence=confidence,
        evidence=_texts(evidence),
    )


def graph_merge_nodes(
    self: StoreBase,
    from_key: str,
    into_key: str,
    *,
    reason: str | None = None,
    namespace: str | None = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.GRAPH_MERGE_NODES,
        from_key=from_key,
        into_key=into_key,
        reason=reason,
        namespace=namespace,
    )


def graph_delete_node(
    self: StoreBase, node_key: str, *, namespace: str | None = None
) -> Call[JSONObject]:
    return _value(self, queries.GRAPH_DELETE_NODE, node_key=node_key, namespace=namespace)


def graph_delete_edge(
    self: StoreBase,
    from_key: str,
    to_key: str,
    predicate_key: str,
    *,
    namespace: str | None = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.GRAPH_DELETE_EDGE,
        from_key=from_key,
        to_key=to_key,
        predicate_key=predicate_key,
        namespace=namespace,
    )


def graph_remove_evidence(
    self: StoreBase, scope_key: str, *, namespace: str | None = None
) -> Call[JSONObject]:
    return _value(self, queries.GRAPH_REMOVE_EVIDENCE, scope_key=scope_key, namespace=namespace)


def graph_search_nodes(
    self: StoreBase,
    *,
    kind: str | None = None,
    name_like: str | None = None,
    namespace: str | None = None,
    seeds: Sequence[str] | None = None,
    depth: int = 1,
    limit: int = 50,
) -> Call[list[GraphNode]]:
    return _rows(
        self,
        queries.GRAPH_SEARCH_NODES,
        GraphNode,
        kind=kind,
        name_like=name_like,
        namespace=namespace,
        seeds=_texts(seeds),
        depth=depth,
        limit=limit,
    )


def graph_search_edges(
    self: StoreBase,
    *,
    predicate: str | None = None,
    predicate_key: str | None = None,
    from_key: str | None = None,
    to_key: str | None = None,
    min_confidence: float | None = None,
    namespace: str | None = None,
    limit: int = 50,
) -> Call[list[GraphEdge]]:
    return _rows(
        self,
        queries.GRAPH_SEARCH_EDGES,
        GraphEdge,
        predicate=predicate,
        predicate_key=predicate_key,
        from_key=from_key,
        to_key=to_key,
        min_confidence=min_confidence,
        namespace=namespace,
        limit=limit,
    )


def graph_neighbourhood(
    self: StoreBase,
    node_key: str | None = None,
    *,
    depth: int = 1,
    seeds: Sequence[str] | None = None,
    namespace: str | None = None,
    limit: int = 100,
    valid_at: Any = None,
    known_at: Any = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.GRAPH_NEIGHBOURHOOD,
        node_key=node_key,
        depth=depth,
        seeds=_texts(seeds),
        namespace=namespace,
        limit=limit,
        valid_at=valid_at,
        known_at=known_at,
    )


def graph_stats(self: StoreBase, namespace: str | None = None) -> Call[JSONObject]:
    return _value(self, queries.GRAPH_STATS, namespace=namespace)


# -- the graph's AGE projection ----------------------------------------------------------


def graph_projection_name(self: StoreBase) -> Call[str]:
    return _value(self, queries.GRAPH_PROJECTION_NAME)


def graph_cypher(
    self: StoreBase, name: str, params: Mapping[str, JSON] | None = None
) -> Call[list[JSONObject]]:
    return _value(
        self, queries.GRAPH_CYPHER, name=name, params=Jsonb(dict(params) if params else {})
    )


def sync_graph_projection(self: StoreBase, max_changes: int = 10000) -> Call[JSONObject]:
    return _value(self, queries.SYNC_GRAPH_PROJECTION, max_changes=max_changes)


def rebuild_graph_projection(self: StoreBase) -> Call[JSONObject]:
    return _value(self, queries.REBUILD_GRAPH_PROJECTION)


def verify_graph_projection(self: StoreBase) -> Call[list[ProjectionDifference]]:
    return _rows(self, queries.VERIFY_GRAPH_PROJECTION, ProjectionDifference)


def graph_projection_backlog(self: StoreBase) -> Call[list[GraphProjection]]:
    return _rows(self, queries.GRAPH_PROJECTION_BACKLOG, GraphProjection)


# -- operations: the maintenance jobs and pg_cron ----------------------------------------


def maintenance_jobs(self: StoreBase) -> Call[JSONObject]:
    return _value(self, queries.MAINTENANCE_JOBS)


def schedule_maintenance(
    self: StoreBase, schedules: Mapping[str, str] | None = None
) -> Call[JSONObject]:
    return _value(
        self,
        queries.SCHEDULE_MAINTENANCE,
        schedules=None if schedules is None else Jsonb(dict(schedules)),
    )


def unschedule_maintenance(self: StoreBase) -> Call[JSONObject]:
    return _value(self, queries.UNSCHEDULE_MAINTENANCE)


def sync_graph_projections(self: StoreBase, max_changes: int = 10000) -> Call[JSONObject]:
    return _value(self, queries.SYNC_GRAPH_PROJECTIONS, max_changes=max_changes)


def apply_retention_everywhere(self: StoreBase, batch: int = 100) -> Call[JSONObject]:
    return _value(self, queries.APPLY_RETENTION_EVERYWHERE, batch=batch)


# -- the pipeline's outbox ---------------------------------------------------------------


def record_memory(
    self: StoreBase,
    source_kind: str,
    source_ref: str,
    lines: Sequence[Mapping[str, str]],
    occurred_at: datetime | None = None,
    trust: str = "agent",
    content_hash: str | None = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.RECORD_MEMORY,
        source_kind=source_kind,
        source_ref=source_ref,
        lines=Jsonb([dict(line) for line in lines]),
        occurred_at=occurred_at,
        trust=trust,
        content_hash=content_hash,
    )


def force_extract(self: StoreBase, memory_id: int) -> Call[int]:
    return _value(self, queries.FORCE_EXTRACT, memory_id=memory_id)


def extraction_status(self: StoreBase, event_id: int) -> Call[JSONObject]:
    return _value(self, queries.EXTRACTION_STATUS, event_id=event_id)


def extraction_events(
    self: StoreBase, state: str | None = None, limit: int = 50
) -> Call[list[JSONObject]]:
    return _value(self, queries.EXTRACTION_EVENTS, state=state, limit=limit)


def claim_extraction_work(self: StoreBase, batch_size: int = 10) -> Call[list[ExtractionWork]]:
    return _rows(self, queries.CLAIM_EXTRACTION_WORK, ExtractionWork, batch_size=batch_size)


def complete_extraction(
    self: StoreBase,
    event_id: int,
    lease_token: UUID | str,
    extractor: str,
    claims: Sequence[Mapping[str, JSON]],
) -> Call[JSONObject]:
    return _value(
        self,
        queries.COMPLETE_EXTRACTION,
        event_id=event_id,
        lease_token=str(lease_token),
        extractor=extractor,
        claims=Jsonb([dict(claim) for claim in claims]),
    )


def fail_extraction(
    self: StoreBase,
    event_id: int,
    lease_token: UUID | str,
    error_code: int,
    error: str | None = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.FAIL_EXTRACTION,
        event_id=event_id,
        lease_token=str(lease_token),
        error_code=error_code,
        error=error,
    )


def release_extraction(self: StoreBase, event_id: int, lease_token: UUID | str) -> Call[JSONObject]:
    return _value(self, queries.RELEASE_EXTRACTION, event_id=event_id, lease_token=str(lease_token))


def extraction_backlog(self: StoreBase) -> Call[list[ExtractionBacklog]]:
    return _rows(self, queries.EXTRACTION_BACKLOG, ExtractionBacklog)


def apply_retention(self: StoreBase, limit: int = 100) -> Call[JSONObject]:
    return _value(self, queries.APPLY_RETENTION, limit=limit)


def retention_backlog(self: StoreBase) -> Call[list[RetentionDue]]:
    return _rows(self, queries.RETENTION_BACKLOG, RetentionDue)


def extraction_health(self: StoreBase, tenant: str | None = None) -> Call[JSONObject]:
    return _value(self, queries.EXTRACTION_HEALTH, tenant=tenant)


def validate_extraction(
    self: StoreBase, context: Mapping[str, JSON], output: Mapping[str, JSON]
) -> Call[JSONObject]:
    return _value(
        self, queries.VALIDATE_EXTRACTION, context=Jsonb(dict(context)), output=Jsonb(dict(output))
    )


def extraction_context(self: StoreBase, memory_id: int, max_entities: int = 50) -> Call[JSONObject]:
    return _value(self, queries.EXTRACTION_CONTEXT, memory_id=memory_id, max_entities=max_entities)


def extraction_prompt(self: StoreBase, context: Mapping[str, JSON]) -> Call[JSONObject]:
    return _value(self, queries.EXTRACTION_PROMPT, context=Jsonb(dict(context)))


def parse_extraction_reply(self: StoreBase, reply: str) -> Call[JSONObject]:
    return _value(self, queries.PARSE_EXTRACTION_REPLY, reply=reply)


def complete_extractions(
    self: StoreBase, extractor: str, results: Sequence[Mapping[str, JSON]]
) -> Call[list[JSONObject]]:
    return _value(
        self,
        queries.COMPLETE_EXTRACTIONS,
        extractor=extractor,
        results=Jsonb([dict(r) for r in results]),
    )


# -- governance --------------------------------------------------------------------------


def audit(
    self: StoreBase,
    since: datetime | str | None = None,
    until: datetime | str | None = None,
    operation: str | None = None,
    target: str | None = None,
    agent_id: str | None = None,
    session_id: str | None = None,
    limit: int = 100,
) -> Call[list[AuditEntry]]:
    return _rows(
        self,
        queries.AUDIT,
        AuditEntry,
        since=since,
        until=until,
        operation=operation,
        target=target,
        agent_id=agent_id,
        session_id=session_id,
        limit=limit,
    )


def purge_audit_log(self: StoreBase, before: datetime | str | None = None) -> Call[JSONObject]:
    return _value(self, queries.PURGE_AUDIT_LOG, before=before)


def redaction_placeholders(self: StoreBase) -> Call[JSONObject]:
    return _value(self, queries.REDACTION_PLACEHOLDERS)


def set_redaction_placeholders(
    self: StoreBase, placeholders: Sequence[str] | None
) -> Call[JSONObject]:
    """The tenant's placeholders refused as stored content; ``None``: the six defaults."""
    return _value(
        self,
        queries.SET_REDACTION_PLACEHOLDERS,
        placeholders=list(placeholders) if placeholders is not None else None,
    )


def review_queue(self: StoreBase, limit: int = 50) -> Call[list[ReviewCandidate]]:
    return _rows(self, queries.REVIEW_QUEUE, ReviewCandidate, limit=limit)


def review_candidate(self: StoreBase, candidate_id: int) -> Call[JSONObject]:
    return _value(self, queries.REVIEW_CANDIDATE, candidate_id=candidate_id)


def approve_claim(self: StoreBase, candidate_id: int, note: str | None = None) -> Call[JSONObject]:
    return _value(self, queries.APPROVE_CLAIM, candidate_id=candidate_id, note=note)


def reject_claim(self: StoreBase, candidate_id: int, note: str | None = None) -> Call[JSONObject]:
    return _value(self, queries.REJECT_CLAIM, candidate_id=candidate_id, note=note)


def lift_rejection(self: StoreBase, rejection_id: int) -> Call[JSONObject]:
    return _value(self, queries.LIFT_REJECTION, rejection_id=rejection_id)


def review_key_prefixes(self: StoreBase) -> Call[JSONObject]:
    return _value(self, queries.REVIEW_KEY_PREFIXES)


def set_review_key_prefixes(self: StoreBase, prefixes: Sequence[str]) -> Call[JSONObject]:
    return _value(self, queries.SET_REVIEW_KEY_PREFIXES, prefixes=list(prefixes))


def fact_review_queue(self: StoreBase, limit: int = 50) -> Call[list[JSONObject]]:
    return _value(self, queries.FACT_REVIEW_QUEUE, limit=limit)


def approve_fact(self: StoreBase, candidate_id: int, note: str | None = None) -> Call[JSONObject]:
    return _value(self, queries.APPROVE_FACT, candidate_id=candidate_id, note=note)


def reject_fact(self: StoreBase, candidate_id: int, note: str | None = None) -> Call[JSONObject]:
    return _value(self, queries.REJECT_FACT, candidate_id=candidate_id, note=note)


# -- transfer ----------------------------------------------------------------------------


def export_tenant(
    self: StoreBase, embeddings: bool = False, audit: bool = False
) -> Call[list[str]]:
    """The export's lines in memory; ``pgfacts.transfer.export_tenant`` streams them."""
    return Call(
        queries.EXPORT_TENANT.format(schema=self.schema),
        {"embeddings": embeddings, "audit": audit},
        column=True,
    )


def import_open(
    self: StoreBase, file_sha256: str, first_line: str | None, file_name: str | None = None
) -> Call[JSONObject]:
    return _value(
        self,
        queries.IMPORT_OPEN,
        file_sha256=file_sha256,
        first_line=first_line,
        file_name=file_name,
    )


def import_staged(self: StoreBase, first_line: int = 1, last_part: bool = True) -> Call[JSONObject]:
    return _value(self, queries.IMPORT_STAGED, first_line=first_line, last_part=last_part)


def import_batch(
    self: StoreBase,
    batch_size: int | None = None,
    rejects_through: int | None = None,
    rejects_bytes: int | None = None,
) -> Call[JSONObject]:
    return _value(
        self,
        queries.IMPORT_BATCH,
        batch_size=batch_size,
        rejects_through=rejects_through,
        rejects_bytes=rejects_bytes,
    )


def import_abandon(self: StoreBase) -> Call[JSONObject]:
    return _value(self, queries.IMPORT_ABANDON)
