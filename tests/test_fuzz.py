"""The suite's own fuzz test: random call_tool calls and knowledge function calls, as a
tenant-bound non-superuser login, must either succeed or be refused with a documented
SQLSTATE (class 22 bad input, 42 not allowed, 55 wrong state, P0002 not found, PF the
knowledge domain errors), must write nothing when refused, and must never return another
tenant's data.

``make test`` runs PGFACTS_FUZZ_EXAMPLES cases (default 2000); the longer run is
``PGFACTS_FUZZ_EXAMPLES=20000 .venv/bin/pytest -q tests/test_fuzz.py`` (docs/operations.md).
"""

from __future__ import annotations

import collections
import hashlib
import json
import os
import random
from typing import Any

import psycopg
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from psycopg.types.json import Jsonb

from .conftest import KINDS, LOGIN_PASSWORD, SCHEMA, Database

EXAMPLES = int(os.environ.get("PGFACTS_FUZZ_EXAMPLES", "2000"))
FUZZ_LOGIN = f"{SCHEMA}_test_fuzz"
SECRET = "SECRET-OF-T2"  # in every row of tenant t2: no answer to a t1 login may hold it
ALLOWED_CLASSES = ("22", "42", "55")
ALLOWED_STATES = ("P0002",)


def allowed(label: str, sqlstate: str | None) -> bool:
    # Never class 23 (a constraint: every refusal a caller can cause has a code of its own)
    # nor XX (an internal error).
    return sqlstate is not None and (
        sqlstate[:2] in ALLOWED_CLASSES or sqlstate in ALLOWED_STATES or sqlstate[:2] == "PF"
    )


# -- strategies ------------------------------------------------------------------------

ODD = [
    "",
    " ",
    "*",
    "%",
    "_",
    "\\",
    "\\*",
    "a:b",
    ":",
    "intake/x",
    "tools/x",
    "config/facts-manager/x",
    "shared:k",
    "session:s1:k",
    "'; DROP TABLE x; --",
    "\x01",
    "\n",
    "t1",
    "t2",
    "k",
    "é" * 600,
    "€" * 400,
    "null",
    "[]",
    "{}",
    "1e400",
    "-1",
    "2026-01-01",
    "infinity",
    "9999999999999999999",
]


def incompressible(seed: int, size: int, wide: bool) -> str:
    """Random text that no compression shrinks (printable ASCII or 3-byte CJK), so a value
    over a byte index's row limit or the tsvector limit reaches it as it is."""
    rng = random.Random(seed)
    low, high = (0x4E00, 0x9FFF) if wide else (0x21, 0x7E)
    # choices, not a randint per character: the same uniform draw, a tenth of the time
    # (a randint each took 25 s of the suite's CPU).
    return "".join(map(chr, rng.choices(range(low, high + 1), k=size)))


long_random = st.builds(
    incompressible,
    st.integers(0, 2**32),
    st.one_of(st.integers(90, 1100), st.integers(1100, 6000)),
    st.booleans(),
)
plain_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30
)
big_text = st.builds(
    lambda unit, n: unit * n,
    st.sampled_from(["a", "€", "*", "%a", "[", "é", " "]),
    st.integers(min_value=100, max_value=40_000),
)
# Long random text too: no refusal may echo more than 64 characters of it (shown()).
text = st.one_of(plain_text, st.sampled_from(ODD), big_text, long_random)


huge_random = st.builds(
    incompressible, st.integers(0, 2**32), st.integers(60_000, 70_000), st.booleans()
)
# Knowledge arguments: the tool text plus random incompressible long text near and over the
# caps (docs/errors.md, "Limits").
knowledge_text = st.one_of(text, long_random)


def nested(depth: int, container: str) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value] if container == "array" else {"a": value}
    return value


