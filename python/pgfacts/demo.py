"""The ``make demo`` walkthrough: what pgfacts does, shown against a real database."""

from __future__ import annotations

import json
import uuid
from typing import Any

from rich.console import Console

from . import doctor
from .client import Context, FactStore


def _section(out: Console, title: str) -> None:
    out.print(f"\n[bold cyan]== {title}[/]")


def _show(out: Console, label: str, value: Any) -> None:
    out.print(f"[dim]{label}[/]")
    out.print_json(json.dumps(value, default=str))


def _keys(result: dict[str, Any]) -> list[str]:
    """The facts of a read_facts tool result, one line each."""
    return [f"{f['key']} = {json.dumps(f['value'])}" for f in result["facts"]]


def run(dsn: str | None, schema: str, out: Console) -> None:
    _section(out, "doctor: the server, its extensions and the schema")
    report = doctor.diagnose(dsn, schema).as_dict()
    keep = ("postgresql", "extensions", "age_per_database", "applied_migrations", "pending", "ok")
    out.print_json(json.dumps({k: report[k] for k in keep}))

    tenant = f"demo-{uuid.uuid4().hex[:6]}"  # a fresh tenant per run: runs never collide
    out.print(
        f"\ntenant {tenant!r}; every call below is one SQL statement: "
        f"{schema}.call_tool(name, args, context)"
    )
    # Working memory through the agent tools (store.tools): the JSON an agent gets.
    with FactStore(dsn, schema=schema, context=Context(tenant=tenant)) as base:
        planner = base.with_context(session_id="plan-1", agent_id="planner")
        worker_a = base.with_context(
            session_id="work-a", parent_session_id="plan-1", agent_id="worker"
        )
        worker_b = base.with_context(
            session_id="work-b", parent_session_id="plan-1", agent_id="worker"
        )
        stranger = base.with_context(session_id="other-run", agent_id="stranger")
        manager = base.with_context(agent_kind="facts_manager", agent_id="facts-manager")
        crawler = base.with_context(agent_kind="crawler", agent_id="crawler")

        _section(out, "a spawn tree shares session facts: plan-1 -> work-a, work-b")
        planner.tools.store_fact("task/goal", "ship the release notes", tags=["task"])
        worker_a.tools.store_fact("task/draft", {"status": "drafted", "words": 420}, tags=["task"])
        worker_b.tools.store_fact("task/review", "two typos found", tags=["task"])
        worker_b.tools.store_fact("style/tone", "plain and short", shared=True)
        out.print("work-b reads everything its tree and the shared scope hold:")
        for line in _keys(worker_b.tools.read_facts()):
            out.print(f"  {line}", highlight=False)
        out.print("other-run, a session in another tree, sees only the shared fact:")
        for line in _keys(stranger.tools.read_facts()):
            out.print(f"  {line}", highlight=False)

        _section(out, "nothing is overwritten: every version keeps its system-time range")
        worker_a.tools.store_fact("task/draft", {"status": "final", "words": 455}, tags=["task"])
        history = worker_a.tools.fact_history("task/draft")["versions"]
        for version in history:
            state = "current" if version["current"] else f"until {version['knownTo']}"
            out.print(
                f"  {json.dumps(version['value'])}  from {version['knownFrom']}  {state}",
                highlight=False,
            )
        first_seen = history[0]["knownFrom"]
        out.print("what work-b saw right after the first draft (known_at):")
        for line in _keys(worker_b.tools.read_facts(key_pattern="task/draft", known_at=first_seen)):
            out.print(f"  {line}", highlight=False)

        _section(out, "agent kinds are enforced by the database")
        try:
            worker_a.tools.delete_session("plan-1")
        except Exception as exc:  # the demo shows the refusal, whatever its class
            out.print(f"  a task agent may not delete sessions: {exc}", highlight=False)

        _section(out, "the facts manager cleans up a finished tree; the crawler sees tombstones")
        _show(out, "delete_session('plan-1')", manager.tools.delete_session("plan-1"))
        queue = crawler.tools.facts_read_uncrawled(limit=50)["facts"]
        for row in queue:
            kind = "tombstone" if row["deletedAt"] else "live"
            out.print(f"  {row['scopeKey']:<28} etag {row['etag']}  {kind}", highlight=False)
        receipts = [{"scopeKey": r["scopeKey"], "etag": r["etag"]} for r in queue]
        _show(
            out, "facts_set_crawled(receipts)", crawler.tools.facts_set_crawled(scope_keys=receipts)
        )
        _show(out, "the shared fact outlives the tree", stranger.tools.read_facts(scope="shared"))

    _knowledge(dsn, schema, tenant, out)
    _retrieval(dsn, schema, tenant, out)
    _graph(dsn, schema, tenant, out)
    _pipeline(dsn, schema, tenant, out)
    _review(dsn, schema, tenant, out)


