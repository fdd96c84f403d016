"""Negative evals (issue 25): each case names what must NOT come back, and from which read
path, for which reader.

One world is written once (module_db; the cases only read): tenant t1 holds a claim that
was retracted, a value a later one superseded, a source that was purged, a fact purged
after its deletion, a tombstoned fact, another spawn tree's session fact, a claim whose
only source expired, and a fact write held for review; tenant t2
holds look-alikes of t1's. Every item carries a word nothing else holds (its marker) and
the refs that name it. A case runs one read path as one reader and fails when a row of the
answer names the item, except that a superseded value may come back marked stale or not
current (the rule asks only that it never answers as the present).

Which paths an item is checked on is part of the rule: a tombstone still has a history
(fact_history), a retraction is still explained (explain_claim) and listed by the change
feed (changes), which exist to show them; an expired claim still is to the tuner until the
purge. Everything else is checked everywhere.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts.client import Context
from pgfacts.retrieval import HashEmbedder, run_embedding_queue

from .catalog import install_schemas
from .conftest import SCHEMA, Database
from .support.caller import Caller

# One worker writes the world once and runs every case (a world per worker would triple
# the setup).
pytestmark = pytest.mark.xdist_group("negative_evals")

EMBEDDER = HashEmbedder(64)
MODEL = EMBEDDER.model


@dataclass
class Item:
    name: str
    marker: str  # a word only this item's text holds (never its key: the audit names keys)
    refs: list[str] = field(default_factory=list)  # claim:<id>, shared:<key>, ...
    stale_allowed: bool = False  # may come back marked stale / not current

    def named_by(self, row: dict[str, Any], by_ref: bool = True) -> bool:
        text = json.dumps(without_stale_evidence(row), default=str).lower()
        if self.marker in text:
            return True
        return by_ref and any(
            re.search(re.escape(ref) + r"(?![0-9A-Za-z_/-])", text) for ref in self.refs
        )


def without_stale_evidence(row: dict[str, Any]) -> dict[str, Any]:
    """A graph row's evidence, less what its stale_evidence marks as no longer holding (a
    tombstoned fact, a claim no longer believed): marked, as a stale search hit is."""
    if "stale_evidence" not in row:
        return row
    stale = set(row.get("stale_evidence") or [])
    kept = {k: v for k, v in row.items() if k != "stale_evidence"}
    kept["evidence"] = [e for e in row.get("evidence") or [] if e not in stale]
    return kept


class World:
    """The scenario. t1: Ana lives in qzxoldtown (2010), then Lisbon (2020): qzxoldtown is
    superseded. Bo works at Acme (2015), then at qzxretracto (2021), retracted. Bo lives in
    qzxpurgeville per source gossip/1, purged. Facts kb/visible, kb/doomed-tomb (deleted),
    kb/doomed-purge (deleted, then purged), and session b's notes/private-b (another
    spawn tree than the readers' a / a1). Graph nodes cite the items as evidence. t2: a
    shared fact, an Ana claim and a graph node with the word qzxothertenant."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.items: dict[str, Item] = {}
        self.answers: dict[tuple[str, str], list[dict[str, Any]]] = {}  # answer_of's
        op = Caller(db, tenant="t1")
        other = Caller(db, tenant="t2")
        for caller in (op, other):
            caller.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
            caller.one("SELECT pgfacts.define_predicate('works_at', 'one')")
            caller.one("SELECT pgfacts.define_predicate('likes', 'many')")
            caller.one("SELECT pgfacts.register_embedding_model(%s, 64)", MODEL)
        self.ana, self.bo = op.entity("Ana"), op.entity("Bo")
        self.t2_ana = other.entity("Ana")

        def claim(
            caller: Caller, ref: str, subject: int, predicate: str, value: str, year: int, name: str
        ) -> int:
            outcome = caller.ingest(
                ref,
                [
                    {
                        "subject": subject,
                        "predicate": predicate,
                        "object": value,
                        "valid_from": f"{year}-01-01",
                        "text": f"{name} {predicate} {value}",
                    }
                ],
            )
            return int(outcome["outcomes"][0]["claim_id"])

        old = claim(op, "ana/1", self.ana, "lives_in", "qzxoldtown", 2010, "Ana")
        self.lisbon = claim(op, "ana/2", self.ana, "lives_in", "Lisbon", 2020, "Ana")
        claim(op, "bo/1", self.bo, "works_at", "Acme", 2015, "Bo")
        retracted = claim(op, "bo/2", self.bo, "works_at", "qzxretracto", 2021, "Bo")
        purged = claim(op, "gossip/1", self.bo, "lives_in", "qzxpurgeville", 2019, "Bo")
        t2_claim = claim(other, "t2/1", self.t2_ana, "lives_in", "qzxothertenant", 2020, "Ana")
        # A claim whose only source expires two seconds from now (waited for below).
        lapsing = op.one(
            "SELECT pgfacts.ingest(%s, %s)",
            Jsonb(
                {
                    "source_kind": "note",
                    "source_ref": "bo/lapsing",
                    "content_hash": "h",
                    "ttl_seconds": 2,
                }
            ),
            Jsonb(
                [
                    {
                        "subject": self.bo,
                        "predicate": "likes",
                        "object": "qzxlapsedclaim",
                        "valid_from": "2022-01-01",
                        "text": "Bo likes qzxlapsedclaim",
                    }
                ]
            ),
        )
        expired_claim = int(lapsing["outcomes"][0]["claim_id"])
        claim_expires = op.one("SELECT clock_timestamp() + interval '2.2 seconds'")

        op.fact("kb/visible", "team notes: the Lisbon office")
        op.fact("kb/doomed-tomb", "qzxtombstone plan")
        op.fact("kb/doomed-purge", "qzxforcepurged secret")
        other.fact("kb/t2-note", "qzxothertenant shared note")
        tree_b = Caller(db, tenant="t1", kind="agent", session="b")
        tree_b.fact("notes/private-b", "qzxothertree private plan", shared=False)
        own_tree = Caller(db, tenant="t1", kind="agent", session="a")
        own_tree.fact("notes/own", "own tree plan for Lisbon", shared=False)

        crawler = Caller(db, tenant="t1", kind="crawler")
        crawler(
            "graph_upsert_node",
            {
                "kind": "person",
                "name": "Ana",
                "evidence": [
                    "shared:kb/visible",
                    f"claim:{self.lisbon}",
                    "shared:kb/doomed-purge",
                    "session:b:notes/private-b",
                ],
            },
        )
        crawler(
            "graph_upsert_node",
            {
                "kind": "person",
                "name": "Bo",
                "evidence": [
                    f"claim:{retracted}",
                    f"claim:{purged}",
                    f"claim:{expired_claim}",
                    "shared:kb/doomed-tomb",
                ],
            },
        )
        Caller(db, tenant="t2", kind="crawler")(
            "graph_upsert_node", {"kind": "person", "name": "qzxothertenant"}
        )
        for tenant in ("t1", "t2"):
            run_embedding_queue(
                EMBEDDER, Context(tenant=tenant, agent_kind="operator"), dsn=db.dsn()
            )

        # Held for review: a third party's claims wait as candidates (review_below_trust 2).
        op.one("SELECT pgfacts.set_setting('review_below_trust', '2')")
        held = op.ingest(
            "rumour/1",
            [
                {
                    "subject": self.bo,
                    "predicate": "works_at",
                    "object": "qzxcandidate",
                    "valid_from": "2023-01-01",
                }
            ],
            trust="third_party",
        )
        rejected = op.ingest(
            "rumour/2",
            [
                {
                    "subject": self.ana,
                    "predicate": "works_at",
                    "object": "qzxrejected",
                    "valid_from": "2023-01-01",
                }
            ],
            trust="third_party",
        )
        assert held["outcomes"][0]["outcome"] == "candidate"
        reviewer = Caller(db, tenant="t1", kind="reviewer")
        reviewer.one("SELECT pgfacts.reject_claim(%s)", rejected["outcomes"][0]["candidate_id"])
        again = op.ingest(
            "notes/9",
            [
                {
                    "subject": self.ana,
                    "predicate": "works_at",
                    "object": "qzxrejected",
                    "valid_from": "2023-06-01",
                }
            ],
        )
        assert again["outcomes"][0]["reason"] == "review_rejected", again
        # Refused writes: a redaction placeholder, and a write of an incognito run.
        refusals = {
            "PF010": (
                "SELECT pgfacts.store_fact('kb/contact', %s, shared => true)",
                Jsonb("qzxredacted mail: [EMAIL]"),
            ),
            "PF011": (
                "SELECT pgfacts.store_fact('kb/incognito', %s, shared => true)",
                Jsonb("qzxincognito plan"),
            ),
        }
        incognito = Caller(
            db,
            tenant="t1",
            kind="agent",
            session="a1",
            parent="a",
            local_settings={"pgfacts.memory_scope": "none"},
        )
        for code, (sql, value) in refusals.items():
            writer = incognito if code == "PF011" else op
            assert writer.refused(sql, value) == code

        # A task agent's write under a review key prefix: held, never in memory.
        op.one("SELECT pgfacts.set_review_key_prefixes('{kb/reviewed/}')")
        held_fact = own_tree.one(
            "SELECT pgfacts.store_fact('kb/reviewed/plan', %s, shared => true)",
            Jsonb("qzxheldfact plan"),
        )
        assert held_fact["held"] is True, held_fact
        # A fact that expires: stored with a one-second ttl, past it before any case reads.
        expiring = op.one(
            "SELECT pgfacts.store_fact('kb/expiring', %s, shared => true, ttl_seconds => 1)",
            Jsonb("qzxexpired plan"),
        )
        assert expiring["stored"]
        expires = op.one("SELECT clock_timestamp() + interval '1.2 seconds'")

        # The changes that make each item one that must not come back.
        assert op.one("SELECT pgfacts.retract(%s)", retracted)["rows"] == 1
        op.one("SELECT pgfacts.delete_fact('kb/doomed-purge', shared => true)")
        # The crawler reconciles the tombstone (its graph evidence goes), then the purge.
        crawler.one("SELECT pgfacts.graph_remove_evidence('shared:kb/doomed-purge')")
        crawler.one(
            "SELECT pgfacts.facts_set_crawled(scope_keys => %s::jsonb)",
            json.dumps([{"scopeKey": "shared:kb/doomed-purge"}]),
        )
        purge = op.one("SELECT pgfacts.purge_tombstones_before(clock_timestamp())")
        assert purge == {"purged": 1}
        op.one("SELECT pgfacts.purge_source('note', 'gossip/1')")
        op.one("SELECT pgfacts.delete_fact('kb/doomed-tomb', shared => true)")
        run_embedding_queue(EMBEDDER, Context(tenant="t1", agent_kind="operator"), dsn=db.dsn())

        def item(name: str, marker: str, refs: list[str], **kw: Any) -> None:
            self.items[name] = Item(name, marker, refs, **kw)

        item("retracted", "qzxretracto", [f"claim:{retracted}"])
        item("superseded", "qzxoldtown", [f"claim:{old}"], stale_allowed=True)
        item("purged source", "qzxpurgeville", [f"claim:{purged}"])
        item("purged fact", "qzxforcepurged", ["shared:kb/doomed-purge"])
        item("tombstone", "qzxtombstone", ["shared:kb/doomed-tomb"])
        item("other tree", "qzxothertree", ["session:b:notes/private-b"])
        item("expired fact", "qzxexpired", ["shared:kb/expiring"])
        item("expired claim", "qzxlapsedclaim", [f"claim:{expired_claim}"])
        item("unreviewed candidate", "qzxcandidate", [])
        item("held fact", "qzxheldfact", ["shared:kb/reviewed/plan"])
        item("rejected candidate", "qzxrejected", [])
        item("redaction placeholder", "qzxredacted", ["shared:kb/contact"])
        item("incognito write", "qzxincognito", ["shared:kb/incognito"])
        item("other tenant", "qzxothertenant", [f"claim:{t2_claim}", "shared:kb/t2-note"])
        op.one(
            "SELECT pg_sleep(greatest(0, "
            "extract(epoch FROM greatest(%s, %s) - clock_timestamp())))",
            expires,
            claim_expires,
        )
        self.claim_ids = {
            "retracted": retracted,
            "purged source": purged,
            "other tenant": t2_claim,
            "expired claim": expired_claim,
        }
        self.scope_keys = [
            ref for i in self.items.values() for ref in i.refs if not ref.startswith("claim:")
        ] + ["shared:kb/visible"]

    def vector(self, text: str) -> str:
        return "[" + ",".join(f"{x:.6f}" for x in EMBEDDER.embed([text])[0]) + "]"


