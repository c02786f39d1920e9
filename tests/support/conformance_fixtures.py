"""The conformance tests' fixtures (a pytest plugin, see ``pytest_plugins`` in those tests): ``harness`` opens
each backend kind in turn, ``loaded`` holds the small corpus."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.conformance import Harness, corpus_chunks


@pytest.fixture(params=["edge", "server"])
def harness(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Harness]:
    h = Harness(request.param, tmp_path)
    if request.param == "server":
        # Closing the in-memory client would drop the data we want to see again after reopen.
        h.backend.close = lambda: None  # type: ignore[method-assign]
    yield h
    if request.param == "edge":
        h.backend.close()


@pytest.fixture
def loaded(harness: Harness) -> Harness:
    harness.backend.upsert(corpus_chunks())
    return harness
