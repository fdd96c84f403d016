"""What turns a recorded memory into claims: the ``Extractor`` protocol the worker calls.

The model call is the user's (seed 001): an extractor gets the leased memory (its lines,
source, occurrence time) and returns claims in ``ingest``'s format. SQL decides what is
stored (``complete_extraction`` writes through ``ingest`` with all its rules); an
extractor only proposes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from ..rows import JSON, ExtractionWork

Claims = Sequence[Mapping[str, JSON]]


class ExtractionFailed(Exception):
    """An extractor's refusal with one of seed 000's provider error codes (1001 too large,
    1400 bad input, 1401 auth, 1403 forbidden, 1429 rate limited, 1500 server error, 1901
    malformed payload, 9999 unknown): the worker records it with ``fail_extraction``, which
    retries with backoff and parks the event after ``extraction_max_attempts``."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


@runtime_checkable
class Extractor(Protocol):
    """``name`` is stored with each episode: change it whenever a rule, prompt or schema of
    the extractor changes, so every claim says which version proposed it."""

    name: str

    def extract(self, work: ExtractionWork) -> Claims: ...


class ScriptedExtractor:
    """An extractor without a model, for tests and demos: ``script`` maps a leased memory
    to its claims (or raises ``ExtractionFailed``)."""

    def __init__(self, script: Callable[[ExtractionWork], Claims], name: str = "scripted@1"):
        self.name = name
        self._script = script

    def extract(self, work: ExtractionWork) -> Claims:
        return self._script(work)


def load_extractor(spec: str) -> Extractor:
    """``module:factory``: a callable (or class) returning an Extractor."""
    module, _, name = spec.partition(":")
    if not module or not name:
        raise ValueError(f"--extractor must be module:factory, not {spec!r}")
    extractor = getattr(importlib.import_module(module), name)()
    if not isinstance(extractor, Extractor):
        raise TypeError(f"{spec} did not return an Extractor (name, extract)")
    return extractor
