"""A labelled retrieval set: small memories of people whose facts change over time, questions
about them with the answers that are relevant, and the harness that scores ``search``.

Each memory is one person with a few slots (where they live, who employs them, what they
drive, ...). A slot holds one to three values over valid time (a move, a new job), and some
slots hold a mistake that a more trusted source corrected (never true: relevant to no
question). Some slots also have a working-memory fact an agent wrote: either the first
value (the claim extracted from it was superseded since, so the fact is stale truth) or
the current one. Notes that mention the same cities and companies, but no person, are
distractors.

Questions are written per slot and intent (the templates below): ``current`` and
``unknown`` questions want the current value; ``historical`` ones the past values (the one
valid in a named year when a year is named); ``both`` ones every value. A hit is judged by
what it states (person, slot, value), so a fact and a claim saying the same thing are one
answer. The harness reports recall@5 and nDCG@10 per intent and the share of current and
unknown answers in the top 5 that are stale by the ground truth (not by the row's own
flag): a past value, a corrected mistake, or a fact whose value moved on.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from pgfacts.rerank import Reranker, rerank_hits

FIRST = [
    "Anna",
    "Ola",
    "Marek",
    "Lena",
    "Tomas",
    "Ivo",
    "Greta",
    "Pavel",
    "Nina",
    "Oskar",
    "Hana",
    "Bruno",
    "Klara",
    "Emil",
    "Rosa",
    "Felix",
    "Ida",
    "Leon",
    "Vera",
    "Hugo",
    "Maja",
    "Otto",
    "Zofia",
    "Jonas",
    "Alma",
    "Viktor",
    "Irma",
    "Kaspar",
    "Edda",
    "Milan",
    "Sara",
    "Rafael",
    "Lotte",
    "Anton",
    "Mira",
    "Gustav",
    "Runa",
    "Boris",
    "Tilda",
    "Aron",
]
LAST = [
    "Kowalski",
    "Berg",
    "Novak",
    "Lindqvist",
    "Moreau",
    "Horvat",
    "Jensen",
    "Petrov",
    "Silva",
    "Keller",
    "Dvorak",
    "Weber",
    "Nilsen",
    "Rossi",
    "Kaminski",
    "Varga",
    "Costa",
    "Meyer",
    "Fischer",
    "Hansen",
    "Laine",
    "Duarte",
    "Brandt",
    "Sorensen",
    "Vidal",
    "Kuznetsov",
    "Haas",
    "Olsen",
    "Marin",
    "Fontaine",
]
CITIES = [
    "Lviv",
    "Kyiv",
    "Oslo",
    "Bergen",
    "Porto",
    "Lisbon",
    "Krakow",
    "Gdansk",
    "Vienna",
    "Graz",
    "Tallinn",
    "Riga",
    "Vilnius",
    "Dublin",
    "Cork",
    "Lyon",
    "Nantes",
    "Seville",
    "Valencia",
    "Turin",
    "Bologna",
    "Leipzig",
    "Dresden",
    "Malmo",
    "Aarhus",
    "Tampere",
    "Brno",
    "Zagreb",
    "Ljubljana",
    "Salzburg",
]
COMPANIES = [
    "Initech",
    "Globex",
    "Umbrella",
    "Hooli",
    "Vandelay",
    "Soylent",
    "Stark",
    "Wayne",
    "Tyrell",
    "Cyberdyne",
    "Aperture",
    "Wonka",
    "Acme",
    "Monarch",
    "Gringotts",
    "Oscorp",
    "Nakatomi",
    "Massive",
    "Dynamic",
    "Pied",
    "Piper",
    "Dunder",
]
CARS = [
    "Volvo",
    "Skoda",
    "Tesla",
    "Fiat",
    "Renault",
    "Toyota",
    "Subaru",
    "Peugeot",
    "Mazda",
    "Kia",
    "Saab",
    "Honda",
]
LANGUAGES = [
    "Go",
    "Rust",
    "SQL",
    "Python",
    "Java",
    "Kotlin",
    "Elixir",
    "Haskell",
    "Scala",
    "Ruby",
    "OCaml",
    "Zig",
    "Swift",
]
PETS = [
    "beagle",
    "parrot",
    "tortoise",
    "ferret",
    "labrador",
    "tabby",
    "hamster",
    "poodle",
    "iguana",
    "rabbit",
]
SPORTS = [
    "tennis",
    "chess",
    "climbing",
    "rowing",
    "fencing",
    "cycling",
    "badminton",
    "squash",
    "curling",
    "karate",
]
TITLES = [
    "nurse",
    "architect",
    "pilot",
    "teacher",
    "chemist",
    "plumber",
    "lawyer",
    "baker",
    "dentist",
    "editor",
    "geologist",
    "translator",
]


@dataclass(frozen=True)
class Slot:
    """A predicate, how a claim states a value, and the questions asked about it."""

    predicate: str
    description: str  # define_predicate's description
    values: tuple[str, ...]
    statement: str  # {name}, {v}
    questions: dict[str, tuple[str, ...]]  # intent -> templates ({name}, {first}, {year})


SLOTS = (
    Slot(
        "lives_in",
        "the city where a person lives: home, address, based in",
        tuple(CITIES),
        "{name} lives in {v}",
        {
            "current": (
                "Where does {name} live now?",
                "Which city is {name} currently living in?",
                "Where is {name} based these days?",
                "Does {name} still live in the same city?",
            ),
            "historical": (
                "Where did {name} use to live?",
                "Which city did {name} live in previously?",
                "Where was {name} living back then, before the move?",
            ),
            "historical_year": ("Where did {name} live in {year}?",),
            "both": (
                "How has the city {name} lives in changed over time?",
                "Where did {name} live before and where does {name} live now?",
            ),
            "unknown": ("{name} home city", "{name} address city"),
        },
    ),
    Slot(
        "works_at",
        "the company a person works for: employer, job",
        tuple(COMPANIES),
        "{name} works at {v}",
        {
            "current": (
                "Where does {name} work now?",
                "Who is {name}'s current employer?",
                "Which company employs {name} at the moment?",
            ),
            "historical": (
                "Where did {name} work before?",
                "Which company did {name} use to work at?",
                "What was {name}'s former employer?",
            ),
            "historical_year": ("Which company was {name} working at in {year}?",),
            "both": (
                "Has {name}'s employer changed?",
                "Give me the history of {name}'s employers",
            ),
            "unknown": ("{name} employer", "company {name} works at"),
        },
    ),
    Slot(
        "drives",
        "the car a person drives",
        tuple(CARS),
        "{name} drives a {v}",
        {
            "current": (
                "What car does {name} drive now?",
                "Which car is {name} currently driving?",
            ),
            "historical": (
                "What car did {name} use to drive?",
                "Which car did {name} drive previously?",
            ),
            "historical_year": ("What did {name} drive in {year}?",),
            "both": ("How has {name}'s car changed over the years?",),
            "unknown": ("{name} car",),
        },
    ),
    Slot(
        "codes_in",
        "the programming language a person mostly writes code in",
        tuple(LANGUAGES),
        "{name} mostly codes in {v}",
        {
            "current": (
                "Which programming language does {name} code in now?",
                "What language is {name} currently coding in?",
            ),
            "historical": (
                "Which language did {name} code in originally?",
                "What language did {name} use to code in?",
            ),
            "historical_year": ("Which language did {name} code in in {year}?",),
            "both": ("Has {name} switched programming languages over time?",),
            "unknown": ("{name} programming language",),
        },
    ),
    Slot(
        "has_pet",
        "an animal a person keeps as a pet",
        tuple(PETS),
        "{name} has a pet {v}",
        {
            "current": ("What pet does {name} have now?", "Which pet does {name} currently keep?"),
            "historical": ("What pet did {name} have before?", "Which pet did {name} used to own?"),
            "historical_year": ("What pet did {name} have in {year}?",),
            "both": ("How have {name}'s pets changed over time?",),
            "unknown": ("{name} pet",),
        },
    ),
    Slot(
        "plays",
        "a sport or hobby a person plays",
        tuple(SPORTS),
        "{name} plays {v} on weekends",
        {
            "current": (
                "What sport does {name} play these days?",
                "Which sport is {name} into now?",
            ),
            "historical": ("What sport did {name} use to play?",),
            "historical_year": ("Which sport did {name} play in {year}?",),
            "both": ("Compare the sports {name} played before and now",),
            "unknown": ("{name} weekend sport",),
        },
    ),
    Slot(
        "job_title",
        "a person's occupation: profession, role, what they work as",
        tuple(TITLES),
        "{name} works as a {v}",
        {
            "current": ("What is {name}'s job now?", "What does {name} currently work as?"),
            "historical": ("What did {name} work as previously?", "What was {name}'s old job?"),
            "historical_year": ("What was {name}'s job in {year}?",),
            "both": ("How has {name}'s job changed since the start?",),
            "unknown": ("{name} occupation",),
        },
    ),
)
SLOT_BY_NAME = {s.predicate: s for s in SLOTS}
Label = tuple[str, str, str]  # (person, predicate, value)


@dataclass
class Version:
    value: str
    year: int  # valid from 1 January of this year
    mistake: bool = False  # a value a more trusted source corrected: never true


@dataclass
class Memory:
    name: str
    slots: dict[str, list[Version]] = field(default_factory=dict)
    # predicate -> index of the version a working-memory fact states
    facts: dict[str, int] = field(default_factory=dict)

    def true_versions(self, predicate: str) -> list[Version]:
        return [v for v in self.slots[predicate] if not v.mistake]


@dataclass(frozen=True)
class Query:
    text: str
    intent: str  # current | historical | both | unknown (what the question means)
    relevant: frozenset[Label]
    person: str
    predicate: str


def statement(memory: Memory, predicate: str, value: str) -> str:
    return SLOT_BY_NAME[predicate].statement.format(name=memory.name, v=value)


def build_memories(count: int, seed: int = 13) -> list[Memory]:
    rng = random.Random(seed)
    names = [f"{first} {last}" for last in LAST for first in FIRST]
    rng.shuffle(names)
    memories = []
    for name in names[:count]:
        memory = Memory(name)
        for slot in rng.sample(SLOTS, k=rng.randint(4, len(SLOTS))):
            changes = rng.choices((1, 2, 3), weights=(2, 4, 3))[0]
            years = sorted(rng.sample(range(2008, 2025), changes))
            values = rng.sample(slot.values, changes + 1)
            versions = [Version(v, y) for v, y in zip(values, years, strict=False)]
            if rng.random() < 0.15:  # a mistake, corrected later by a more trusted source
                at = rng.randrange(len(versions))
                versions.insert(at, Version(values[-1], versions[at].year, mistake=True))
            memory.slots[slot.predicate] = versions
            if rng.random() < 0.35:
                true = memory.true_versions(slot.predicate)
                memory.facts[slot.predicate] = 0 if rng.random() < 0.5 else len(true) - 1
        memories.append(memory)
    return memories


def _relevant(memory: Memory, predicate: str, intent: str, year: int | None) -> frozenset[Label]:
    true = memory.true_versions(predicate)
    if intent in ("current", "unknown"):
        chosen = true[-1:]
    elif intent == "historical" and year is not None:
        chosen = [v for v in true if v.year <= year][-1:]
    elif intent == "historical":
        chosen = true[:-1]
    else:
        chosen = true
    return frozenset((memory.name, predicate, v.value) for v in chosen)


def build_queries(memories: list[Memory], per_memory: int, seed: int = 29) -> list[Query]:
    """``per_memory`` questions about each memory, intents taken in turn."""
    rng = random.Random(seed)
    intents = ("current", "historical", "both", "unknown", "current", "historical")
    queries = []
    turn = 0
    for memory in memories:
        for _ in range(per_memory):
            intent = intents[turn % len(intents)]
            turn += 1
            changed = [p for p in memory.slots if len(memory.true_versions(p)) > 1]
            if intent in ("historical", "both") and not changed:
                intent = "current"
            predicate = rng.choice(
                changed if intent in ("historical", "both") else list(memory.slots)
            )
            templates = SLOT_BY_NAME[predicate].questions
            year = None
            kind = intent
            if intent == "historical" and rng.random() < 0.35:
                kind = "historical_year"
                true = memory.true_versions(predicate)
                past = rng.randrange(len(true) - 1)
                year = rng.randrange(true[past].year, true[past + 1].year)
            text = rng.choice(templates[kind]).format(name=memory.name, year=year)
            queries.append(
                Query(
                    text, intent, _relevant(memory, predicate, intent, year), memory.name, predicate
                )
            )
    return queries


def slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def _distractors(count: int, rng: random.Random) -> list[dict[str, Any]]:
    lines = (
        "The {c} office moved to a new building near the station",
        "Quarterly review of the {c} account is due next month",
        "Trip to {c} booked for the team offsite",
        "{o} signed a contract with the {c} branch",
        "Meeting notes: {o} wants a demo of the new release",
        "Reminder: the {c} data centre has planned maintenance",
    )
    return [
        {
            "key": f"notes/{i}",
            "value": rng.choice(lines).format(c=rng.choice(CITIES), o=rng.choice(COMPANIES)),
            "shared": True,
        }
        for i in range(count)
    ]


def load(conn: psycopg.Connection[Any], tenant: str, memories: list[Memory]) -> dict[str, Label]:
    """Store the memories as claims and facts (operator of ``tenant``); returns content ->
    label, how the harness judges a hit."""
    labels: dict[str, Label] = {}
    rng = random.Random(5)
    with conn.transaction():
        conn.execute(
            "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')", (tenant,)
        )
        for slot in SLOTS:
            conn.execute(
                "SELECT pgfacts.define_predicate(%s, 'one', %s)",
                (slot.predicate, slot.description),
            )
        conn.execute(
            "SELECT pgfacts.store_facts(%s)", (Jsonb(_distractors(len(memories) * 2, rng)),)
        )
    context = "SELECT pgfacts.set_context(tenant => %s, agent_kind => 'operator')"
    for memory in memories:
        with conn.transaction():
            conn.execute(context, (tenant,))
            person = conn.execute(
                "SELECT pgfacts.ensure_entity('person', %s)", (memory.name,)
            ).fetchone()[0]  # type: ignore[index]
        for predicate, versions in memory.slots.items():
            true = memory.true_versions(predicate)
            fact_at = memory.facts.get(predicate)
            for version in versions:
                text = statement(memory, predicate, version.value)
                labels[text] = (memory.name, predicate, version.value)
                from_fact = fact_at is not None and true[fact_at] is version
                key = f"people/{slug(memory.name)}/{predicate}"
                episode = {
                    "source_kind": "fact" if from_fact else "note",
                    "source_ref": f"shared:{key}" if from_fact else f"{key}/{version.year}",
                    "content_hash": f"{version.value}-{version.mistake}",
                    # a mistake comes from a third party; its correction from the owner
                    "trust": "third_party" if version.mistake else "owner",
                }
                claim = {
                    "subject": person,
                    "predicate": predicate,
                    "object": version.value,
                    "text": text,
                    "valid_from": f"{version.year}-01-01",
                }
                # Each version is learned in its own transaction, as a memory grows over
                # time: what one transaction writes becomes known at one instant, so a
                # story written in one holds no past belief (docs/concepts.md).
                with conn.transaction():
                    conn.execute(context, (tenant,))
                    if from_fact:
                        conn.execute(
                            "SELECT pgfacts.store_fact(%s, %s, shared => true)", (key, Jsonb(text))
                        )
                        labels[f"{key}: {text}"] = labels[text]
                    conn.execute("SELECT pgfacts.ingest(%s, %s)", (Jsonb(episode), Jsonb([claim])))
    return labels


def dcg(gains: Iterable[float]) -> float:
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


DEPTHS = (5, 10, 25)


@dataclass
class Scores:
    queries: int = 0
    recall: dict[int, float] = field(default_factory=lambda: dict.fromkeys(DEPTHS, 0.0))
    ndcg10: float = 0.0
    top5: int = 0  # hits in the top 5 (current and unknown questions: the stale share's base)
    stale5: int = 0
    lookalike5: int = 0  # questions with another person's value of the asked slot in the top 5

    @property
    def recall5(self) -> float:  # the sum, as before DEPTHS (tests/test_retrieval_quality.py)
        return self.recall[5]

    def add(self, recall: dict[int, float], ndcg: float, lookalike: bool) -> None:
        self.queries += 1
        for depth in DEPTHS:
            self.recall[depth] += recall[depth]
        self.ndcg10 += ndcg
        self.lookalike5 += lookalike


def stale_label(memories: dict[str, Memory], label: Label | None) -> bool:
    """Whether a hit states something not true now: a past value or a corrected mistake."""
    if label is None:
        return False
    person, predicate, value = label
    true = memories[person].true_versions(predicate)
    return value != true[-1].value


def lookalike(query: Query, label: Label | None) -> bool:
    """A hit that states another person's value of the slot asked about: it shares the
    question's predicate words, not its person."""
    return label is not None and label[1] == query.predicate and label[0] != query.person


