"""Two versions of pgfacts in one run: store_fact, ingest and search, taking turns call by call.

``python -m bench.versions --before REV [--after REV] [--size smoke|full]`` (``make
bench-versions BEFORE=REV``). Figures from two separate runs do not compare on a shared
2-core machine (absolute times move up to 2x between runs), so this one installs both
versions side by side and measures them in the same rounds:

* ``before`` is git revision REV: its ``python/``, ``sql/`` and ``migrations/`` are exported
  (``git archive``) into a temporary directory and installed into a fresh database A by
  that revision's own migrator (``python -m pgfacts migrate --dsn ...`` with ``PYTHONPATH``
  at the export's ``python/``, so it reads the export's SQL). ``after`` is the working tree
  of this checkout by default (uncommitted changes included), or another revision exported
  the same way, installed into database B. Both databases live on the same server and are
  dropped at the end.
* Both are prepared with the same data, step by step, A then B: working memory's spawn
  trees of sessions with a batch of 100 facts each (bench/working_memory.py's sessions,
  facts and ``call_tool`` statement), knowledge's predicates, entities and episodes of 5
  claims (bench/knowledge.py's generator and its reference model, which predicts each
  claim's outcome), and the labelled retrieval set (bench/retrieval_set.py: people, their
  claims and facts, distractor notes; questions) with the deterministic HashEmbedder's
  vectors for hybrid search.
* Measured, for each operation, in rounds: one call on A and one on B, the first of the
  pair alternating round by round (``runner.timed_together``), each call its own
  transaction. store_fact is one statement, ``call_tool('store_fact', fact, context)`` in
  autocommit, as working memory's bench sends it; ingest and search are BEGIN, set_context,
  the call and COMMIT, pipelined (one round trip), as knowledge's bench sends them.

Every answer is compared between the versions: store_fact's and ingest's JSON results must
be equal (and ingest's outcomes what the model predicts); a search must return the same set
of hits (item kind and ref) for the same data and question. A difference is a wrong answer
and the run exits non-zero, as does a failed call. The order of equal sets is reported, not
failed on.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.types.json import Jsonb

from pgfacts import resolve_dsn
from pgfacts.retrieval import HashEmbedder

from . import knowledge as kn
from . import retrieval_quality as rq
from . import retrieval_set as rs
from . import working_memory as wm
from .runner import SIZES, Result, print_table, timed_together

REPO = Path(__file__).resolve().parent.parent
WORKING_TREE = "working tree"
WARMUP = 5


@dataclass(frozen=True)
class Size:
    trees: int  # working memory: spawn trees of 10 sessions, a batch of 100 facts each
    shared: int  # working memory: shared facts before them
    entities: int  # knowledge
    episodes: int  # knowledge: episodes of 5 claims ingested before the measured ones
    memories: int  # retrieval: people of the labelled set
    per_memory: int  # retrieval: questions per person
    repeat: int  # measured rounds of store_fact and ingest (a round: one call on A, one on B)
    searches: int  # measured rounds of each search


VERSION_SIZES = {
    "smoke": Size(
        trees=2,
        shared=200,
        entities=100,
        episodes=200,
        memories=30,
        per_memory=2,
        repeat=50,
        searches=50,
    ),
    "full": Size(
        trees=20,
        shared=2_000,
        entities=2_000,
        episodes=3_000,
        memories=320,
        per_memory=2,
        repeat=2_000,
        searches=1_000,
    ),
}
assert set(VERSION_SIZES) == set(SIZES)

SEARCH_TENANT = rq.TENANT
SEARCH_CONTEXT = "SELECT pgfacts.set_context(tenant => %s)"  # as retrieval_quality asks
SEARCH = (
    "SELECT item_kind, ref FROM pgfacts.search(%s, query_vector => %s::vector, model => %s, "
    '"limit" => 10)'
)
STORE = "store_fact (single)"
INGEST = "ingest (5 claims per episode)"
LEXICAL = "search lexical (limit 10)"
HYBRID = "search hybrid 384-d (limit 10)"


@dataclass
class Version:
    """One side of the comparison: what is installed (a revision or the working tree), its
    database and connection, and every answer it gave, by operation, in order."""

    name: str  # before | after
    source: str  # the revision asked for, or WORKING_TREE
    describe: str = ""
    tree: Path = REPO
    dsn: str = ""
    conn: Any = None
    answers: dict[str, list[Any]] = field(default_factory=dict)

    def answer(self, operation: str, value: Any) -> None:
        self.answers.setdefault(operation, []).append(value)


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def describe(source: str) -> str:
    if source == WORKING_TREE:
        changed = git("status", "--porcelain", "--", "python", "sql", "migrations")
        dirty = " with uncommitted changes to python/, sql/ or migrations/" if changed else ""
        return f"working tree at {git('rev-parse', '--short', 'HEAD')}{dirty}"
    return f"{git('rev-parse', '--short', source)} {git('log', '-1', '--format=%s', source)}"[:100]


def export(rev: str, into: Path) -> Path:
    """The revision's package, definitions and migrations, as files under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", rev, "python", "sql", "migrations"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def own_package(tree: Path, *args: str) -> str:
    """Run ``python args`` with the package of ``tree`` (not this checkout's); its stdout."""
    env = {**os.environ, "PYTHONPATH": str(tree / "python")}
    env.pop("PGFACTS_DSN", None)
    done = subprocess.run(
        [sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(f"{args} with {tree} failed:\n{done.stderr}{done.stdout}")
    return done.stdout


def install(tree: Path, dsn: str) -> list[str]:
    """Migrate ``dsn`` with the migrator of ``tree`` (its own package, reading its own SQL);
    returns the migrations its ledger records."""
    own_package(tree, "-m", "pgfacts", "migrate", "--dsn", dsn)
    expected = sorted(p.name for p in (tree / "migrations").glob("*.sql"))
    with psycopg.connect(dsn) as conn:
        ledger = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM pgfacts_internal.schema_ledger WHERE kind = 'migration' "
                "ORDER BY name"
            )
        ]
    if ledger != expected:
        raise RuntimeError(f"{dsn}: the ledger holds {ledger[-3:]}, the tree {expected[-3:]}")
    return ledger