# The readers: a task agent in session a1 of tree a (a child of a) on the app server's
# login, the same agent on a login bound to tenant t1 (tests/conftest.py), and the tuner.
READERS: dict[str, dict[str, Any]] = {
    "agent": {"kind": "agent", "session": "a1", "parent": "a"},
    "bound agent": {"login": "bound", "kind": "agent", "session": "a1", "parent": "a"},
    "tuner": {"kind": "tuner"},
}


def rows(reader: Caller, sql: str, *params: Any) -> list[dict[str, Any]]:
    """A table function's rows as JSON objects."""
    return list(reader.one(f"SELECT coalesce(jsonb_agg(to_jsonb(r)), '[]') FROM {sql} r", *params))


def value_rows(answer: Any, key: str | None = None) -> list[dict[str, Any]]:
    if answer is None:
        return []
    found = answer.get(key, []) if key else answer
    return list(found) if isinstance(found, list) else [found]


Path = Callable[[World, Caller, Item], list[dict[str, Any]]]


def _search(intent: str | None, hybrid: bool = False) -> Path:
    def run(world: World, reader: Caller, item: Item) -> list[dict[str, Any]]:
        if hybrid:
            return rows(
                reader,
                "pgfacts.search(%s, query_vector => %s::vector, model => %s, intent => %s)",
                item.marker,
                world.vector(item.marker),
                MODEL,
                intent,
            )
        return rows(reader, "pgfacts.search(%s, intent => %s)", item.marker, intent)

    return run