deep = st.builds(
    nested, st.integers(min_value=50, max_value=300), st.sampled_from(["array", "object"])
)
scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    text,
)
json_value = st.recursive(
    scalar,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(plain_text, children, max_size=4)
    ),
    max_leaves=8,
)
any_json = st.one_of(json_value, deep)
ident = st.one_of(st.sampled_from(["s1", "s2", "child", "root", "w"]), text)


@st.composite
def contexts(draw: st.DrawFn) -> dict[str, Any]:
    ctx: dict[str, Any] = {
        "tenant": draw(st.one_of(st.just("t1"), st.just("t1"), st.just("t2"), text)),
        "agent_kind": draw(st.one_of(st.sampled_from(KINDS), text)),
    }
    for name in ("session_id", "parent_session_id", "agent_id"):
        if draw(st.booleans()):
            ctx[name] = draw(st.one_of(ident, any_json))
    if draw(st.integers(0, 20)) == 0:
        ctx[draw(plain_text)] = draw(json_value)
    return ctx


# -- the harness -------------------------------------------------------------------------


class Harness:
    """One tenant-bound login (every kind, bound to t1 only), seeded data in t1 and t2,
    and a fingerprint of every internal table (rows and newest row version)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        with db.admin() as admin:
            admin.execute(
                f"""DO $$ BEGIN CREATE ROLE {FUZZ_LOGIN} LOGIN;
                    EXCEPTION WHEN duplicate_object THEN NULL; END $$"""
            )
            admin.execute(f"ALTER ROLE {FUZZ_LOGIN} LOGIN NOSUPERUSER PASSWORD '{LOGIN_PASSWORD}'")
            for kind in KINDS:
                admin.execute(f"GRANT {SCHEMA}_{kind} TO {FUZZ_LOGIN}")
            admin.execute(f"REVOKE {SCHEMA}_all_tenants FROM {FUZZ_LOGIN}")
            admin.execute(f"SELECT {SCHEMA}.bind_tenant_login('{FUZZ_LOGIN}', 't1')")
            tables = [
                r[0]
                for r in admin.execute(
                    "SELECT c.relname FROM pg_class c "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') ORDER BY 1",
                    (f"{SCHEMA}_internal",),
                ).fetchall()
            ]
        self.fingerprint_sql = "SELECT " + ", ".join(
            f"(SELECT count(*) || '/' || coalesce(max(xmin::text::bigint), 0) "
            f"FROM {SCHEMA}_internal.{t})"
            for t in tables
        )
        self.ids = self._seed()
        self.conn = psycopg.connect(db.dsn("fuzz"))
        self.admin = db.admin()
        self.baseline = self.fingerprint()
        self.outcomes: collections.Counter[str] = collections.Counter()

    def _seed(self) -> dict[str, list[int]]:
        ids: dict[str, list[int]] = {"t1": [], "t2": []}
        with self.db.connect("app") as conn:
            for tenant in ("t1", "t2"):
                marker = SECRET if tenant == "t2" else "public"
                conn.execute(
                    "SELECT pgfacts.set_context(tenant => %s, session_id => 's1', "
                    "agent_id => 'seed', agent_kind => 'operator')",
                    (tenant,),
                )
                conn.execute(
                    "SELECT pgfacts.store_facts(%s)",
                    (
                        Jsonb(
                            [
                                {"key": "notes/a", "value": marker, "shared": True},
                                {"key": "intake/obs", "value": marker, "shared": True},
                                {"key": "plan/step", "value": marker, "tags": [marker]},
                            ]
                        ),
                    ),
                )
                conn.execute("SELECT pgfacts.define_predicate('lives_in', 'one', 'where')")
                conn.execute("SELECT pgfacts.define_predicate('knows', 'many', 'who')")
                subject = conn.execute(
                    "SELECT pgfacts.ensure_entity('person', %s, external_ref => %s)",
                    (f"Anna {marker}", f"ref:{marker}"),
                ).fetchone()
                assert subject is not None
                result = conn.execute(
                    "SELECT pgfacts.ingest(%s, %s)",
                    (
                        Jsonb({"source_kind": "note", "source_ref": marker, "content_hash": "h1"}),
                        Jsonb(
                            [
                                {
                                    "subject": subject[0],
                                    "predicate": "lives_in",
                                    "object": marker,
                                    "valid_from": "2026-01-01",
                                    "quote": marker,
                                }
                            ]
                        ),
                    ),
                ).fetchone()
                assert result is not None
                ids[tenant].append(int(subject[0]))
                claim = json.dumps(result[0])
                ids[tenant] += [int(x) for x in _numbers(claim)]
                conn.commit()
        return ids

    def fingerprint(self) -> tuple[Any, ...]:
        row = self.admin.execute(self.fingerprint_sql).fetchone()
        assert row is not None
        return tuple(row)

    def run(
        self, label: str, statement: str, params: tuple[Any, ...], ctx: dict[str, Any] | None
    ) -> None:
        try:
            with self.conn.transaction():
                if ctx is not None:
                    self.conn.execute(
                        "SELECT pgfacts.set_context(tenant => %s, agent_kind => %s, "
                        "session_id => %s, agent_id => %s)",
                        (
                            ctx["tenant"],
                            ctx["agent_kind"],
                            ctx.get("session_id"),
                            ctx.get("agent_id"),
                        ),
                    )
                row = self.conn.execute(statement, params).fetchone()
        except psycopg.Error as exc:
            assert allowed(label, exc.sqlstate), f"{label}: unexpected {exc.sqlstate}: {exc}"[:2000]
            echoed = echoes(exc, (params, ctx))
            assert echoed is None, f"{label}: {exc.sqlstate} echoes {echoed}"
            self.outcomes[exc.sqlstate or "?"] += 1
            after = self.fingerprint()
            assert after == self.baseline, f"{label}: refused ({exc.sqlstate}) but wrote"
            return
        self.outcomes["ok"] += 1
        assert SECRET not in json.dumps(row, default=str), f"{label}: another tenant's data"
        self.baseline = self.fingerprint()

    def close(self) -> None:
        self.conn.close()
        self.admin.close()


SHOWN = 64  # characters of a caller's input a message may show (docs/errors.md, "Limits")


def _strings(value: Any) -> list[str]:
    """Every string in an argument: itself, or the keys and values inside JSON."""
    if isinstance(value, Jsonb):
        value = value.obj
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def echoes(exc: psycopg.Error, arguments: Any) -> str | None:
    """The field of a refusal that holds more than SHOWN consecutive characters of an
    argument, or None."""
    long = [s for s in _strings(arguments) if len(s) > SHOWN]
    for field in ("message_primary", "message_detail", "message_hint"):
        text = getattr(exc.diag, field) or ""
        for start in range(len(text) - SHOWN):
            window = text[start : start + SHOWN + 1]
            if any(window in s for s in long):
                return f"{field} ({len(text)} characters): {text[:200]!r}"
    return None


def _numbers(text: str) -> list[str]:
    import re

    return re.findall(r'"(?:claim_id|id|entity_id)": (\d+)', text)


# -- the cases ---------------------------------------------------------------------------


@st.composite
def tool_calls(
    draw: st.DrawFn, tools: dict[str, list[str]]
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    name = draw(st.one_of(st.sampled_from(sorted(tools)), st.sampled_from(sorted(tools)), text))
    # A tool without arguments (facts_stats) still gets unknown ones thrown at it.
    known = tools.get(name, ["key", "value"]) or ["unknown"]
    args = draw(
        st.dictionaries(
            st.one_of(st.sampled_from(known), st.sampled_from(known), plain_text),
            any_json,
            max_size=5,
        )
    )
    return name, args, draw(contexts())


# bulk_store_facts gets record-shaped input too (random arguments rarely are): records
# inline or as a source's text, its sha256 right or wrong, and the optional checks.
bulk_record = st.one_of(
    any_json,
    st.fixed_dictionaries(
        {},
        optional={
            "key": st.one_of(st.sampled_from(["k", "k", "intake/x", "skills/x"]), text, any_json),
            "value": any_json,
            "tags": st.one_of(st.lists(text, max_size=3), any_json),
            "shared": st.one_of(st.booleans(), any_json),
            "_error": any_json,
        },
    ),
)


@st.composite
def bulk_calls(draw: st.DrawFn) -> tuple[str, dict[str, Any], dict[str, Any]]:
    records = draw(st.lists(bulk_record, max_size=6))
    args: dict[str, Any] = {"records": records}
    if draw(st.booleans()):
        source = json.dumps(records)
        right = hashlib.sha256(source.encode()).hexdigest()
        args = {"source": source, "sha256": right if draw(st.booleans()) else draw(text)}
    for name in ("expected_count", "key_prefix"):
        if draw(st.integers(0, 3)) == 0:
            args[name] = draw(st.one_of(st.integers(-1, 7), st.just("k"), text, any_json))
    return "bulk_store_facts", args, draw(contexts())


def knowledge_calls(
    ids: dict[str, list[int]],
) -> st.SearchStrategy[tuple[str, str, tuple[Any, ...]]]:
    text = knowledge_text
    some_id = st.one_of(
        st.sampled_from(ids["t1"] or [1]),
        st.sampled_from(ids["t2"] or [2]),
        st.integers(min_value=-(2**63), max_value=2**63 - 1),
    )
    claim = st.fixed_dictionaries(
        {},
        optional={
            "subject": st.one_of(some_id, any_json),
            "predicate": st.one_of(st.sampled_from(["lives_in", "knows"]), text),
            "object": st.one_of(any_json, long_random, huge_random),
            "object_entity": st.one_of(some_id, any_json),
            "text": text,
            "confidence": st.one_of(st.floats(allow_nan=False), any_json),
            "valid_from": st.one_of(st.sampled_from(["2026-01-01", "2026-02-01T00:00:00Z"]), text),
            "valid_to": st.one_of(st.sampled_from(["2026-03-01", "2025-01-01"]), text),
            "valid_at": text,
            "locator": st.one_of(text, any_json),
            "quote": st.one_of(text, any_json),
            "replaces": st.one_of(some_id, any_json),
        },
    )
    episode = st.fixed_dictionaries(
        {},
        optional={
            "source_kind": st.one_of(st.just("note"), text),
            "source_ref": text,
            "content_hash": text,
            "occurred_at": text,
            "trust": st.one_of(
                st.sampled_from(["operator", "owner", "agent", "third_party"]), text
            ),
            "extractor": st.one_of(text, any_json),
        },
    )
    maybe_time = st.one_of(st.none(), st.sampled_from(["2026-01-15", "2999-01-01", "-infinity"]))
    return st.one_of(
        st.tuples(
            st.just("ingest"),
            st.just("SELECT pgfacts.ingest(%s, %s)"),
            st.tuples(episode.map(Jsonb), st.lists(claim, max_size=3).map(Jsonb)),
        ),
        st.tuples(
            st.just("ingest-raw"),
            st.just("SELECT pgfacts.ingest(%s, %s)"),
            st.tuples(any_json.map(Jsonb), any_json.map(Jsonb)),
        ),
        st.tuples(
            st.just("ensure_entity"),
            st.just("SELECT pgfacts.ensure_entity(%s, %s, %s, %s)"),
            st.tuples(
                text,
                text,
                st.one_of(st.none(), st.lists(text, max_size=3)),
                st.one_of(st.none(), text),
            ),
        ),
        st.tuples(
            st.just("define_predicate"),
            st.just("SELECT pgfacts.define_predicate(%s, %s, %s)"),
            st.tuples(text, st.one_of(st.sampled_from(["one", "many", "event"]), text), text),
        ),
        st.tuples(
            st.just("as_of"),
            st.just("SELECT * FROM pgfacts.as_of(%s, %s, %s::timestamptz, %s::timestamptz)"),
            st.tuples(some_id, text, maybe_time, maybe_time),
        ),
        st.tuples(
            st.just("claim_history"),
            st.just("SELECT * FROM pgfacts.claim_history(%s, %s)"),
            st.tuples(some_id, text),
        ),
        st.tuples(
            st.just("current_claims"),
            st.just("SELECT * FROM pgfacts.current_claims(%s)"),
            st.tuples(some_id),
        ),
        st.tuples(
            st.just("explain_claim"),
            st.just("SELECT pgfacts.explain_claim(%s)"),
            st.tuples(some_id),
        ),
        st.tuples(st.just("retract"), st.just("SELECT pgfacts.retract(%s)"), st.tuples(some_id)),
        st.tuples(st.just("restore"), st.just("SELECT pgfacts.restore(%s)"), st.tuples(some_id)),
        st.tuples(
            st.just("verify_slot"),
            st.just("SELECT pgfacts.verify_slot(%s, %s)"),
            st.tuples(some_id, text),
        ),
        st.tuples(
            st.just("purge_source"),
            st.just("SELECT pgfacts.purge_source(%s, %s)"),
            st.tuples(text, text),
        ),
        st.tuples(
            st.just("override"),
            st.just("SELECT pgfacts.override(%s, %s)"),
            st.tuples(text, claim.map(Jsonb)),
        ),
    )


def test_fuzz_tools_and_knowledge_as_a_tenant_bound_login(db: Database) -> None:
    harness = Harness(db)
    with db.admin() as admin:
        tools = {
            name: list(arguments)
            for name, arguments in admin.execute(
                f"SELECT name, arguments FROM {SCHEMA}_internal.tools"
            ).fetchall()
        }
    cases = st.one_of(
        tool_calls(tools).map(lambda c: ("tool", c)),
        bulk_calls().map(lambda c: ("tool", c)),
        knowledge_calls(harness.ids).map(lambda c: ("knowledge", c)),
        st.tuples(contexts(), st.sampled_from(KINDS)).map(lambda c: ("context", c)),
    )

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases)
    @example(  # a quote as the 65th character: shown()'s closing quote must not extend the echo
        case=(
            "knowledge",
            (
                "define_predicate",
                "SELECT pgfacts.define_predicate(%s, %s, %s)",
                ("Q" * 64 + "']kX}m~-u[8}", "one", ""),
            ),
        )
    )
    def one(case: tuple[str, Any]) -> None:
        what, body = case
        if what == "tool":
            name, args, ctx = body
            harness.run(
                f"call_tool {name[:40]!r}",
                "SELECT pgfacts.call_tool(%s, %s, %s)",
                (name, Jsonb(args), Jsonb(ctx)),
                None,
            )
        elif what == "knowledge":
            label, statement, params = body
            kind = "operator" if label in ("override", "purge_source") else "agent"
            harness.run(label, statement, params, {"tenant": "t1", "agent_kind": kind})
        else:
            ctx, _ = body
            harness.run(
                "set_context",
                "SELECT pgfacts.set_context(tenant => %s, session_id => %s, agent_id => %s, "
                "agent_kind => %s, parent_session_id => %s)",
                tuple(
                    ctx.get(k) if isinstance(ctx.get(k), str | None) else json.dumps(ctx.get(k))
                    for k in ("tenant", "session_id", "agent_id", "agent_kind", "parent_session_id")
                ),
                None,
            )

    try:
        one()
    finally:
        summary = dict(sorted(harness.outcomes.items()))
        print(f"\nfuzz: {sum(harness.outcomes.values())} cases, outcomes {summary}")
        harness.close()
    assert sum(harness.outcomes.values()) >= min(EXAMPLES, 2000) * 0.9
    assert harness.outcomes["ok"] > 0 and len(harness.outcomes) > 2