@contextmanager
def database(label: str) -> Iterator[str]:
    """A fresh, empty database on the server, dropped afterwards."""
    server = resolve_dsn()
    name = f"pgfacts_versions_{uuid.uuid4().hex[:8]}_{label}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    params = conninfo_to_dict(server)
    params["dbname"] = name
    try:
        yield make_conninfo(**params)
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def pipelined(conn: Any, context: tuple[str, Any], sql: str, params: Any) -> list[Any]:
    """BEGIN, set_context, ``sql``, COMMIT in one pipeline (one round trip); ``sql``'s rows."""
    try:
        with conn.pipeline():
            conn.execute("BEGIN")
            conn.execute(*context)
            cursor = conn.execute(sql, params)
            conn.execute("COMMIT")
    except psycopg.Error:
        conn.execute("ROLLBACK")
        raise
    return cursor.fetchall()


def same(what: str, a: Any, b: Any) -> None:
    """A preparation step must answer alike in both versions."""
    if a != b:
        raise RuntimeError(f"{what}: the versions answered differently:\n  {a!r}\n  {b!r}")


# --- preparation: the same data in both, step by step, A then B -----------------------------


def prepare_working_memory(versions: list[Version], spec: Size) -> int:
    """Shared facts, then one batch of 100 per session of ``spec.trees`` spawn trees, as
    working memory's load makes them; returns how many sessions there are."""
    rng = random.Random(17)
    numbers = iter(range(10**9))
    writer = {"tenant": wm.TENANT, "session_id": "loader", "agent_id": "loader"}
    batches: list[tuple[list[dict[str, Any]], dict[str, str]]] = []
    for start in range(0, spec.shared, wm.FACTS_PER_SESSION):
        facts = []
        for _ in range(min(wm.FACTS_PER_SESSION, spec.shared - start)):
            n = next(numbers)
            facts.append(
                wm.make_fact(rng, f"proj/{n % wm.PROJECTS}/shared/{n}", n) | {"shared": True}
            )
        batches.append((facts, writer))
    sessions = spec.trees * len(wm.TREE)
    for index in range(sessions):
        facts = []
        for _ in range(wm.FACTS_PER_SESSION):
            n = next(numbers)
            facts.append(wm.make_fact(rng, f"proj/{rng.randrange(wm.PROJECTS)}/item/{n}", n))
        batches.append((facts, wm.context(index)))
    for facts, ctx in batches:
        stored = [wm.call(v.conn, "store_fact", {"facts": facts}, ctx) for v in versions]
        same("store_fact batch", *stored)
        if stored[0]["stored"] != len(facts):
            raise RuntimeError(f"store_fact batch stored {stored[0]['stored']} of {len(facts)}")
    return sessions