def _knowledge(dsn: str | None, schema: str, tenant: str, out: Console) -> None:
    _section(out, "knowledge: a correction supersedes without erasing")
    context = Context(tenant=tenant, agent_id="demo", agent_kind="operator")
    with FactStore(dsn, schema=schema, context=context) as k:
        k.define_predicate("payment_terms", "one", "a client's payment terms")
        client = k.ensure_entity("client", "Ardal Finch", external_ref="crm:clients/42")
        first = k.ingest(
            {"source_kind": "email", "source_ref": "msg-1", "content_hash": "a1"},
            [
                {
                    "subject": client,
                    "predicate": "payment_terms",
                    "object": "net-30",
                    "valid_from": "2025-11-02",
                    "quote": "terms are net-30",
                }
            ],
        )
        out.print(f"ingest net-30 from 2025-11-02: {json.dumps(first['counters'])}")
        # The instant net-30 became known: a known_at before the correction.
        before = k.explain_claim(first["outcomes"][0]["claim_id"])["version"]["recorded_at"]
        second = k.ingest(
            {"source_kind": "email", "source_ref": "msg-2", "content_hash": "b2", "trust": "owner"},
            [
                {
                    "subject": client,
                    "predicate": "payment_terms",
                    "object": "net-45",
                    "valid_from": "2026-04-11",
                    "quote": "moving you to 45 from April",
                }
            ],
        )
        out.print(f"ingest net-45 from 2026-04-11: {json.dumps(second['counters'])}")
        for label, valid_at, known_at in [
            ("terms in May 2026, as believed now", "2026-05-01", None),
            ("terms in May 2026, as believed before the correction", "2026-05-01", before),
            ("terms in January 2026, as believed now", "2026-01-15", None),
        ]:
            rows = k.as_of(client, "payment_terms", valid_at=valid_at, known_at=known_at)
            out.print(f"  {label}: {[r.object_value for r in rows]}", highlight=False)
        out.print(
            "history (nothing erased: the old row is retired, a narrowed copy keeps its past):"
        )
        for row in k.claim_history(client, "payment_terms"):
            valid_to = row.valid_to.date().isoformat() if row.valid_to else ""
            out.print(
                f"  #{row.claim_id} {row.object_value:<8} valid "
                f"{row.valid_from.date() if row.valid_from else ''} .. {valid_to:<10} "
                f"{row.retired_reason or 'current'}",
                highlight=False,
            )
        why = k.explain_claim(second["outcomes"][0]["claim_id"])
        _show(
            out,
            "explain_claim(net-45)",
            {key: why[key] for key in ("trust", "version", "sources", "predecessors")},
        )


