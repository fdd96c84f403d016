"""The LangGraph store (pgfacts.integrations.langgraph) against LangGraph's InMemoryStore.

LangGraph ships no conformance suite for BaseStore, so the store is tested differentially:
random sequences of put, delete, get, search (filters, pagination), list_namespaces and
mixed batches run against both stores must answer alike, with namespace labels drawn to
collide (``foo`` / ``foobar``, ``_``, ``%``, ``*``, ``\\``, ``/``, ``~``). Where the two
differ by design (docs/python.md, "LangGraph store"), the comparison says so here:

- order: InMemoryStore pages in insertion order, this store by (namespace, key); the
  reference page is InMemoryStore's whole answer sorted so, then cut by offset and limit;
- namespaces without items: InMemoryStore keeps listing a namespace after its last item is
  deleted, and after a mere get of it (its defaultdict); the reference drops them;
- search with a query: pgfacts ranks by full text, InMemoryStore (without an index)
  ignores the query; for a query only where the hits come from is compared (each is an
  item InMemoryStore finds for the prefix and filter, at most limit, none twice), and the
  ranking is tested on its own;
- timestamps are each store's own; values are compared, JSON-shaped.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from langgraph.store.base import GetOp, ListNamespacesOp, MatchCondition, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

from pgfacts import Context, FactStore, InvalidParameter, PermissionDenied
from pgfacts.integrations.langgraph import (
    SEARCH_WINDOW,
    WINDOW,
    PgfactsStore,
    TooManyItems,
    decode_label,
    encode_label,
)

from .conftest import Clones, Database
from .support.example_tenant import fresh_tenant

TRICKY = ["foo", "foobar", "fo", "a_c", "abc", "a%", "axc", "*", "%", "_", "a\\", "a/b", "~2F"]
ALPHABET = "ab_%*\\/~:é\n "
labels = st.sampled_from(TRICKY) | st.text(ALPHABET, min_size=1, max_size=3)
namespaces = st.lists(labels, min_size=1, max_size=3).map(tuple)
prefixes = st.lists(labels, max_size=2).map(tuple)
keys = st.sampled_from(["k", "", "*", "%", "_", "k/1", "~"]) | st.text(ALPHABET, max_size=3)
# One shape, so that every filter compares like with like (InMemoryStore raises on a number
# comparison with a missing value; this store does not match it: documented).
values = st.fixed_dictionaries(
    {"n": st.integers(0, 4), "tag": st.sampled_from(["red", "blue"])},
    optional={"nested": st.fixed_dictionaries({"ok": st.booleans()}), "list": st.just([1, 2])},
)
filters = st.none() | st.sampled_from(
    [
        {"tag": "red"},
        {"n": {"$gte": 2}},
        {"n": {"$lt": 3}, "tag": "blue"},
        {"n": {"$ne": 1}},
        {"nested": {"ok": True}},
        {"list": [1, 2]},
    ]
)
pages = st.tuples(st.integers(0, 6), st.integers(0, 4))  # limit, offset


@st.composite
def programs(draw: st.DrawFn) -> list[Any]:
    """Steps (an op, or a batch of ops) over a few namespaces and keys drawn first, so that
    gets, searches and listings meet what the puts wrote; sometimes a fresh one."""
    pool = draw(st.lists(namespaces, min_size=1, max_size=3, unique=True))
    pool_keys = draw(st.lists(keys, min_size=1, max_size=2, unique=True))
    ns = st.sampled_from(pool) | st.sampled_from(pool) | st.sampled_from(pool) | namespaces
    key = st.sampled_from(pool_keys) | st.sampled_from(pool_keys) | keys
    # A prefix of a namespace in use: whole labels, or one label cut short (`fo` of `foo`).
    cut = st.sampled_from(pool).flatmap(
        lambda n: (
            st.integers(0, len(n)).map(lambda i: n[:i])
            | st.just((*n[:-1], n[-1][:-1]) if len(n[-1]) > 1 else n)
        )
    )
    prefix = cut | cut | prefixes
    path = st.lists(
        st.sampled_from([label for n in pool for label in n]) | st.just("*"), min_size=1, max_size=2
    ).map(tuple)
    put = st.builds(lambda n, k, v: PutOp(n, k, v), ns, key, values)
    delete = st.builds(lambda n, k: PutOp(n, k, None), ns, key)
    get = st.builds(lambda n, k: GetOp(n, k), ns, key)
    search = st.builds(lambda p, f, page: SearchOp(p, f, page[0], page[1]), prefix, filters, pages)
    # A query: only where its hits may come from is compared (module docstring).
    query = st.builds(
        lambda p, f, q, page: SearchOp(p, f, page[0] + 1, page[1], q),
        prefix,
        filters,
        st.sampled_from(["red", "blue", "red blue", "k"]),
        pages,
    )
    listing = st.builds(
        lambda pre, suf, depth, page: ListNamespacesOp(
            tuple(
                MatchCondition(kind, p)  # type: ignore[arg-type]
                for kind, p in (("prefix", pre), ("suffix", suf))
                if p
            ),
            depth,
            page[0] + 3,
            page[1],
        ),
        st.none() | cut | path,
        st.none() | path,
        st.none() | st.integers(1, 3),
        pages,
    )
    op = put | put | delete | get | get | search | search | query | listing
    # A batch of puts first, so that the reads have something to find.
    first = draw(st.lists(put, min_size=1, max_size=6))
    rest = draw(st.lists(op | st.lists(op, min_size=2, max_size=4), min_size=2, max_size=12))
    return [first, *rest]


def _context(tenant: str, **fields: Any) -> Context:
    return Context(tenant=tenant, **{"agent_id": "assistant", **fields})


@pytest.fixture(scope="module")
def facts(clones: Clones) -> Iterator[FactStore]:
    """One database for the module's tests, each test (and each example) in a tenant of its
    own: what a fresh database would answer (tests/support/example_tenant.py), without a
    clone per test."""
    name = clones.take()
    db = Database(name=name, admin_dsn=clones.server_dsn)
    with FactStore(db.dsn("app"), context=_context("t1", session_id="s1")) as store:
        yield store
    clones.drop(name)


def _store(facts: FactStore, tenant: str | None = None, **kw: Any) -> PgfactsStore:
    context = _context(tenant or fresh_tenant("lg"), session_id="s1")
    return PgfactsStore(facts.with_context(**vars(context)), **kw)


# -- the reference ------------------------------------------------------------------------


def _shape(result: Any) -> Any:
    """What both stores must agree on: items by namespace, key and value."""
    if result is None:
        return None
    if isinstance(result, list):
        return [_shape(r) for r in result]
    if isinstance(result, tuple):
        return result
    return (result.namespace, result.key, result.value)


def _reference(memory: InMemoryStore, ops: list[Any]) -> list[Any]:
    """InMemoryStore's answers, the documented differences taken out (module docstring)."""
    whole = [
        op._replace(limit=10**9, offset=0) if isinstance(op, SearchOp | ListNamespacesOp) else op
        for op in ops
    ]
    _drop_empty_namespaces(memory)
    # A batch's reads see the state before its writes; a get inside the batch would make
    # the namespace it reads appear in a listing, so listings are asked before the batch.
    listed = {
        i: memory.batch([whole[i]])[0]
        for i, op in enumerate(ops)
        if isinstance(op, ListNamespacesOp)
    }
    answers = memory.batch(whole)
    _drop_empty_namespaces(memory)
    results = []
    for i, op in enumerate(ops):
        answer = listed.get(i, answers[i])
        if isinstance(op, SearchOp) and op.query:
            # InMemoryStore without an index ignores the query: its answer is every item the
            # query may find, and the store's hits must be among them.
            results.append(Within(_shape(answer), op.limit))
            continue
        if isinstance(op, SearchOp):
            answer = sorted(answer, key=lambda item: (item.namespace, item.key))
        if isinstance(op, SearchOp | ListNamespacesOp):
            answer = answer[op.offset : op.offset + op.limit]
        results.append(_shape(answer))
    return results


