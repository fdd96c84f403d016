"""Redaction refusal (issue 25, sql/60_governance/50_redaction.sql): a redaction placeholder
([EMAIL], [PHONE], [SSN], [CARD], [IP], [ADDRESS], or a tenant's own list) is refused as
stored content on every write path with PF010, naming the placeholder, and nothing of the
call is written; JSON values are checked by their string leaves."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pgfacts import Context, FactStore, RedactedContent

from .conftest import Database
from .support.caller import Caller

DEFAULTS = ["[EMAIL]", "[PHONE]", "[SSN]", "[CARD]", "[IP]", "[ADDRESS]"]
# Every table a refused call could have written to, counted as the superuser.
TABLES = [
    "facts",
    "fact_versions",
    "sessions",
    "episodes",
    "claims",
    "claim_sources",
    "entities",
    "memories",
    "extraction_events",
    "graph_nodes",
    "graph_node_names",
    "graph_edges",
    "audit_log",
]


def counts(db: Database) -> dict[str, int]:
    with db.admin() as admin:
        return {
            t: admin.execute(f"SELECT count(*) FROM pgfacts_internal.{t}").fetchone()[0]  # type: ignore[index]
            for t in TABLES
        }


def refusal(caller: Caller, sql: str, *params: Any) -> psycopg.Error:
    """The error a call is refused with, checked to write nothing."""
    before = counts(caller.db)
    with pytest.raises(psycopg.Error) as info:
        caller.rows(sql, *params)
    assert counts(caller.db) == before, sql
    return info.value


def assert_redacted(error: psycopg.Error, placeholder: str) -> None:
    assert error.sqlstate == "PF010", error
    diag = error.diag
    assert f"'{placeholder}'" in (diag.message_primary or "")
    assert placeholder in (diag.message_hint or "")
    assert "redaction_placeholders()" in (diag.message_hint or "")


@pytest.fixture
def agent(db: Database) -> Caller:
    return Caller(db, kind="agent", session="s1", agent="a1")


@pytest.fixture
def operator(db: Database) -> Caller:
    return Caller(db, kind="operator", agent="op")


def set_placeholders(operator: Caller, placeholders: list[str] | None) -> Any:
    return operator.one("SELECT pgfacts.set_redaction_placeholders(%s)", placeholders)


# -- working memory -----------------------------------------------------------------------


@pytest.mark.parametrize("placeholder", DEFAULTS)
def test_each_default_placeholder_is_refused_in_a_fact_value(
    agent: Caller, placeholder: str
) -> None:
    error = refusal(
        agent, "SELECT pgfacts.store_fact('contact/bob', %s)", Jsonb(f"Bob: {placeholder}, ok")
    )
    assert_redacted(error, placeholder)
    assert error.diag.message_detail == "fact 'session:s1:contact/bob'"


def test_json_values_are_checked_by_their_string_leaves(agent: Caller) -> None:
    for value in (
        {"contact": {"email": "[EMAIL]"}},
        ["a", ["b", {"c": "call [PHONE] now"}]],
        {"quoted": 'he said "[SSN]" \\ then'},  # escapes around it in the JSON text
        "[IP]",
    ):
        assert refusal(agent, "SELECT pgfacts.store_fact('v', %s)", Jsonb(value)).sqlstate == (
            "PF010"
        )
    # Not content: an object key, a placeholder split over two leaves, other cases and
    # look-alikes, numbers.
    for value in (
        {"[EMAIL]": "bob@example.org is not stored here either"},
        ["[EM", "AIL]"],
        "[email] [Email] [ EMAIL ] EMAIL",
        "\uff3bEMAIL\uff3d (fullwidth brackets)",
        {"n": 1, "b": True, "z": None},
    ):
        assert agent.one("SELECT pgfacts.store_fact('v', %s)", Jsonb(value))["stored"] is True


def test_a_batch_with_one_redacted_fact_stores_none(agent: Caller) -> None:
    facts = [
        {"key": "clean/1", "value": "fine"},
        {"key": "clean/2", "value": {"note": "[CARD] ending 42"}, "shared": True},
    ]
    assert_redacted(refusal(agent, "SELECT pgfacts.store_facts(%s)", Jsonb(facts)), "[CARD]")
    assert agent.one("SELECT count(*) FROM pgfacts.read_facts()") == 0


def test_an_overwrite_with_a_placeholder_keeps_the_old_value(agent: Caller) -> None:
    agent.fact("home", "Lyon")
    assert_redacted(
        refusal(agent, "SELECT pgfacts.store_fact('home', %s, shared => true)", Jsonb("[ADDRESS]")),
        "[ADDRESS]",
    )
    assert agent.one("SELECT value FROM pgfacts.read_facts('home')") == "Lyon"


def test_bulk_store_reports_the_redacted_record_and_stores_the_others(agent: Caller) -> None:
    records = [
        {"key": "bulk/1", "value": "one"},
        {"key": "bulk/2", "value": {"who": "[EMAIL]"}},
        {"key": "bulk/3", "value": "three"},
    ]
    result = agent.one("SELECT pgfacts.bulk_store_facts(records => %s)", Jsonb(records))
    assert (result["committed_count"], result["failed_count"]) == (2, 1)
    [failed] = result["failures"]
    assert failed["position"] == 2 and failed["reason"] == "write_failed"
    assert failed["sqlstate"] == "PF010" and "[EMAIL]" in failed["message"]
    keys = [r[0] for r in agent.rows("SELECT key FROM pgfacts.read_facts() ORDER BY key")]
    assert keys == ["bulk/1", "bulk/3"]


def test_a_fact_stored_before_the_list_changed_can_still_be_deleted_and_crawled(
    db: Database, agent: Caller, operator: Caller
) -> None:
    set_placeholders(operator, [])  # none refused
    agent.fact("old", "[EMAIL] from before")
    agent.fact("kept", "[EMAIL] too")
    set_placeholders(operator, None)  # the defaults again
    crawler = Caller(db, kind="crawler")
    crawler.one("SELECT pgfacts.facts_set_crawled(key_prefix => 'kept')")
    assert agent.one("SELECT pgfacts.delete_fact('old', shared => true)")["deleted"] is True
    # Reviving the tombstone with its old value is a store of it: refused.
    assert_redacted(
        refusal(
            agent,
            "SELECT pgfacts.store_fact('old', %s, shared => true)",
            Jsonb("[EMAIL] from before"),
        ),
        "[EMAIL]",
    )


# -- knowledge ------------------------------------------------------------------------------


def knowledge(operator: Caller) -> int:
    anna = operator.one("SELECT pgfacts.ensure_entity('person', 'Anna')")
    operator.one("SELECT pgfacts.define_predicate('contact', 'many')")
    return anna  # type: ignore[no-any-return]


def claim(subject: int, **fields: Any) -> dict[str, Any]:
    return {
        "subject": subject,
        "predicate": "contact",
        "object": "reachable",
        "valid_from": "2026-01-01",
        **fields,
    }


def episode(ref: str = "conv/1") -> Jsonb:
    return Jsonb(
        {"source_kind": "chat", "source_ref": ref, "content_hash": "h-" + ref, "trust": "agent"}
    )


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"object": {"email": "[EMAIL]"}}, "object"),
        ({"object": ["x", "[PHONE]"]}, "object"),
        ({"text": "Anna's number is [PHONE]"}, "text"),
        ({"quote": "mail me at [EMAIL]"}, "quote"),
    ],
)
def test_ingest_refuses_an_episode_whose_claim_holds_a_placeholder(
    operator: Caller, fields: dict[str, Any], field: str
) -> None:
    anna = knowledge(operator)
    claims = [claim(anna, object="first, clean"), claim(anna, **fields)]
    error = refusal(operator, "SELECT pgfacts.ingest(%s, %s)", episode(), Jsonb(claims))
    assert error.sqlstate == "PF010"
    assert f"a claim's {field}" in (error.diag.message_primary or "")
    assert error.diag.message_detail == "claim 1: redacted (the whole episode is refused)"
    # The same episode without the placeholder is written.
    clean = [claim(anna, object="first, clean")]
    assert operator.one("SELECT pgfacts.ingest(%s, %s)", episode(), Jsonb(clean))["counters"]


def test_override_refuses_a_placeholder(operator: Caller) -> None:
    anna = knowledge(operator)
    error = refusal(
        operator, "SELECT pgfacts.override('fix-1', %s)", Jsonb(claim(anna, object="[SSN]"))
    )
    assert_redacted(error, "[SSN]")


def test_entities_refuse_a_placeholder_in_a_name_or_alias(operator: Caller) -> None:
    assert_redacted(
        refusal(operator, "SELECT pgfacts.ensure_entity('person', '[ADDRESS] resident')"),
        "[ADDRESS]",
    )
    assert_redacted(
        refusal(operator, "SELECT pgfacts.ensure_entity('person', 'Bob', ARRAY['b', '[EMAIL]'])"),
        "[EMAIL]",
    )


# -- pipeline and graph ---------------------------------------------------------------------


def test_record_memory_refuses_a_redacted_line(agent: Caller) -> None:
    lines = [{"id": "t1", "text": "hi"}, {"id": "t2", "text": "my card is [CARD]"}]
    error = refusal(agent, "SELECT pgfacts.record_memory('chat', 'conv/1', %s)", Jsonb(lines))
    assert_redacted(error, "[CARD]")
    assert "memory's lines" in (error.diag.message_primary or "")


def test_a_completed_extraction_with_a_redacted_claim_is_refused(
    agent: Caller, operator: Caller
) -> None:
    anna = knowledge(operator)
    lines = [{"id": "t1", "text": "Anna: write to me"}]
    agent.one("SELECT pgfacts.record_memory('chat', 'conv/2', %s)", Jsonb(lines))
    [work] = [
        r[0]
        for r in operator.rows("SELECT to_jsonb(w) FROM pgfacts.claim_extraction_work(10) AS w")
    ]
    claims = [claim(anna, object="mail [EMAIL]", locator={"line": "t1"})]
    error = refusal(
        operator,
        "SELECT pgfacts.complete_extraction(%s, %s, 'scripted@1', %s)",
        work["event_id"],
        work["lease_token"],
        Jsonb(claims),
    )
    assert_redacted(error, "[EMAIL]")
    # The event is still leased to the worker, which may complete it without the placeholder.
    clean = [claim(anna, object="reachable by mail", locator={"line": "t1"})]
    done = operator.one(
        "SELECT pgfacts.complete_extraction(%s, %s, 'scripted@1', %s)",
        work["event_id"],
        work["lease_token"],
        Jsonb(clean),
    )
    assert done is not None


def test_graph_writes_refuse_a_placeholder(db: Database) -> None:
    crawler = Caller(db, kind="crawler", agent="c1")
    assert_redacted(
        refusal(crawler, "SELECT pgfacts.graph_upsert_node('person', 'host [IP]')"), "[IP]"
    )
    assert_redacted(
        refusal(
            crawler,
            "SELECT pgfacts.graph_upsert_node('person', 'Ann', aliases => ARRAY['[PHONE]'])",
        ),
        "[PHONE]",
    )
    crawler.one("SELECT pgfacts.graph_upsert_node('person', 'Ann')")
    crawler.one("SELECT pgfacts.graph_upsert_node('person', 'Bo')")
    assert_redacted(
        refusal(
            crawler,
            "SELECT pgfacts.graph_upsert_edge('person:ann', 'person:bo', 'emails [EMAIL]')",
        ),
        "[EMAIL]",
    )


# -- configuration per tenant ---------------------------------------------------------------


def test_each_tenant_has_its_own_list(db: Database, operator: Caller) -> None:
    listed = set_placeholders(operator, ["<PERSON>", "[EMAIL]", "<PERSON>"])
    assert listed["placeholders"] == ["<PERSON>", "[EMAIL]"] and listed["configured"] is True
    t1 = Caller(db, kind="agent", session="s1")
    t2 = Caller(db, kind="agent", session="s1", tenant="t2")
    assert t1.one("SELECT pgfacts.store_fact('p', %s)", Jsonb("[PHONE] kept"))["stored"]
    assert_redacted(
        refusal(t1, "SELECT pgfacts.store_fact('n', %s)", Jsonb("<PERSON>")), "<PERSON>"
    )
    # t2 still has the defaults.
    assert_redacted(refusal(t2, "SELECT pgfacts.store_fact('p', %s)", Jsonb("[PHONE]")), "[PHONE]")
    assert t2.one("SELECT pgfacts.store_fact('n', %s)", Jsonb("<PERSON>"))["stored"]
    assert t2.one("SELECT pgfacts.redaction_placeholders()") == {
        "tenant": "t2",
        "placeholders": DEFAULTS,
        "configured": False,
        "set_at": None,
    }
    # An empty list refuses none; NULL is the defaults again.
    set_placeholders(operator, [])
    assert t1.one("SELECT pgfacts.store_fact('n', %s)", Jsonb("<PERSON> [SSN]"))["stored"]
    assert set_placeholders(operator, None)["configured"] is False
    assert_redacted(refusal(t1, "SELECT pgfacts.store_fact('s', %s)", Jsonb("[SSN]")), "[SSN]")


def test_placeholders_are_literal_and_may_be_unicode(agent: Caller, operator: Caller) -> None:
    set_placeholders(operator, ["[x.*]", "(a|b)", "\uff3bメール\uff3d", "<名前>"])
    assert agent.one("SELECT pgfacts.store_fact('r', %s)", Jsonb("[xy] a b ab [EMAIL]"))["stored"]
    assert_redacted(
        refusal(agent, "SELECT pgfacts.store_fact('r', %s)", Jsonb("x [x.*] y")), "[x.*]"
    )
    assert_redacted(refusal(agent, "SELECT pgfacts.store_fact('r', %s)", Jsonb("(a|b)")), "(a|b)")
    assert_redacted(
        refusal(
            agent,
            "SELECT pgfacts.store_fact('r', %s)",
            Jsonb({"k": ["連絡先 \uff3bメール\uff3d 🙂"]}),
        ),
        "\uff3bメール\uff3d",
    )
    assert_redacted(
        refusal(agent, "SELECT pgfacts.store_fact('r', %s)", Jsonb("<名前>さん")), "<名前>"
    )


def test_a_placeholder_at_the_end_of_a_large_value_is_found(agent: Caller) -> None:
    big = "word " * 200_000  # 1,000,000 characters, under the 1 MB cap
    assert_redacted(
        refusal(agent, "SELECT pgfacts.store_fact('big', %s)", Jsonb({"t": [big + "[SSN]"]})),
        "[SSN]",
    )
    assert agent.one("SELECT pgfacts.store_fact('big', %s)", Jsonb({"t": [big]}))["stored"]


def test_a_long_key_is_shown_cut_in_the_refusal(agent: Caller) -> None:
    key = "k" * 500
    error = refusal(agent, "SELECT pgfacts.store_fact(%s, %s)", key, Jsonb("[IP]"))
    assert error.sqlstate == "PF010"
    assert "k" * 65 not in str(error.diag.message_detail)


@pytest.mark.parametrize(
    "placeholders",
    [['"q"'], ["back\\slash"], ["tab\there"], [" [X]"], ["x"], ["[" + "X" * 63 + "]"], [None]],
    ids=["quote", "backslash", "control", "space", "short", "long", "null"],
)
def test_bad_placeholders_are_refused(operator: Caller, placeholders: list[Any]) -> None:
    assert operator.refused("SELECT pgfacts.set_redaction_placeholders(%s)", placeholders) == (
        "22023"
    )


def test_only_the_operator_sets_the_list_and_every_kind_reads_it(db: Database) -> None:
    for kind in ("agent", "facts_manager", "crawler", "tuner"):
        caller = Caller(db, kind=kind)
        assert caller.refused("SELECT pgfacts.set_redaction_placeholders('{}')") == "42501"
        assert caller.one("SELECT pgfacts.redaction_placeholders()")["placeholders"] == DEFAULTS
    too_many = [f"[P{i}]" for i in range(65)]
    assert Caller(db).refused("SELECT pgfacts.set_redaction_placeholders(%s)", too_many) == "22023"


# -- transactions and the client ------------------------------------------------------------


def test_two_writes_in_one_transaction_where_the_second_is_refused(db: Database) -> None:
    with db.connect("app") as conn:
        conn.execute("SELECT pgfacts.set_context('t1', 's1')")
        conn.execute("SELECT pgfacts.store_fact('first', '\"kept\"')")
        with pytest.raises(psycopg.Error) as info, conn.transaction():  # a savepoint
            conn.execute("SELECT pgfacts.store_fact('second', '\"[EMAIL]\"')")
        assert info.value.sqlstate == "PF010"
        conn.commit()
    agent = Caller(db, kind="agent", session="s1")
    assert [r[0] for r in agent.rows("SELECT key FROM pgfacts.read_facts()")] == ["first"]
    # Without a savepoint the refusal ends the transaction: the first write goes too.
    with db.connect("app") as conn:
        conn.execute("SELECT pgfacts.set_context('t1', 's1')")
        conn.execute("SELECT pgfacts.store_fact('third', '\"lost\"')")
        with pytest.raises(psycopg.Error):
            conn.execute("SELECT pgfacts.store_fact('fourth', '\"[IP]\"')")
        conn.rollback()
    assert [r[0] for r in agent.rows("SELECT key FROM pgfacts.read_facts()")] == ["first"]


def test_the_client_raises_redacted_content(db: Database) -> None:
    context = Context(tenant="t1", session_id="s1")
    with FactStore(db.dsn("app"), context=context) as store:
        with pytest.raises(RedactedContent) as info:
            store.store_fact("contact", {"phone": "[PHONE]"})
        assert info.value.sqlstate == "PF010"
        with pytest.raises(RedactedContent):
            store.tools.store_fact("contact", "[EMAIL]")
        assert store.redaction_placeholders()["placeholders"] == DEFAULTS


def test_a_change_of_the_list_is_audited_even_with_the_audit_off(operator: Caller) -> None:
    operator.one("SELECT pgfacts.set_setting('audit_enabled', '0')")
    set_placeholders(operator, ["<PERSON>"])
    set_placeholders(operator, [])
    set_placeholders(operator, None)
    rows = operator.rows(
        "SELECT audit_target, before, after FROM pgfacts.audit("
        "operation => 'set_redaction_placeholders') ORDER BY audit_id"
    )
    assert rows == [
        ("redaction_placeholders", {"placeholders": None}, {"placeholders": ["<PERSON>"]}),
        ("redaction_placeholders", {"placeholders": ["<PERSON>"]}, {"placeholders": []}),
        ("redaction_placeholders", {"placeholders": []}, {"placeholders": None}),
    ]