def _retrieval(dsn: str | None, schema: str, tenant: str, out: Console) -> None:
    _section(out, "retrieval: a current and a historical question from the same memory")
    from .minilm import default_embedder
    from .retrieval import run_embedding_queue

    context = Context(tenant=tenant, agent_id="demo", agent_kind="operator")
    # The real model when the minilm extra is installed, else the deterministic one.
    embedder = default_embedder()
    with FactStore(dsn, schema=schema, context=context) as k:
        k.define_predicate("lives_in", "one", "the city where a person lives: home, address")
        anna = k.ensure_entity("person", "Anna Kowalski")
        for ref, city, since, trust in (
            ("note-2015", "Lviv", "2015-03-01", "agent"),
            ("note-2024", "Kyiv", "2024-06-01", "owner"),
        ):
            claim = {
                "subject": anna,
                "predicate": "lives_in",
                "object": city,
                "valid_from": since,
                "text": f"Anna Kowalski lives in {city}",
            }
            k.ingest(
                {"source_kind": "note", "source_ref": ref, "content_hash": ref, "trust": trust},
                [claim],
            )
        k.register_embedding_model(embedder.model, embedder.dimension)
    done = run_embedding_queue(embedder, context, dsn=dsn, schema=schema)
    out.print(f"embedding queue: {done.embedded} rows embedded with {embedder.model}")
    with FactStore(dsn, schema=schema, context=context) as k:
        for question in ("Where does Anna live now?", "Where did Anna live in 2016?"):
            [vector] = embedder.embed([question])
            intent = k.detect_intent(question)
            hits = k.search(question, query_vector=vector, model=embedder.model, limit=3)
            out.print(
                f"[bold]{question}[/]  intent {intent['intent']} {intent['signals']}",
                highlight=False,
            )
            for hit in hits:
                state = "current" if hit.current else "no longer current"
                out.print(f"  {hit.content}  ({state})", highlight=False)


def _graph(dsn: str | None, schema: str, tenant: str, out: Console) -> None:
    _section(out, "graph: nodes and edges citing facts and claims as their evidence")
    context = Context(tenant=tenant, agent_id="demo", agent_kind="operator")
    with FactStore(dsn, schema=schema, context=context) as k:
        crawler = k.with_context(agent_kind="crawler", agent_id="crawler")
        agent = k.with_context(agent_kind="agent", agent_id="asker", session_id="ask-1")
        # A claim whose object is an entity: the graph shows it as an edge of its own.
        k.define_predicate("member_of", "one", "the team a person belongs to")
        mira = k.ensure_entity("person", "Mira Osei")
        team = k.ensure_entity("team", "Payments")
        roster = k.ingest(
            {"source_kind": "hr", "source_ref": "roster-7", "content_hash": "r7"},
            [
                {
                    "subject": mira,
                    "predicate": "member_of",
                    "object_entity": team,
                    "valid_from": "2026-01-05",
                    "quote": "Mira joins Payments",
                }
            ],
        )
        claim = f"claim:{roster['outcomes'][0]['claim_id']}"
        out.print(f"knowledge: {claim} Mira Osei member_of Payments (an entity)", highlight=False)
        crawler.tools.store_fact(
            "svc/payments-api", {"team": "payments", "calls": "ledger"}, shared=True
        )
        crawler.tools.store_fact("svc/ledger", {"team": "payments"}, shared=True)
        api, ledger = "shared:svc/payments-api", "shared:svc/ledger"
        crawler.tools.graph_upsert_node("team", "payments", evidence=[claim])
        crawler.tools.graph_upsert_node("service", "payments-api", evidence=[api])
        crawler.tools.graph_upsert_node("service", "ledger", evidence=[ledger])
        for start, end, predicate, confidence, cited in (
            ("team:payments", "service:payments-api", "owns", 0.9, api),
            ("team:payments", "service:ledger", "owns", 1.0, ledger),
            ("service:payments-api", "service:ledger", "calls", 1.0, api),
        ):
            crawler.tools.graph_upsert_edge(
                start, end, predicate, confidence=confidence, evidence=[cited]
            )
        out.print("crawler: 2 shared facts, then 3 nodes and 3 edges citing them or the claim")

        found = agent.tools.graph_search_nodes(name_like="pay")["nodes"]
        keys = ", ".join(n["nodeKey"] for n in found)
        out.print(f"graph_search_nodes(name_like='pay'): {keys}", highlight=False)
        # Seeded from the crawler's node and the entity's node: the two meet in one answer.
        around = agent.tools.graph_neighbourhood("team:payments", seeds=[f"entity:{team}"])
        out.print(f"graph_neighbourhood('team:payments', seeds=['entity:{team}']):", markup=False)
        names = {n["nodeKey"]: n["name"] for n in around["nodes"]}

        def shown(key: str) -> str:  # an entity's node key says nothing to a reader alone
            return f"{key} ({names[key]})" if key.startswith("entity:") else key

        for edge in around["edges"]:
            out.print(
                f"  {shown(edge['fromKey'])} -{edge['predicate']}-> {shown(edge['toKey'])}  "
                f"{edge['confidence']}  {', '.join(edge['evidence'])}",
                highlight=False,
            )
        evidence = sorted(
            {e for item in around["nodes"] + around["edges"] for e in item["evidence"]}
        )
        out.print("its evidence resolved: facts by scope key, claims by explain_claim")
        facts = [e for e in evidence if not e.startswith("claim:")]
        for fact in agent.tools.read_facts_by_scope_keys(facts)["facts"]:
            out.print(f"  {fact['scopeKey']} = {json.dumps(fact['value'])}", highlight=False)
        for cited in (e for e in evidence if e.startswith("claim:")):
            why = agent.explain_claim(int(cited.removeprefix("claim:")))
            subject = names[f"entity:{why['subject_id']}"]
            target = names[f"entity:{why['object_entity_id']}"]
            source = why["sources"][0]
            out.print(
                f"  {cited} = {subject} {why['predicate']} {target}  "
                f"({source['source_ref']}: {json.dumps(source['quote'])})",
                highlight=False,
            )

        # What each pass of `pgfacts worker --graph` runs per tenant; the first one builds
        # the tenant's AGE graph from the tables.
        out.print("sync_graph_projection(), as `pgfacts worker --graph` runs it:", markup=False)
        out.print(f"  {json.dumps(k.sync_graph_projection())}", highlight=False)
        params = {"from": "team:payments", "to": "service:ledger", "hops": 2}
        out.print(f"graph_cypher('directed_paths', {json.dumps(params)}):", markup=False)
        for row in agent.graph_cypher("directed_paths", params):
            out.print(f"  {json.dumps(row)}", highlight=False)
        out.print(
            "(the projection holds stored edges, by predicate key; claim edges are read live)"
        )


