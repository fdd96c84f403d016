"""Layer order lint (run by ``make lint``; needs no database).

A layer builds on the layers before it, never on a later one: no statement in
``sql/NN_layer/`` names a function, table, sequence, type or view that is first defined in a
later layer, whether by that layer's folder (``sql/MM_layer/``, MM > NN) or by a migration
of that layer. So foundation runs without working memory, working memory without
knowledge, and a new layer adds what it needs in its own folder and migrations.

The project qualifies every name (``@schema@.x``, ``@schema@_internal.x``; the search_path
lint keeps it so), which is what this reads: comments are left out, string literals are not
(dynamic SQL names objects in them).

Where an object is first defined:

* a function (or view, type, ...) in ``sql/``: the lowest layer folder that creates it;
* an object a migration creates: the layer of that migration. Migrations are append-only
  and did not say their layer before 0032, so MIGRATION_LAYERS says it for the old ones
  that create objects; a later migration that creates one says so in its leading comment
  block, with a line ``-- Layer: NN_name`` naming its layer folder.

``python -m tests.lint_layers`` prints every reference to a later layer and exits 1 when
there is one that ALLOWED does not list.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from pgfacts import resources

# The layer of each migration before 0032 that creates objects (the ones that only alter,
# index or move data need none); each is named after, and written for, that layer.
MIGRATION_LAYERS = {
    "0001_foundation.sql": "00_foundation",
    "0002_working_memory.sql": "10_memory",
    "0003_knowledge.sql": "20_knowledge",
    "0004_knowledge_write_path.sql": "20_knowledge",
    "0005_knowledge_event_order.sql": "20_knowledge",
    "0006_knowledge_write_phases.sql": "20_knowledge",
    "0007_tool_registry.sql": "00_foundation",  # register_tool, sql/00_foundation/40_registry
    "0010_retrieval.sql": "30_retrieval",
    "0014_install_secret.sql": "00_foundation",  # the lock keys, sql/00_foundation/15_lock_keys
    "0016_knowledge_commit_instants.sql": "20_knowledge",
    "0018_fact_purge_horizon.sql": "10_memory",
    "0023_lock_key_secret_sequences.sql": "00_foundation",  # the lock keys again
}
# Objects a migration created for a layer other than its own.
OBJECT_LAYERS = {
    # Created by 0002 beside working memory's tables, but foundation's settings functions
    # (sql/00_foundation/20_settings.sql) read and write it, for every layer's settings.
    "@schema@_internal.settings": "00_foundation",
    # Created by 0045 beside the review tables, but the knowledge write path owns it: it
    # calls the gates later layers register there (sql/20_knowledge/28_claim_gates.sql).
    "@schema@_internal.claim_gates": "20_knowledge",
}
# References to a later layer that are known and owned, (referring function, referenced
# object) -> why. An entry no reference matches fails the lint: remove it with its fix.
ALLOWED: dict[tuple[str, str], str] = {}

_NAME = r"@schema@(?:_internal)?\.\"?[a-z_][a-z0-9_]*"
_CREATE = re.compile(
    r"\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:UNLOGGED\s+|TEMP(?:ORARY)?\s+)?"
    r"(FUNCTION|PROCEDURE|AGGREGATE|TABLE|SEQUENCE|TYPE|DOMAIN|VIEW|MATERIALIZED\s+VIEW)"
    rf"\s+(?:IF\s+NOT\s+EXISTS\s+)?({_NAME})",
    re.IGNORECASE,
)
_FUNCTION = re.compile(
    rf"\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|PROCEDURE)\s+({_NAME})", re.IGNORECASE
)
_REFERENCE = re.compile(_NAME)
_LAYER_LINE = re.compile(r"^--\s*Layer:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)
_MIGRATION_NUMBER = re.compile(r"^(\d{4})_")
FIRST_DECLARED = 32  # migrations from 0032 on say their layer themselves


def _plain(name: str) -> str:
    return name.replace('"', "")


def strip_comments(text: str) -> str:
    """The text without ``--`` comments (and block comments), string literals kept; line
    breaks stay, so positions keep their lines."""
    out = []
    i = 0
    quote = None  # "'" inside a literal; a dollar tag inside a dollar-quoted body is code
    while i < len(text):
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "'":
                quote = None
            i += 1
        elif ch == "'":
            quote = "'"
            out.append(ch)
            i += 1
        elif text.startswith("--", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = len(text) if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        else:
            out.append(ch)
            i += 1
    return "".join(out)


@dataclass(frozen=True)
class Violation:
    file: str  # relative to sql/
    line: int
    function: str  # the referring function, or "(statement)" outside any function
    layer: str
    referenced: str
    referenced_layer: str
    where: str  # where the referenced object is first defined

    def __str__(self) -> str:
        return (
            f"sql/{self.file}:{self.line}: {self.function} ({self.layer}) names "
            f"{self.referenced}, first defined in {self.referenced_layer} ({self.where})"
        )


def migration_layer(name: str, text: str, layers: set[str]) -> tuple[str | None, list[str]]:
    """A migration's layer (None when it declares none) and any problem with it."""
    declared = _LAYER_LINE.findall(_leading_comments(text))
    match = _MIGRATION_NUMBER.match(name)
    number = int(match.group(1)) if match else 0
    if declared:
        if len(declared) > 1 or declared[0] not in layers:
            return None, [f"migration {name}: '-- Layer:' must name one of {sorted(layers)}"]
        return declared[0], []
    if number < FIRST_DECLARED:
        return MIGRATION_LAYERS.get(name), []
    return None, []


