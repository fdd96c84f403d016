"""Typed rows: one frozen dataclass per SQL API function that returns a table.

A dataclass here is only a view of its function's result columns: the same names, in the
same order, with the Python type psycopg reads each column as (``X | None`` where the SQL
can leave it NULL). Rows are built by column name (psycopg's ``class_row``), never by
position, so a column SQL adds or renames fails loudly instead of shifting the others;
``tests/test_python_rows.py`` compares every class with ``pg_get_function_result``.

Functions that return one ``jsonb`` document (``ingest``, ``context_pack``, ...) keep
returning it as a dict: its keys are documented in the function's COMMENT and in
docs/sql-api.md, not declared in the catalog, so a dataclass would be an unchecked copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

JSON = Any
"""A jsonb value as psycopg decodes it: dict, list, str, int, float, bool or None."""

JSONObject = dict[str, Any]
"""A jsonb object: what the functions returning one JSON document return."""


# -- working memory ----------------------------------------------------------------------


@dataclass(frozen=True)
class Fact:
    """A row of ``read_facts`` and ``read_facts_by_scope_keys``."""

    scope_key: str
    key: str
    value: JSON
    shared: bool
    fact_session_id: str | None  # None for a shared fact
    fact_agent_id: str | None
    fact_tags: list[str]
    created_at: datetime
    updated_at: datetime
    etag: int


@dataclass(frozen=True)
class FactVersion:
    """A row of ``fact_history``: one version of a fact, oldest first."""

    scope_key: str
    value: JSON
    fact_tags: list[str]
    fact_agent_id: str | None
    etag: int
    deleted: bool
    known_from: datetime
    known_to: datetime | None  # None for the current version
    current: bool


# -- knowledge ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaimAsOf:
    """A row of ``as_of``: a claim true at valid_at, as believed at known_at."""

    claim_id: int
    object_value: JSON
    object_entity_id: int | None
    claim_text: str | None
    confidence: float
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime


@dataclass(frozen=True)
class ClaimVersion:
    """A row of ``claim_history`` (and its deprecated alias ``history``)."""

    claim_id: int
    object_value: JSON
    object_entity_id: int | None
    claim_text: str | None
    confidence: float
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime
    retired_at: datetime | None
    retired_reason: str | None
    superseded_by: int | None
    copied_from: int | None


@dataclass(frozen=True)
class CurrentClaim:
    """A row of ``current_claims``: a claim of the subject believed and valid now."""

    claim_id: int
    predicate: str
    object_value: JSON
    object_entity_id: int | None
    claim_text: str | None
    confidence: float
    valid_from: datetime | None
    valid_to: datetime | None


@dataclass(frozen=True)
class ClaimChange:
    """A row of ``changes``: a claim recorded or retired in the window."""

    claim_id: int
    subject_id: int
    predicate: str
    object_value: JSON
    change: str
    changed_at: datetime
    retired_reason: str | None


@dataclass(frozen=True)
class SlotDifference:
    """A row of ``verify_slot``: a live row the replay of the slot would not produce (or
    would produce differently)."""

    difference: str
    claim: JSON


# -- retrieval ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchHit:
    """A row of ``search``: a fact or a claim, best first."""

    item_kind: str
    item_id: int
    ref: str
    key: str  # a fact's key, a claim's predicate
    content: str
    value: JSON
    current: bool
    stale: bool
    score: float
    text_rank: int | None  # None: the lexical list did not hold the row
    vector_rank: int | None
    similarity: float | None
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime | None
    retired_at: datetime | None


@dataclass(frozen=True)
class ClaimHit:
    """A row of ``search_claims``."""

    claim_id: int
    subject_id: int
    predicate: str
    object_value: JSON
    claim_text: str | None
    confidence: float
    rank: float
    current: bool
    stopped_believed_at: datetime | None


@dataclass(frozen=True)
class Neighbour:
    """A row of ``nearest``: a fact or claim by cosine similarity to the query vector."""

    item_kind: str
    item_id: int
    ref: str
    content: str
    similarity: float


@dataclass(frozen=True)
class KeyMatch:
    """A row of ``find_keys``: a key like the pattern (trigram similarity)."""

    scope_key: str
    key: str
    similarity: float


@dataclass(frozen=True)
class SimilarFact:
    """A row of ``similar_facts``: a fact like the anchor, by embedding or by text."""

    similar_scope_key: str
    key: str
    value: JSON
    similarity: float | None
    score: float
    mode: str


@dataclass(frozen=True)
class Skill:
    """A row of ``search_skills``: a shared fact under ``skills/``."""

    key: str
    name: str | None
    description: str | None
    score: float


@dataclass(frozen=True)
class EmbeddingWork:
    """A row of ``claim_embedding_work``: text to embed, with the hash to hand back."""

    item_kind: str
    item_id: int
    content_hash: str
    content: str
    retry: bool


# -- graph -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GraphNode:
    """A row of ``graph_search_nodes``: a node with the evidence the caller may see."""

    node_key: str
    node_kind: str
    node_name: str
    aliases: list[str]
    node_namespace: str | None  # None: the default namespace
    distance: int | None  # edges from the nearest seed; None without seeds
    evidence: list[str]  # scope keys and claim:<id> the caller may read
    stale_evidence: list[str]  # of those, facts deleted since, claims no longer believed
    created_by: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class GraphEdge:
    """A row of ``graph_search_edges``: an edge with the evidence the caller may see."""

    edge_from_key: str
    edge_predicate: str
    edge_predicate_key: str
    edge_to_key: str
    confidence: float
    observations: int
    edge_namespace: str | None
    evidence: list[str]
    stale_evidence: list[str]
    asserted_by: list[str]
    first_seen: datetime
    last_seen: datetime


@dataclass(frozen=True)
class ProjectionDifference:
    """A row of ``verify_graph_projection``: a node or edge the AGE projection holds
    differently from the graph tables (or the graph itself, entity ``graph``)."""

    entity: str
    entity_id: int | None
    difference: str


@dataclass(frozen=True)
class GraphProjection:
    """A row of ``graph_projection_backlog``: one tenant's AGE projection."""

    tenant: str
    graph_name: str
    state: str
    pending: int
    oldest_change: datetime | None
    synced_at: datetime | None
    last_lag_seconds: float | None