def _pipeline(dsn: str | None, schema: str, tenant: str, out: Console) -> None:
    from .pipeline import ScriptedExtractor, drain_extractions
    from .rows import ExtractionWork

    _section(out, "pipeline: a conversation turn recorded, its event queued, the worker extracts")
    with FactStore(dsn, schema=schema, context=Context(tenant=tenant)) as base:
        agent = base.with_context(session_id="chat-9", agent_id="assistant")
        operator = base.with_context(agent_kind="operator", agent_id="extraction-worker")
        lines = [{"id": "turn-3", "text": "Lena: I moved to Porto in May and work at Inkwell."}]
        recorded = agent.tools.record_memory(
            "chat", "chat-9#3", lines, occurred_at="2026-06-02T09:00:00Z"
        )
        _show(out, "record_memory (the tool; stored with its event in one transaction)", recorded)
        out.print(
            f"extraction_status: {agent.tools.extraction_status(recorded['eventId'])['state']}"
            " (no worker has run: nothing is lost)",
            highlight=False,
        )

        lena = operator.ensure_entity("person", "Lena")
        operator.define_predicate("lives_in", "one", "home city")

        def scripted_model(work: ExtractionWork) -> list[dict[str, Any]]:
            # What a model would propose for the turn, checked by the validator in SQL.
            context = operator.extraction_context(work.memory_id)
            output = {
                "facts": [
                    {
                        "subject": "e1",
                        "predicate": "lives_in",
                        "object": "Porto",
                        "evidence": ["turn-3"],
                        "valid_from": "2026-05-01",
                        "quote": "moved to Porto",
                    },
                    {
                        "subject": "e1",
                        "predicate": "lives_in",
                        "object": "Mars",
                        "evidence": ["turn-99"],
                    },
                ]
            }
            checked = operator.validate_extraction(context, output)
            out.print(
                f"validate_extraction: {len(checked['claims'])} claim, rejected "
                f"{json.dumps(checked['rejections'])}",
                highlight=False,
            )
            return list(checked["claims"])

        totals = drain_extractions(
            operator, ScriptedExtractor(scripted_model, name="demo-script@1"), tenant=tenant
        )
        out.print(f"pgfacts worker: {totals.done} done, {totals.failed} failed", highlight=False)
        status = operator.tools.extraction_status(recorded["eventId"])
        out.print(
            f"extraction_status: {status['state']}, episode {status['episodeId']}", highlight=False
        )
        for claim in operator.current_claims(lena):
            why = operator.explain_claim(claim.claim_id)
            source = why["sources"][0]
            out.print(
                f"  Lena {claim.predicate} {json.dumps(claim.object_value)} since "
                f"{claim.valid_from:%Y-%m-%d}  ({source['source_ref']}, extractor "
                f"{source.get('extractor')}: {json.dumps(source['quote'])})",
                highlight=False,
            )