def _nearest(include_history: bool) -> Path:
    def run(world: World, reader: Caller, item: Item) -> list[dict[str, Any]]:
        return rows(
            reader,
            "pgfacts.nearest(%s, %s::vector, k => 100, include_history => %s)",
            MODEL,
            world.vector(item.marker),
            include_history,
        )

    return run


def _graph_neighbourhood(world: World, reader: Caller, item: Item) -> list[dict[str, Any]]:
    found = []
    for name in ("Ana", "Bo", "qzxothertenant"):
        nodes = rows(reader, "pgfacts.graph_search_nodes(name_like => %s)", name.lower())
        for node in nodes:
            answer = reader.one("SELECT pgfacts.graph_neighbourhood(%s)", node["node_key"])
            found += answer.get("nodes", [])
    return found


def _claims_of_subjects(fn: str) -> Path:
    def run(world: World, reader: Caller, item: Item) -> list[dict[str, Any]]:
        found = []
        for subject in (world.ana, world.bo, world.t2_ana):
            if fn == "current_claims":
                found += rows(reader, "pgfacts.current_claims(%s)", subject)
            else:
                for predicate in ("lives_in", "works_at", "likes"):
                    found += rows(reader, f"pgfacts.{fn}(%s, %s)", subject, predicate)
        return found

    return run