def prepare_knowledge(versions: list[Version], spec: Size) -> tuple[Callable[..., Any], int]:
    """Knowledge's predicates and entities, and ``spec.episodes`` episodes ingested; returns
    a generator of the next episodes (claims, expected outcomes) and the wrong outcomes."""
    ids = []
    for v in versions:
        with v.conn.transaction():
            v.conn.execute(kn.CONTEXT, (kn.TENANT, "operator"))
            for name, (cardinality, _) in kn.PREDICATES.items():
                v.conn.execute("SELECT pgfacts.define_predicate(%s, %s)", (name, cardinality))
            ids.append(
                [
                    row[0]
                    for row in v.conn.execute(
                        "SELECT pgfacts.ensure_entity('person', 'name-' || i, "
                        "external_ref => 'p/' || i) FROM generate_series(1, %s) AS i ORDER BY i",
                        (spec.entities,),
                    ).fetchall()
                ]
            )
    same("entity ids", *ids)
    entities = ids[0]
    rng = random.Random(1)
    slots: dict[kn.Key, kn.Slot] = {}
    state = {"serial": 0, "episode": 0}

    def next_episode() -> tuple[tuple[Jsonb, Jsonb], list[str]]:
        episode = state["episode"]
        claims, expected, _ = kn.make_episode(rng, entities, slots, state["serial"], episode)
        state["serial"] += len(claims)
        state["episode"] += 1
        return (Jsonb(kn.episode_source(episode)), Jsonb(claims)), expected

    wrong = 0
    for _ in range(spec.episodes):
        params, expected = next_episode()
        results = [ingest(v, params) for v in versions]
        same("ingest", *results)
        wrong += outcomes_wrong(results[0], expected)
    return next_episode, wrong


def ingest(version: Version, params: tuple[Jsonb, Jsonb]) -> Any:
    rows = pipelined(version.conn, (kn.CONTEXT, (kn.TENANT, "operator")), kn.INGEST, params)
    return rows[0][0]


def outcomes_wrong(result: Any, expected: list[str]) -> int:
    outcomes = [item["outcome"] for item in result["outcomes"]]
    return sum(a != b for a, b in zip(outcomes, expected, strict=True))


# The embedding worker of a version's own package (the client refuses a schema other than
# its own): the HashEmbedder is the same code in both (deterministic, offline).
EMBED = """
import sys
from pgfacts.client import Context
from pgfacts.retrieval import HashEmbedder, run_embedding_queue
report = run_embedding_queue(
    HashEmbedder(int(sys.argv[3])), Context(tenant=sys.argv[2], agent_kind="operator"),
    dsn=sys.argv[1])
assert not report.failed_rows and not report.failed_batches, report
print(report.embedded)
"""


def embed(version: Version, embedder: HashEmbedder) -> int:
    """Register the embedder's model for the search tenant and work its queue, with the
    version's own worker; how many rows it embedded."""
    with psycopg.connect(version.dsn) as conn, conn.transaction():
        conn.execute(
            "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')",
            (SEARCH_TENANT,),
        )
        conn.execute(
            "SELECT pgfacts.register_embedding_model(%s, %s)",
            (embedder.model, embedder.dimension),
        )
    out = own_package(
        version.tree, "-c", EMBED, version.dsn, SEARCH_TENANT, str(embedder.dimension)
    )
    return int(out.strip())


def prepare_search(versions: list[Version], spec: Size, embedder: HashEmbedder) -> list[Any]:
    """The labelled set in both, embedded by the HashEmbedder; returns its questions."""
    memories = rs.build_memories(spec.memories)
    embedded = []
    for v in versions:
        with psycopg.connect(v.dsn) as conn:
            rs.load(conn, SEARCH_TENANT, memories)
        with psycopg.connect(v.dsn) as conn, conn.transaction():
            conn.execute(
                "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')",
                (SEARCH_TENANT,),
            )
            conn.execute(
                "SELECT pgfacts.register_embedding_model(%s, %s)",
                (embedder.model, embedder.dimension),
            )
        embedded.append(embed(v, embedder))
    same("embeddings written", *embedded)
    queries = rs.build_queries(memories, spec.per_memory)
    vectors = embedder.embed([q.text for q in queries])
    return [(q.text, rs.vector_literal(vec)) for q, vec in zip(queries, vectors, strict=True)]