def judge(
    query: Query, hits: list[str], labels: dict[str, Label], memories: dict[str, Memory]
) -> tuple[dict[int, float], float, int, int, bool]:
    """(recall at each depth, nDCG@10, hits in the top 5, stale ones among them, whether a
    look-alike is in the top 5) of one query."""
    seen: set[Label] = set()
    gains = []
    for content in hits[:10]:
        label = labels.get(content)
        relevant = label in query.relevant and label not in seen
        if label is not None:
            seen.add(label)
        gains.append(1.0 if relevant else 0.0)
    recall = {
        d: len({labels.get(c) for c in hits[:d]} & query.relevant) / len(query.relevant)
        for d in DEPTHS
    }
    ideal = dcg([1.0] * min(len(query.relevant), 10))
    stale = sum(1 for c in hits[:5] if stale_label(memories, labels.get(c)))
    lookalike5 = any(lookalike(query, labels.get(c)) for c in hits[:5])
    return recall, dcg(gains) / ideal, len(hits[:5]), stale, lookalike5


INTENTS = ("current", "historical", "both", "unknown")
SEARCH = (
    "SELECT content FROM pgfacts.search(%s, query_vector => %s::vector, model => %s, "
    '"limit" => 25, text_weight => %s::real, vector_weight => %s::real)'
)