def _explain(world: World, reader: Caller, item: Item) -> list[dict[str, Any]]:
    claim_id = world.claim_ids.get(item.name)
    return value_rows(reader.one("SELECT pgfacts.explain_claim(%s)", claim_id)) if claim_id else []


def _fact_history(world: World, reader: Caller, item: Item) -> list[dict[str, Any]]:
    found = []
    for ref in item.refs:
        if ref.startswith("shared:"):
            found += rows(reader, "pgfacts.fact_history(%s, shared => true)", ref[7:])
        elif ref.startswith("session:"):
            _, session, key = ref.split(":", 2)
            found += rows(reader, "pgfacts.fact_history(%s, session_id => %s)", key, session)
    return found


def _audit(world: World, reader: Caller, item: Item) -> list[dict[str, Any]]:
    try:
        return rows(reader, 'pgfacts.audit("limit" => 1000)')
    except psycopg.errors.InsufficientPrivilege:
        return []  # a task agent reads no audit at all


PATHS: dict[str, Path] = {
    "read_facts": lambda w, r, i: rows(r, 'pgfacts.read_facts("limit" => 1000)'),
    "read_facts known_at": lambda w, r, i: rows(
        r, 'pgfacts.read_facts("limit" => 1000, known_at => clock_timestamp())'
    ),
    "read_facts_page": lambda w, r, i: rows(r, "pgfacts.read_facts_page()"),
    "read_facts_by_scope_keys": lambda w, r, i: rows(
        r, "pgfacts.read_facts_by_scope_keys(%s)", w.scope_keys
    ),
    "find_keys": lambda w, r, i: [
        row
        for ref in i.refs
        if not ref.startswith("claim:")
        for row in rows(r, "pgfacts.find_keys(%s)", ref.rsplit(":", 1)[1])
    ],
    "fact_history": _fact_history,
    "search": _search(None),
    "search current": _search("current"),
    "search historical": _search("historical"),
    "search both": _search("both"),
    "search hybrid": _search(None, hybrid=True),
    "nearest": _nearest(False),
    "nearest with history": _nearest(True),
    "similar_facts": lambda w, r, i: rows(
        r, "pgfacts.similar_facts('shared:kb/visible', k => 50, model => %s)", MODEL
    ),
    "context_pack": lambda w, r, i: value_rows(
        r.one("SELECT pgfacts.context_pack(%s, token_budget => 4000)", f"what about {i.marker}?"),
        "items",
    ),
    "search_claims": lambda w, r, i: rows(r, "pgfacts.search_claims(%s)", i.marker),
    "as_of": _claims_of_subjects("as_of"),
    "current_claims": _claims_of_subjects("current_claims"),
    "claim_history": _claims_of_subjects("claim_history"),
    "changes": lambda w, r, i: rows(r, "pgfacts.changes('-infinity')"),
    "explain_claim": _explain,
    "graph_search_nodes": lambda w, r, i: rows(
        r, "pgfacts.graph_search_nodes(name_like => %s)", i.marker
    ),
    "graph seeds": lambda w, r, i: rows(
        r, "pgfacts.graph_search_nodes(seeds => %s)", [ref for ref in i.refs]
    ),
    "graph_neighbourhood": _graph_neighbourhood,
    "audit": _audit,
    "agent_prompt": lambda w, r, i: [{"prompt": r.one("SELECT pgfacts.agent_prompt()")}],
}