def _leading_comments(text: str) -> str:
    lines = []
    for line in text.splitlines():
        if line.startswith("--") or not line.strip():
            lines.append(line)
        else:
            break
    return "\n".join(lines)


def first_definitions(
    sql_dir: Path, migrations_dir: Path
) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """Each object's first layer and where it is defined there; and the problems found."""
    layers = {p.name for p in sql_dir.iterdir() if p.is_dir()}
    first: dict[str, tuple[str, str]] = {}
    problems: list[str] = []

    def note(name: str, layer: str, where: str) -> None:
        name = _plain(name)
        layer = OBJECT_LAYERS.get(name, layer)
        if name not in first or layer < first[name][0]:
            first[name] = (layer, where)

    for path in sorted(migrations_dir.glob("*.sql")):
        text = path.read_text()
        created = [m.group(2) for m in _CREATE.finditer(strip_comments(text))]
        if not created:
            continue
        layer, trouble = migration_layer(path.name, text, layers)
        problems += trouble
        if layer is None:
            if not trouble:
                problems.append(
                    f"migration {path.name} creates {', '.join(sorted(set(created)))} but says "
                    "no layer: start it with a comment line '-- Layer: NN_name'"
                )
            continue
        for name in created:
            note(name, layer, f"migrations/{path.name}")
    for path in sorted(sql_dir.rglob("*.sql")):
        relative = path.relative_to(sql_dir).as_posix()
        for m in _CREATE.finditer(strip_comments(path.read_text())):
            note(m.group(2), relative.split("/")[0], f"sql/{relative}")
    return first, problems


def violations(sql_dir: Path, first: dict[str, tuple[str, str]]) -> list[Violation]:
    found = []
    for path in sorted(sql_dir.rglob("*.sql")):
        relative = path.relative_to(sql_dir).as_posix()
        layer = relative.split("/")[0]
        text = strip_comments(path.read_text())
        starts = [(m.start(), _plain(m.group(1))) for m in _FUNCTION.finditer(text)]
        for m in _REFERENCE.finditer(text):
            name = _plain(m.group(0))
            if name not in first or first[name][0] <= layer:
                continue
            function = next(
                (f for start, f in reversed(starts) if start <= m.start()), "(statement)"
            )
            found.append(
                Violation(
                    file=relative,
                    line=text.count("\n", 0, m.start()) + 1,
                    function=function,
                    layer=layer,
                    referenced=name,
                    referenced_layer=first[name][0],
                    where=first[name][1],
                )
            )
    return found


def check(sql_dir: Path | None = None, migrations_dir: Path | None = None) -> list[str]:
    sql_dir = sql_dir or resources.definitions_dir()
    migrations_dir = migrations_dir or resources.migrations_dir()
    first, problems = first_definitions(sql_dir, migrations_dir)
    used = set()
    for violation in violations(sql_dir, first):
        key = (violation.function, violation.referenced)
        if key in ALLOWED:
            used.add(key)
            print(f"note: allowed: {violation}: {ALLOWED[key]}", file=sys.stderr)
            continue
        problems.append(str(violation))
    for function, referenced in sorted(set(ALLOWED) - used):
        problems.append(
            f"ALLOWED lists {function} naming {referenced}, which no longer happens: remove it"
        )
    return problems


def main() -> int:
    problems = check()
    for problem in problems:
        print(f"layer lint: {problem}", file=sys.stderr)
    print(f"layer lint: {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
