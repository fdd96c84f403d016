"""An extractor for the worker's process tests (``pgfacts worker --extractor
tests.support.slow_extractor:SlowExtractor``): it notes each memory it starts in
$PGFACTS_TEST_EXTRACTIONS (a directory), then takes $PGFACTS_TEST_EXTRACT_SECONDS."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pgfacts.pipeline.extractors import Claims
from pgfacts.rows import ExtractionWork


class SlowExtractor:
    name = "slow@1"

    def extract(self, work: ExtractionWork) -> Claims:
        started = Path(os.environ["PGFACTS_TEST_EXTRACTIONS"]) / f"{work.event_id}"
        started.write_text(str(work.attempt))
        time.sleep(float(os.environ.get("PGFACTS_TEST_EXTRACT_SECONDS", "0.2")))
        return []