# The paths that show an item by design, per item (see the module docstring): a claim's
# own history, explanation and change feed; search_claims, which asks no intent and lists
# what is believed now, past truths included; a purged tombstone's history, which the purge
# keeps (only the tombstone goes).
SHOWN_BY_DESIGN = {
    "retracted": {"claim_history", "changes", "explain_claim"},
    "purged fact": {"fact_history"},
    "superseded": {
        "claim_history",
        "changes",
        "explain_claim",
        "search historical",
        "search both",
        "nearest with history",
        "search_claims",
    },
    "tombstone": {"fact_history"},
    # An expired fact's history stays, as a tombstone's does (docs/governance.md, Expiry).
    "expired fact": {"fact_history"},
}
# The audit names what changed by id and key (that is its purpose, for the tuner and the
# operator); it must never hold the words.
NAMED_BY_REF_BY_DESIGN = {"audit"}
# The tuner reads every session: another tree's facts are its to read.
SEEN_BY_KIND = {"tuner": {"other tree"}}
# The auditors see an expired claim's history, changes and explanation until the purge.
SHOWN_TO_KIND_BY_DESIGN = {
    ("tuner", "expired claim"): {"claim_history", "changes", "explain_claim"}
}


def cases() -> Iterator[Any]:
    for reader in READERS:
        for item in (
            "expired fact",
            "expired claim",
            "unreviewed candidate",
            "held fact",
            "rejected candidate",
            "redaction placeholder",
            "incognito write",
            "retracted",
            "superseded",
            "purged source",
            "purged fact",
            "tombstone",
            "other tree",
            "other tenant",
        ):
            if item in SEEN_BY_KIND.get(reader, set()):
                continue
            shown = SHOWN_BY_DESIGN.get(item, set()) | SHOWN_TO_KIND_BY_DESIGN.get(
                (reader, item), set()
            )
            for path in PATHS:
                if path not in shown:
                    yield pytest.param(reader, item, path, id=f"{reader}-{item}-{path}")


@pytest.fixture(scope="module")
def world(module_db: Database) -> World:
    return World(module_db)


@pytest.fixture(scope="module")
def readers(world: World) -> Iterator[dict[str, Caller]]:
    callers = {name: Caller(world.db, tenant="t1", **spec) for name, spec in READERS.items()}
    yield callers
    for caller in callers.values():
        caller.close()


# Paths whose answer does not depend on the item asked about: read once per reader.
ITEM_INDEPENDENT = {
    "read_facts",
    "read_facts known_at",
    "read_facts_page",
    "read_facts_by_scope_keys",
    "similar_facts",
    "as_of",
    "current_claims",
    "claim_history",
    "changes",
    "graph_neighbourhood",
    "audit",
    "agent_prompt",
}


def answer_of(
    world: World, readers: dict[str, Caller], reader: str, path: str, item: Item
) -> list[dict[str, Any]]:
    if path not in ITEM_INDEPENDENT:
        return PATHS[path](world, readers[reader], item)
    if (reader, path) not in world.answers:
        world.answers[(reader, path)] = PATHS[path](world, readers[reader], item)
    return world.answers[(reader, path)]