# --- the measured rounds -------------------------------------------------------------------


def measure(
    versions: list[Version], operation: str, call: Callable[[Version, Any], Any], items: list[Any]
) -> list[list[float]]:
    """``call`` on each item, the versions taking turns (``WARMUP`` rounds first, answers
    kept), each version's samples in ms."""
    queues = [iter(items) for _ in versions]

    def turn(index: int) -> Callable[[], None]:
        version, queue = versions[index], queues[index]
        return lambda: version.answer(operation, call(version, next(queue)))

    return timed_together(
        [turn(i) for i in range(len(versions))], len(items) - WARMUP, warmup=WARMUP
    )


def compare(versions: list[Version], operation: str, key: Callable[[Any], Any]) -> tuple[int, int]:
    """Answers of the two versions that differ (by ``key``), of how many."""
    before, after = (v.answers.get(operation, []) for v in versions)
    if len(before) != len(after):
        raise RuntimeError(f"{operation}: {len(before)} answers before, {len(after)} after")
    return sum(key(a) != key(b) for a, b in zip(before, after, strict=True)), len(before)


def pair(
    operation: str, samples: list[list[float]], wrong: int, checked: int, note: str
) -> list[Result]:
    """The before row and the after row (its p95/base column: after / before)."""
    before, after = Result(f"{operation}: before", samples[0]), Result("", samples[1])
    p50, p95 = after.p50 / before.p50, after.p95 / before.p95
    verdict = "within" if p95 <= 1.05 else "over"
    return [
        before,
        Result(
            f"{operation}: after",
            samples[1],
            baseline=before.operation,
            wrong=wrong,
            note=f"after/before: p50 {p50:.3f}x, p95 {p95:.3f}x ({verdict} the issue's 5%); "
            f"answers compared: {checked}, differing {wrong}; {note}",
        ),
    ]