@dataclass(frozen=True)
class Within:
    """The expected answer of a query: at most ``limit`` of ``items``, each once."""

    items: list[Any]
    limit: int

    def __eq__(self, answer: object) -> bool:
        return (
            isinstance(answer, list)
            and len(answer) <= self.limit
            and len({repr(a) for a in answer}) == len(answer)
            and all(item in self.items for item in answer)
        )


def _drop_empty_namespaces(memory: InMemoryStore) -> None:
    """A namespace without items (its items deleted, or only read) is no namespace."""
    for ns in [ns for ns, items in memory._data.items() if not items]:
        del memory._data[ns]


# -- the differential test ------------------------------------------------------------------


@settings(
    max_examples=int(os.environ.get("PGFACTS_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(steps=programs())
@example(  # a prefix is whole labels: ("foo",) holds nothing of ("foobar",)
    steps=[
        PutOp(("foobar",), "k", {"n": 1, "tag": "red"}),
        PutOp(("foo", "bar"), "k", {"n": 2, "tag": "red"}),
        SearchOp(("foo",), None, 10, 0),
        ListNamespacesOp((MatchCondition("prefix", ("foo",)),), None, 10, 0),
    ]
)
@example(  # `_` and `%` are letters: ("a_c",) and ("a%",) hold nothing of ("abc",), ("axc",)
    steps=[
        PutOp(("abc",), "k", {"n": 1, "tag": "red"}),
        PutOp(("axc",), "k", {"n": 1, "tag": "red"}),
        PutOp(("a%", "x"), "k", {"n": 1, "tag": "red"}),
        SearchOp(("a_c",), None, 10, 0),
        SearchOp(("a%",), None, 10, 0),
        GetOp(("a_c",), "k"),
        ListNamespacesOp((MatchCondition("prefix", ("a%",)),), None, 10, 0),
    ]
)
@example(  # reads of a batch see the state before its writes; the last write of an item wins
    steps=[
        [
            PutOp(("a",), "k", {"n": 1, "tag": "red"}),
            GetOp(("a",), "k"),
            PutOp(("a",), "k", None),
            PutOp(("a",), "k", {"n": 2, "tag": "blue"}),
        ],
        GetOp(("a",), "k"),
    ]
)
def test_the_store_answers_as_in_memory_store(facts: FactStore, steps: list[Any]) -> None:
    store = _store(facts)
    memory = InMemoryStore()
    for i, step in enumerate(steps):
        ops = step if isinstance(step, list) else [step]
        expected = _reference(memory, ops)
        # Every other step through abatch, so the async path is compared too.
        answers = asyncio.run(store.abatch(ops)) if i % 2 else store.batch(ops)
        assert expected == [_shape(r) for r in answers], ops
    # And everything at the end: every item, and every namespace.
    everything = [SearchOp((), None, WINDOW - 1, 0), ListNamespacesOp(None, None, WINDOW, 0)]
    assert _reference(memory, everything) == [_shape(r) for r in store.batch(everything)]


# -- explicit cases ---------------------------------------------------------------------------


def test_a_prefix_never_matches_a_longer_label(facts: FactStore) -> None:
    """LangGraph's own Postgres store matched ("foo",) to ("foobar",) (a text prefix)."""
    store = _store(facts)
    store.put(("foobar",), "k", {"v": 1})
    store.put(("foo",), "k", {"v": 2})
    assert [i.namespace for i in store.search(("foo",))] == [("foo",)]
    assert store.list_namespaces(prefix=("foo",)) == [("foo",)]
    assert [i.namespace for i in store.search(("foo",), query="k")] in ([("foo",)], [])


@pytest.mark.parametrize("label", ["a_c", "a%", "a*", "a\\", "a~7E"])
def test_wildcard_characters_are_letters(facts: FactStore, label: str) -> None:
    """LangGraph's own Postgres store let `_` and `%` in a label match other labels."""
    store = _store(facts)
    for other in ("abc", "axc", "a%c", "a", "ab", "a\\\\", "a~", "a~7E7E"):
        store.put((other,), "k", {"v": other})
    store.put((label,), "k", {"v": label})
    assert [i.value["v"] for i in store.search((label,))] == [label]
    assert store.list_namespaces(prefix=(label,)) == [(label,)]
    assert store.get((label,), "k").value == {"v": label}  # type: ignore[union-attr]


@given(st.text(min_size=1))
def test_a_label_is_one_segment_and_decodes_back(label: str) -> None:
    segment = encode_label(label)
    assert "/" not in segment and "*" not in segment and "%" not in segment
    assert "\\" not in segment
    assert decode_label(segment) == label


def test_segments_not_written_by_the_store_are_not_items(facts: FactStore) -> None:
    store = _store(facts)
    raw = store.facts
    raw.store_fact("langgraph/a/~61", {"v": 1}, shared=True)  # `a` escaped: not canonical
    raw.store_fact("langgraph/a/~zz", {"v": 1}, shared=True)
    raw.store_fact("langgraph/a/s", "not an object", shared=True)
    raw.store_fact("langgraph/a//k", {"v": 1}, shared=True)  # an empty label
    raw.store_fact("langgraph/a/k", {"v": 1}, shared=True)  # an item as the store writes it
    assert [(i.namespace, i.key) for i in store.search(())] == [(("a",), "k")]
    assert store.list_namespaces() == [("a",)]


def test_an_item_is_a_fact_under_the_root(facts: FactStore) -> None:
    store = _store(facts)
    store.put(("users", "u/1"), "prefs", {"theme": "dark"})
    [fact] = store.facts.read_facts(key_pattern="langgraph/*", scope="shared")
    assert (fact.key, fact.shared, fact.value) == (
        "langgraph/users/u~2F1/prefs",
        True,
        {"theme": "dark"},
    )
    item = store.get(("users", "u/1"), "prefs")
    assert item is not None and item.created_at == fact.created_at
    store.put(("users", "u/1"), "prefs", {"theme": "light", "big": 1e300, "zero": -0.0})
    again = store.get(("users", "u/1"), "prefs")
    assert again is not None and again.created_at == item.created_at  # an overwrite keeps it
    assert again.updated_at > item.updated_at
    assert again.value == {"theme": "light", "big": 10**300, "zero": 0.0}  # as jsonb keeps it


def test_over_the_callers_connection_a_batch_is_part_of_its_transaction(
    facts: FactStore,
) -> None:
    tenant = fresh_tenant("lg")
    pooled = _store(facts, tenant)
    with facts._conn() as conn:  # a connection of the test's own, as an app would hold
        store = PgfactsStore(FactStore(connection=conn, context=_context(tenant)))
        with pytest.raises(RuntimeError), conn.transaction():
            store.put(("a",), "k", {"v": 1})
            assert store.get(("a",), "k") is not None
            raise RuntimeError("the caller rolls back")
        assert store.get(("a",), "k") is None and pooled.get(("a",), "k") is None
        store.put(("a",), "k", {"v": 2})  # no transaction open: the batch commits itself
    assert pooled.get(("a",), "k").value == {"v": 2}  # type: ignore[union-attr]


def test_ttl_is_refused(facts: FactStore) -> None:
    store = _store(facts)
    with pytest.raises(NotImplementedError, match="TTL"):
        store.put(("a",), "k", {"v": 1}, ttl=5)
    with pytest.raises(NotImplementedError, match="TTL"):
        store.batch([PutOp(("a",), "k", {"v": 1}, ttl=5.0)])
    assert store.get(("a",), "k") is None
    store.put(("a",), "k", {"v": 1}, ttl=None)  # no TTL asked: stored
    assert store.get(("a",), "k", refresh_ttl=True) is not None


def test_a_batch_is_all_or_nothing(facts: FactStore) -> None:
    store = _store(facts)
    store.put(("a",), "old", {"v": 1})
    with pytest.raises(InvalidParameter):  # the database refuses a key over 512 characters
        store.batch(
            [
                PutOp(("a",), "new", {"v": 2}),
                PutOp(("a",), "old", None),
                PutOp(("a",), "x" * 600, None),
            ]
        )
    assert [i.key for i in store.search(("a",))] == ["old"]


def test_the_database_decides_the_limits(facts: FactStore) -> None:
    store = _store(facts)
    with pytest.raises(InvalidParameter):
        store.put(("a",), "k" * 600, {"v": 1})
    with pytest.raises(InvalidParameter):
        store.search(("a",), query="words", limit=500)  # search's limit is 1 to 100
    for value in ({"text": "a \x00 b"}, {"n": float("nan")}, {"n": float("inf")}):
        with pytest.raises(InvalidParameter):
            store.put(("a",), "k", value)
    with pytest.raises(ValueError, match="negative"):
        store.search(("a",), offset=-1)


def test_the_database_decides_who_may_change_an_item(facts: FactStore) -> None:
    """Any writer overwrites a shared item; only the agent that created it deletes it, and a
    tuner writes nothing (concepts.md, "Roles")."""
    tenant = fresh_tenant("lg")
    ana = _store(facts, tenant)
    bob = PgfactsStore(facts.with_context(**vars(_context(tenant, agent_id="bob"))))
    tuner = PgfactsStore(facts.with_context(**vars(_context(tenant, agent_kind="tuner"))))
    ana.put(("notes",), "n", {"v": 1})
    bob.put(("notes",), "n", {"v": 2})
    with pytest.raises(PermissionDenied):
        bob.delete(("notes",), "n")
    with pytest.raises(PermissionDenied):
        tuner.put(("notes",), "m", {"v": 3})
    assert tuner.get(("notes",), "n").value == {"v": 2}  # type: ignore[union-attr]
    ana.delete(("notes",), "n")
    assert bob.get(("notes",), "n") is None


def test_more_items_than_a_page_answer_as_in_memory_store(facts: FactStore) -> None:
    """Searches without a query and listings read every item, page by page
    (read_facts_page), not a window of WINDOW: 2,600 items under ("big",), 1,500 of them in
    that one namespace, against InMemoryStore."""
    store, memory = _store(facts), InMemoryStore()
    puts = [
        PutOp(("big",), f"k{i}", {"i": i, "tag": "red" if i % 3 else "blue"}) for i in range(1500)
    ]
    puts += [
        PutOp(("big", "sub", str(i % 5)), f"s{i}", {"i": i, "tag": "red"}) for i in range(1100)
    ]
    puts += [PutOp(("bigger",), "k", {"i": -1, "tag": "red"})]  # a longer label: not under big
    for start in range(0, len(puts), WINDOW):  # a batch's puts are one store_facts: 1000 at most
        chunk = puts[start : start + WINDOW]
        assert store.batch(chunk) == memory.batch(chunk)
    store.delete(("big",), "k7")
    memory.delete(("big",), "k7")
    reads = [
        SearchOp(("big",), None, 10**6, 0),  # everything: 2,599 items
        SearchOp(("big",), None, 20, 1990),  # a page past two read pages
        SearchOp(("big",), {"tag": "blue"}, 1000, 0),  # 499 of 1,499 in ("big",)
        SearchOp(("big",), {"i": {"$gte": 600}}, 2000, 0),  # 1,400 of both
        SearchOp(("big", "sub"), {"i": {"$lt": 3}}, 10, 0),
        ListNamespacesOp((MatchCondition("prefix", ("big",)),), None, 100, 0),
        ListNamespacesOp(None, 1, 10, 0),
        ListNamespacesOp((MatchCondition("suffix", ("4",)),), None, 10, 0),
    ]
    expected = _reference(memory, reads)
    assert len(expected[0]) == 2599 and len(expected[2]) == 500 and len(expected[3]) == 1400
    assert expected[5] == [("big",), *[("big", "sub", str(i)) for i in range(5)]]
    answers = [_shape(r) for r in store.batch(reads)]
    for op, want, got in zip(reads, expected, answers, strict=True):
        assert want == got, op


def test_a_filter_that_search_cannot_fill_is_refused_not_cut(facts: FactStore) -> None:
    """With a query, the filter applies to search's best SEARCH_WINDOW hits; when they do
    not fill the page and search gave that many, the answer could be wrong: an error."""
    store = _store(facts)
    store.batch(
        [
            PutOp(("docs",), f"d{i}", {"text": f"green tea number {i}", "tag": "blue"})
            for i in range(SEARCH_WINDOW + 20)
        ]
    )
    with pytest.raises(TooManyItems, match="fewer than offset"):
        store.search(("docs",), query="tea", filter={"tag": "red"})
    assert len(store.search(("docs",), query="tea", filter={"tag": "blue"}, limit=7)) == 7
    assert len(store.search(("docs",), query="tea", limit=3)) == 3  # no filter: search's page
    store.put(("few",), "d", {"text": "green tea", "tag": "blue"})
    assert store.search(("few",), query="tea", filter={"tag": "red"}) == []  # every hit seen


def test_tenants_and_sessions_are_apart(facts: FactStore) -> None:
    tenant = fresh_tenant("lg")
    shared = _store(facts, tenant)
    shared.put(("notes",), "n", {"v": "shared"})
    assert _store(facts).get(("notes",), "n") is None  # another tenant
    mine = PgfactsStore(
        facts.with_context(**vars(_context(tenant, session_id="s1"))), scope="session"
    )
    other = PgfactsStore(
        facts.with_context(**vars(_context(tenant, session_id="s2", parent_session_id="s1"))),
        scope="session",
    )
    mine.put(("notes",), "n", {"v": "s1"})
    other.put(("notes",), "n", {"v": "s2"})
    assert [mine.get(("notes",), "n").value, other.get(("notes",), "n").value] == [  # type: ignore[union-attr]
        {"v": "s1"},
        {"v": "s2"},
    ]
    assert shared.get(("notes",), "n").value == {"v": "shared"}  # type: ignore[union-attr]
    assert mine.list_namespaces() == [("notes",)]


def test_search_with_a_query_ranks_by_pgfacts_search(facts: FactStore) -> None:
    """Ranking is pgfacts' (full text); InMemoryStore without an index ignores the query."""
    store = _store(facts)
    store.put(("docs",), "tea", {"text": "green tea with jasmine", "kind": "drink"})
    store.put(("docs",), "deploy", {"text": "deploy the API with helm", "kind": "ops"})
    store.put(("docsextra",), "tea", {"text": "green tea again", "kind": "drink"})
    hits = store.search(("docs",), query="jasmine tea")
    assert [(h.namespace, h.key) for h in hits] == [(("docs",), "tea")]
    assert hits[0].score is not None and hits[0].value["kind"] == "drink"
    assert store.search(("docs",), query="tea", filter={"kind": "ops"}) == []
    assert [h.key for h in store.search((), query="helm")] == ["deploy"]
    store.put(("twins",), "a", {"text": "identical words"})
    store.put(("twins",), "b", {"text": "identical words"})
    assert len(store.search(("twins",), query="identical words")) == 1  # one content, one hit


def test_abatch_runs_the_same_batch(facts: FactStore) -> None:
    store = _store(facts)

    async def run() -> list[Any]:
        await store.aput(("a", "b"), "k", {"v": 1})
        return [
            await store.aget(("a", "b"), "k"),
            await store.asearch(("a",)),
            await store.alist_namespaces(max_depth=1),
        ]

    item, found, listed = asyncio.run(run())
    assert item is not None and item.value == {"v": 1}
    assert [i.key for i in found] == ["k"] and listed == [("a",)]


def test_the_core_import_needs_no_langgraph() -> None:
    code = "import sys, pgfacts; print(any(m.startswith('langgraph') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