@pytest.mark.parametrize(("reader", "item", "path"), list(cases()))
def test_never_comes_back(
    world: World, readers: dict[str, Caller], reader: str, item: str, path: str
) -> None:
    subject = world.items[item]
    answer = answer_of(world, readers, reader, path, subject)
    wrong = [
        row
        for row in answer
        if subject.named_by(row, by_ref=path not in NAMED_BY_REF_BY_DESIGN)
        and not (subject.stale_allowed and (row.get("stale") or row.get("current") is False))
    ]
    assert wrong == [], f"{path} as {reader} returned {item}: {wrong[:3]}"


def test_the_paths_see_what_they_may(world: World, readers: dict[str, Caller]) -> None:
    """The cases above could pass on empty answers: the same paths do return the world's
    visible items (the shared fact, the own tree's fact, Lisbon, the graph's nodes)."""
    agent = readers["agent"]
    visible = Item("visible", "lisbon", [])
    seen = {
        path
        for path in PATHS
        if any(visible.named_by(row) for row in PATHS[path](world, agent, visible))
    }
    assert {
        "read_facts",
        "read_facts_page",
        "read_facts_by_scope_keys",
        "search",
        "search hybrid",
        "nearest",
        "context_pack",
        "search_claims",
        "as_of",
        "current_claims",
        "claim_history",
        "changes",
    } <= seen, seen
    ana = agent.one("SELECT pgfacts.graph_neighbourhood('person:ana')")
    assert "shared:kb/visible" in ana["nodes"][0]["evidence"]
    assert rows(agent, "pgfacts.find_keys('kb/visible')")
    own = rows(agent, 'pgfacts.read_facts("limit" => 1000)')
    assert any(r["key"] == "notes/own" for r in own)
    # and the items exist where the rule lets them: the tombstone's history, the retraction
    # in the change feed, the other tree's fact for the tuner
    assert rows(agent, "pgfacts.fact_history('kb/doomed-tomb', shared => true)")
    assert any(
        world.items["retracted"].named_by(r) for r in rows(agent, "pgfacts.changes('-infinity')")
    )
    assert any(
        world.items["other tree"].named_by(r)
        for r in rows(readers["tuner"], 'pgfacts.read_facts("limit" => 1000)')
    )
    # and the expired claim in the tuner's claim history, until the purge
    assert any(
        world.items["expired claim"].named_by(r)
        for r in rows(readers["tuner"], "pgfacts.claim_history(%s, 'likes')", world.bo)
    )


def test_a_purged_text_is_nowhere_in_the_database(world: World) -> None:
    """The purged source's words are in no row of any table of the install (facts, their
    versions, claims, search documents, the embedding queue, graph evidence, the audit),
    and no embedding of its claim is left; nor are the words of the refused writes (a
    redaction placeholder's, an incognito run's)."""
    markers = [
        world.items[name].marker
        for name in ("purged source", "redaction placeholder", "incognito write")
    ]
    with world.db.admin() as admin:
        tables = admin.execute(
            "SELECT format('%%I.%%I', n.nspname, c.relname) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind = 'r' AND n.nspname = ANY(%s)",
            (install_schemas(admin),),
        ).fetchall()
        found = []
        for (table,) in tables:
            for marker in markers:
                hit = admin.execute(
                    f"SELECT count(*) FROM {table} t WHERE t::text ILIKE %s",
                    (f"%{marker}%",),
                ).fetchone()
                if hit and hit[0]:
                    found.append((table, marker, hit[0]))
        purged = world.claim_ids["purged source"]
        left = admin.execute(
            f"SELECT count(*) FROM {SCHEMA}_internal.embeddings "
            "WHERE item_kind = 'claim' AND item_id = %s",
            (purged,),
        ).fetchone()
    assert found == []
    assert left == (0,)


def test_world_items_have_embeddings(world: World) -> None:
    """nearest's cases mean something only if the items were embedded before they became
    what must not come back."""
    with world.db.admin() as admin:
        row = admin.execute(
            f"SELECT count(*) FROM {SCHEMA}_internal.embeddings WHERE item_kind = 'claim' "
            "AND item_id = %s",
            (world.claim_ids["retracted"],),
        ).fetchone()
    assert row and row[0] >= 1