def run(before: str, after: str, size: str) -> tuple[list[Result], list[str]]:
    spec = VERSION_SIZES[size]
    versions = [
        Version("before", before, describe(before)),
        Version("after", after, describe(after)),
    ]
    embedder = HashEmbedder(384)
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pgfacts-versions-")))
        for label, v in zip("ab", versions, strict=True):
            if v.source != WORKING_TREE:
                v.tree = export(v.source, tmp / v.name)
            v.dsn = stack.enter_context(database(label))
            started = time.perf_counter()
            ledger = install(v.tree, v.dsn)
            print(
                f"{v.name}: {v.describe}\n    installed by its own migrator from {v.tree} into "
                f"database {conninfo_to_dict(v.dsn)['dbname']} ({len(ledger)} migrations, last "
                f"{ledger[-1]}; {time.perf_counter() - started:.1f} s)"
            )
            v.conn = stack.enter_context(psycopg.connect(v.dsn, autocommit=True))

        started = time.perf_counter()
        sessions = prepare_working_memory(versions, spec)
        next_episode, load_wrong = prepare_knowledge(versions, spec)
        questions = prepare_search(versions, spec, embedder)
        for v in versions:
            v.conn.execute("VACUUM ANALYZE")
            v.conn.execute("CHECKPOINT")  # no checkpoint of the load in the measured rounds
        print(
            f"prepared both in {time.perf_counter() - started:.1f} s: "
            f"{spec.shared + sessions * wm.FACTS_PER_SESSION:,} facts ({sessions} sessions), "
            f"{spec.episodes:,} episodes of {kn.CLAIMS_PER_EPISODE} claims over "
            f"{spec.entities:,} entities, {spec.memories} people of the labelled set and "
            f"{len(questions)} questions; {load_wrong} ingest outcomes not as the model predicts"
        )

        rounds = spec.repeat + WARMUP
        results: list[Result] = []
        problems: list[str] = []
        if load_wrong:
            problems.append(f"load: {load_wrong} ingest outcomes not as the model predicts")

        # store_fact: fresh keys, round robin over the sessions, as working memory's singles.
        rng = random.Random(23)
        singles = []
        for n in range(10**6, 10**6 + rounds):
            index = n % sessions
            fact = wm.make_fact(rng, f"proj/{n % wm.PROJECTS}/note/{n}", n)
            singles.append((fact, wm.context(index)))
        samples = measure(versions, STORE, lambda v, s: wm.call(v.conn, "store_fact", *s), singles)
        differ, checked = compare(versions, STORE, lambda answer: answer)
        not_stored = sum(not a["stored"] for v in versions for a in v.answers[STORE])
        results += pair(
            STORE,
            samples,
            differ + not_stored,
            checked,
            "call_tool('store_fact', fact, context), one statement in autocommit; fresh keys, "
            f"existing sessions; JSON results equal, every one stored ({not_stored} not)",
        )

        # ingest: the next episodes of the same generator; the model predicts each outcome.
        episodes = [next_episode() for _ in range(rounds)]
        samples = measure(versions, INGEST, lambda v, e: ingest(v, e[0]), episodes)
        differ, checked = compare(versions, INGEST, lambda answer: answer)
        expected = [e[1] for e in episodes]
        model_wrong = sum(
            outcomes_wrong(a, x)
            for v in versions
            for a, x in zip(v.answers[INGEST], expected, strict=True)
        )
        results += pair(
            INGEST,
            samples,
            differ + model_wrong,
            checked,
            f"after {spec.episodes:,} episodes; BEGIN + set_context + ingest + COMMIT "
            "pipelined; JSON results equal (ids included), outcomes as the model predicts "
            f"({model_wrong} not)",
        )

        # search: the labelled set's questions in turn, lexical, then hybrid.
        def ask(with_vector: bool, exact: bool = False) -> Callable[[Version, Any], Any]:
            def call(v: Version, q: tuple[str, str]) -> list[tuple[str, str]]:
                params = (q[0], q[1], embedder.model) if with_vector else (q[0], None, None)
                if exact:
                    with v.conn.transaction():
                        v.conn.execute("SET LOCAL enable_indexscan = off")
                        v.conn.execute(SEARCH_CONTEXT, (SEARCH_TENANT,))
                        return [tuple(r) for r in v.conn.execute(SEARCH, params)]
                context = (SEARCH_CONTEXT, (SEARCH_TENANT,))
                return [tuple(r) for r in pipelined(v.conn, context, SEARCH, params)]

            return call

        cycled = [questions[i % len(questions)] for i in range(spec.searches + WARMUP)]
        for operation, with_vector in ((LEXICAL, False), (HYBRID, True)):
            samples = measure(versions, operation, ask(with_vector), cycled)
            differ, checked = compare(versions, operation, lambda hits: sorted(hits))
            reordered, _ = compare(versions, operation, lambda hits: hits)
            hits = sum(len(a) for a in versions[0].answers[operation]) / checked
            note = (
                f"{len(questions)} questions in turn, {hits:.1f} hits on average; BEGIN + "
                "set_context + search + COMMIT pipelined; the same set of hits (kind, ref) "
                f"for the same question; in another order: {reordered - differ}"
            )
            if with_vector and differ:
                # The HNSW graph of each database is built with random levels, so the
                # approximate vector list may differ: a question answered differently is
                # asked again in both without index scans (exact); only a difference
                # that remains is a wrong answer.
                exact = ask(True, exact=True)
                pairs = zip(*(v.answers[operation] for v in versions), cycled, strict=True)
                left = [q for a, b, q in pairs if sorted(a) != sorted(b)]
                remain = sum(
                    sorted(exact(versions[0], q)) != sorted(exact(versions[1], q)) for q in left
                )
                note += (
                    f"; of the {differ} answered with other hits, asked again without index "
                    f"scans (exact vector list): {remain} still differ, {differ - remain} "
                    "differed by the approximate HNSW index alone (each database builds its own "
                    "graph, with random levels)"
                )
                differ = remain
            results += pair(operation, samples, differ, checked, note)
        problems += [f"{r.operation}: {r.wrong}" for r in results if r.wrong]
        return results, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="git revision of the before version")
    parser.add_argument(
        "--after", default=WORKING_TREE, help="git revision (default: this working tree)"
    )
    parser.add_argument("--size", choices=SIZES, default="full")
    args = parser.parse_args()
    started = time.perf_counter()
    results, problems = run(args.before, args.after, args.size)
    print_table(
        f"versions: before {args.before} against after {args.after}, taking turns call by call"
        f"  [size {args.size}]",
        results,
    )
    print(f"\nbench finished in {time.perf_counter() - started:.1f} s")
    if problems:
        sys.exit("wrong answers: " + "; ".join(problems))


if __name__ == "__main__":
    main()
