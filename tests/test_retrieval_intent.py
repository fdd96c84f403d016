"""detect_intent on a table of phrasings: plain present and past questions, cue words,
explicit years, changes and comparisons, negations ("not anymore", "no longer", "still"),
and questions that say nothing about time."""

from __future__ import annotations

from .conftest import Database
from .support.caller import Caller

CASES = [
    # current
    ("Where does Anna live now?", "current"),
    ("Which city is Anna currently living in?", "current"),
    ("What is Ola's job these days?", "current"),
    ("Who is the current CEO of Globex?", "current"),
    ("What's Marek's latest phone number?", "current"),
    ("Where is Lena working at the moment?", "current"),
    ("What car does Ivo drive today?", "current"),
    ("Is Greta still at Initech?", "current"),
    ("Does Pavel still live in Oslo?", "current"),
    ("Nowadays, what does Nina eat for breakfast?", "current"),
    ("What is Oskar's present address?", "current"),
    ("Who manages the team right now?", "current"),
    ("Presently, which database does the API use?", "current"),
    ("What's the up-to-date deploy command?", "current"),
    ("Where does Hana live as of today?", "current"),
    ("Which version are we running at present?", "current"),
    ("Is the build still broken?", "current"),
    ("What does Bruno do for a living now?", "current"),
    # historical
    ("Where did Anna use to live?", "historical"),
    ("Where did Anna live in 2015?", "historical"),
    ("What was Ola's previous employer?", "historical"),
    ("Which car did Ivo drive before?", "historical"),
    ("Who was the CEO back in 2012?", "historical"),
    ("What was Marek's phone number originally?", "historical"),
    ("Where did Lena work five years ago?", "historical"),
    ("What was the old deploy command?", "historical"),
    ("Formerly, which team did Greta lead?", "historical"),
    ("What did Pavel study at the time?", "historical"),
    ("Which framework did we use last year?", "historical"),
    ("Where was the office located back then?", "historical"),
    ("In the past, what did Nina drink?", "historical"),
    ("What was Oskar's first job?", "historical"),
    ("Where did Hana live when she was a student?", "historical"),
    ("Which language did the project start in?", "historical"),
    ("Who used to maintain the parser?", "historical"),
    ("What did the API return in 2019?", "historical"),
    ("What was the address in March 2018?", "historical"),
    # both: changes, comparisons, negations
    ("How has Anna's address changed over time?", "both"),
    ("Compare Ola's old and new employer", "both"),
    ("Where did Ivo live before and where does he live now?", "both"),
    ("Does Marek not live in Oslo anymore?", "both"),
    ("Which cities does Lena no longer live in?", "both"),
    ("Greta doesn't work at Initech anymore, where does she work now?", "both"),
    ("What is the history of Pavel's jobs?", "both"),
    ("How did the deploy process evolve?", "both"),
    ("What changed in the schema since 2020?", "both"),
    ("Has Nina switched teams?", "both"),
    ("What's the difference between the old and the current pricing?", "both"),
    ("Give me a timeline of Oskar's roles", "both"),
    ("Hana moved from Lviv to Kyiv: when?", "both"),
    ("Is Bruno still using Vim or did he switch?", "both"),
    ("Which libraries did we drop, and what replaced them?", "both"),
    ("Not anymore in Lviv? Where then?", "both"),
    ("Is Anna no longer in Lviv?", "both"),
    ("Where has Anna lived since 2019?", "both"),
    # unknown: nothing says which time
    ("Anna's address", "unknown"),
    ("Ola employer", "unknown"),
    ("deploy command for the API", "unknown"),
    ("Tell me about Marek", "unknown"),
    ("favourite coffee of Lena", "unknown"),
    ("Ivo Volvo", "unknown"),
    ("what does Greta like", "unknown"),
    ("Pavel's phone number", "unknown"),
    ("list the skills under skills/", "unknown"),
    ("Does Nina like coffee?", "unknown"),
    ("Does Nina not like coffee?", "unknown"),
    ("Who is Oskar?", "unknown"),
    ("Which projects use Go?", "unknown"),
    ("What do we use to deploy the API?", "unknown"),
]


def test_the_table_is_big_enough() -> None:
    assert len(CASES) >= 60
    assert {intent for _, intent in CASES} == {"current", "historical", "both", "unknown"}


def test_intent_of_each_phrasing(db: Database) -> None:
    caller = Caller(db, kind="agent")
    wrong = []
    for text, expected in CASES:
        got = caller.one("SELECT pgfacts.detect_intent(%s)", text)
        if got["intent"] != expected:
            wrong.append(f"{text!r}: {got['intent']} (expected {expected}) {got['signals']}")
    assert not wrong, "\n".join(wrong)


def test_a_year_weighs_heavily_and_is_reported(db: Database) -> None:
    caller = Caller(db, kind="agent")
    got = caller.one("SELECT pgfacts.detect_intent('Where does Anna live in 2015?')")
    assert got["intent"] == "historical" and "year:2015" in got["signals"]
    got = caller.one("SELECT pgfacts.detect_intent('Where did Anna use to live?')")
    assert "hist:used to" in got["signals"] and got["confidence"] > 0.5


def test_a_named_year_ranks_the_value_valid_then_first(db: Database) -> None:
    m = Caller(db)
    anna = m.entity("Anna")
    m.one("SELECT pgfacts.define_predicate('lives_in', 'one')")
    for n, (city, start) in enumerate(
        (("Kyiv", "2010-01-01"), ("Lviv", "2015-06-01"), ("Odesa", "2020-01-01"))
    ):
        m.ingest(
            f"move-{n}",
            [{"subject": anna, "predicate": "lives_in", "object": city, "valid_from": start}],
        )
    # Every version matches the words alike; the year decides which leads.
    for year, city in (("2012", "Kyiv"), ("2017", "Lviv"), ("2021", "Odesa")):
        hits = m.search(f"Where did Anna live in {year}?")
        assert hits[0]["content"] == f"Anna lives in {city}", (year, hits)
        assert {h["content"] for h in hits} >= {"Anna lives in Kyiv", "Anna lives in Lviv"}
    # Two years (a span, a comparison) or none: no year is preferred.
    named = "SELECT pgfacts_internal.named_year(pgfacts.detect_intent(%s))::text"
    assert m.one(named, "Where did Anna live in 2012?").startswith('["2012-01-01')
    assert m.one(named, "Where did Anna live between 2012 and 2017?") is None
    assert m.one(named, "Where did Anna live?") is None