@dataclass(frozen=True, slots=True)
class ExtractionWork:
    """A row of ``claim_extraction_work``: a leased event and the memory to extract."""

    tenant: str
    event_id: int
    memory_id: int
    lease_token: UUID
    attempt: int
    lease_expires_at: datetime
    source_kind: str
    source_ref: str
    content_hash: str
    occurred_at: datetime
    trust: str
    lines: JSON


@dataclass(frozen=True, slots=True)
class ExtractionBacklog:
    """A row of ``extraction_backlog``: one tenant's unfinished extraction events."""

    tenant: str
    due: int
    ready: int
    leased: int
    failed: int
    oldest_due: datetime | None


@dataclass(frozen=True, slots=True)
class RetentionDue:
    """A row of ``retention_backlog``: one tenant with items older than its retention."""

    tenant: str
    episodes_due: int
    memories_due: int


@dataclass(frozen=True, slots=True)
class SessionNode:
    """A row of ``session_tree``: one session of a spawn tree, in tree order."""

    tree_session_id: str
    parent_session_id: str | None
    depth: int
    agent_id: str | None
    created_at: datetime | None  # None: the session was never registered
    ended_at: datetime | None
    deleted_at: datetime | None


@dataclass(frozen=True, slots=True)
class EmbeddingBacklog:
    """A row of ``embedding_backlog_by_tenant``: one tenant's embedding queue."""

    tenant: str
    queued: int
    retry: int
    failed: int
    oldest_enqueued: datetime | None


# -- governance --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """A row of ``audit``: one change to memory, who made it and when (the instant the
    change carries), its before and after (content as sha256 digests)."""

    audit_id: int
    at: datetime
    audit_operation: str
    audit_target: str
    db_role: str
    audit_session_id: str | None
    audit_agent_id: str | None
    audit_agent_kind: str | None
    before: JSON
    after: JSON


@dataclass(frozen=True, slots=True)
class ReviewCandidate:
    """A row of ``review_queue``: a claim held for human review, its evidence (quote,
    locator, the episode's source, trust and extractor) and why it was held."""

    candidate_id: int
    held_at: datetime
    held_because: str
    subject_id: int
    predicate: str
    object: JSON
    object_entity_id: int | None
    text: str | None
    confidence: float
    valid_from: datetime
    valid_to: datetime | None
    quote: str | None
    locator: JSON
    episode_id: int
    source_kind: str
    source_ref: str
    trust: str
    extractor: str | None


# The table-returning SQL API functions and the row each returns (spawn_tree returns
# SETOF text: a list of session ids).
ROW_OF_FUNCTION: dict[str, type] = {
    "read_facts": Fact,
    "session_tree": SessionNode,
    "read_facts_by_scope_keys": Fact,
    "read_facts_page": Fact,
    "fact_history": FactVersion,
    "as_of": ClaimAsOf,
    "claim_history": ClaimVersion,
    "history": ClaimVersion,
    "current_claims": CurrentClaim,
    "changes": ClaimChange,
    "verify_slot": SlotDifference,
    "search": SearchHit,
    "search_claims": ClaimHit,
    "nearest": Neighbour,
    "find_keys": KeyMatch,
    "similar_facts": SimilarFact,
    "search_skills": Skill,
    "claim_embedding_work": EmbeddingWork,
    "graph_search_nodes": GraphNode,
    "graph_search_edges": GraphEdge,
    "verify_graph_projection": ProjectionDifference,
    "graph_projection_backlog": GraphProjection,
    "claim_extraction_work": ExtractionWork,
    "extraction_backlog": ExtractionBacklog,
    "embedding_backlog_by_tenant": EmbeddingBacklog,
    "audit": AuditEntry,
    "review_queue": ReviewCandidate,
    "retention_backlog": RetentionDue,
}