def _review(dsn: str | None, schema: str, tenant: str, out: Console) -> None:
    _section(out, "review: a low-trust claim waits for a reviewer; the decision is audited")
    with FactStore(dsn, schema=schema, context=Context(tenant=tenant)) as base:
        operator = base.with_context(agent_kind="operator", agent_id="ops")
        reviewer = base.with_context(agent_kind="reviewer", agent_id="reviewer-ana")
        operator.set_setting("review_below_trust", 2)  # third-party sources wait
        operator.define_predicate("office_city", "one", "where a client's office is")
        client = operator.ensure_entity("client", "Ardal Finch", external_ref="crm:clients/42")
        forum = {"source_kind": "web", "source_ref": "forum/thread-81", "trust": "third_party"}
        claims = [
            {
                "subject": client,
                "predicate": "office_city",
                "object": city,
                "quote": quote,
                "valid_from": "2026-03-01",
            }
            for city, quote in (
                ("Leeds", "Ardal Finch opened in Leeds"),
                ("Atlantis", "their HQ is in Atlantis"),
            )
        ]

        def offices() -> list[Any]:
            return [
                c.object_value
                for c in operator.current_claims(client)
                if c.predicate == "office_city"
            ]

        held = operator.ingest({**forum, "content_hash": "f81"}, claims)
        out.print(
            f"ingest from {forum['source_ref']} (third_party): "
            f"{[o['outcome'] for o in held['outcomes']]}, believed now: "
            f"{offices()}",
            highlight=False,
        )
        out.print("review_queue, as the reviewer (oldest first, with the evidence):")
        waiting = reviewer.review_queue()
        for row in waiting:
            out.print(
                f"  candidate {row.candidate_id}: {json.dumps(row.object)} "
                f"({row.source_ref}, {row.trust}: {json.dumps(row.quote)}; held for "
                f"{row.held_because})",
                highlight=False,
            )
        approved = reviewer.approve_claim(waiting[0].candidate_id, note="matches the CRM")
        rejected = reviewer.reject_claim(waiting[1].candidate_id, note="no such city")
        out.print(
            f"approve_claim: {approved['outcome']['outcome']}; reject_claim: "
            f"{rejected['status']} (rejection {rejected['rejection_id']})",
            highlight=False,
        )
        again = operator.ingest(
            {"source_kind": "web", "source_ref": "blog/9", "trust": "owner", "content_hash": "b9"},
            claims[1:],
        )
        out.print(
            f"believed now: {offices()}; "
            f"Atlantis from another source: {json.dumps(again['outcomes'][0])}",
            highlight=False,
        )
        out.print("the audit rows of the decisions:")
        for entry in reversed(operator.audit(operation=None, limit=20)):
            if entry.audit_operation.startswith("review_") or (
                entry.audit_operation == "claim_decision" and entry.audit_agent_kind == "reviewer"
            ):
                out.print(
                    f"  {entry.audit_operation} {entry.audit_target} by {entry.audit_agent_id} "
                    f"({entry.audit_agent_kind}, login {entry.db_role})",
                    highlight=False,
                )