def vector_literal(vector: list[float]) -> str:
    return "[" + ",".join(f"{x:.6f}" for x in vector) + "]"


@dataclass(frozen=True)
class _Hit:
    content: str


def rerank_texts(query: str, contents: list[str], reranker: Reranker) -> list[str]:
    """Hits' contents in the reranker's order (the code the store runs, ``rerank_hits``)."""
    return [h.content for h in rerank_hits(query, [_Hit(c) for c in contents], reranker)]


def evaluate(
    conn: psycopg.Connection[Any],
    tenant: str,
    memories: list[Memory],
    queries: list[Query],
    labels: dict[str, Label],
    embedder: Any | None,
    weights: tuple[float, float] = (1.0, 1.0),
    reranker: Reranker | None = None,
) -> dict[str, Scores]:
    """Ask every question with limit 25 (hybrid when an embedder is given, else lexical;
    ``weights``: text_weight and vector_weight, (0, 1) the vector list alone; ``reranker``:
    its order of the 25 hits, as ``store.search(..., reranker=...)`` gives it); scores per
    intent and ``all``."""
    by_name = {m.name: m for m in memories}
    scores = {intent: Scores() for intent in (*INTENTS, "all")}
    vectors = (
        embedder.embed([q.text for q in queries]) if embedder is not None else [None] * len(queries)
    )
    if embedder is None:
        weights = (1.0, 0.0)
    for query, vector in zip(queries, vectors, strict=True):
        with conn.transaction():
            conn.execute("SELECT pgfacts.set_context(tenant => %s)", (tenant,))
            hits = [
                r[0]
                for r in conn.execute(
                    SEARCH,
                    (
                        query.text,
                        None if vector is None else vector_literal(vector),
                        None if embedder is None else embedder.model,
                        *weights,
                    ),
                ).fetchall()
            ]
        if reranker is not None:
            hits = rerank_texts(query.text, hits, reranker)
        recall, ndcg, top5, stale, look = judge(query, hits, labels, by_name)
        for name in (query.intent, "all"):
            scores[name].add(recall, ndcg, look)
            if query.intent in ("current", "unknown"):
                scores[name].top5 += top5
                scores[name].stale5 += stale
    return scores


def print_scores(title: str, scores: dict[str, Scores]) -> None:
    print(f"\n{title}")
    header = (
        f"{'intent':<12} {'queries':>8} {'recall@5':>9} {'recall@10':>10} {'recall@25':>10} "
        f"{'nDCG@10':>8} {'look-alike@5':>13} {'stale share (top 5)':>20}"
    )
    print(header)
    print("-" * len(header))
    for intent, s in scores.items():
        if not s.queries:
            continue
        stale = f"{s.stale5}/{s.top5} = {s.stale5 / s.top5:.3f}" if s.top5 else ""
        print(
            f"{intent:<12} {s.queries:>8} {s.recall[5] / s.queries:>9.3f} "
            f"{s.recall[10] / s.queries:>10.3f} {s.recall[25] / s.queries:>10.3f} "
            f"{s.ndcg10 / s.queries:>8.3f} {s.lookalike5 / s.queries:>13.3f} {stale:>20}"
        )
