"""For a "why" question, the sentence that says it gives the cause ("Root cause: the renewal job had been switched
off ...") answers before one that only tells of the failure ("... traced the stoppage to an expired certificate ...
and renewed it by hand"), when the two share about as many words with the question. A folder written here is ingested
into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.slots import gives_cause
from tests.support.folders import Folder, ask, ingested, write_files

OUTAGE = """# INC-12: Label printer certificate expired

Date: 6 August 2026.

The label printers at the Leeds depot stopped printing at 09:10. Ola Berg traced the stoppage to an expired
certificate on the print server and renewed it by hand at 11:30.

Root cause: the certificate renewal job had been switched off during the July maintenance window and was never
switched back on.
"""
HAULAGE = """# Haulage Agreement - Northsea Haulage Ltd

This Agreement is made on 5 June 2025 between Kestrel Foods Ltd and Northsea Haulage Ltd (the "Carrier"). It ends on
4 June 2027.
"""


@pytest.mark.parametrize(("sentence", "cause"), [
    ("Root cause: the renewal job had been switched off.", True),
    ("The cause was a loose door seal.", True),
    ("Reason: the van was in for repair.", True),
    ("Ola traced the stoppage to an expired certificate.", False),
    ("Causes of delay are listed in the annex.", False),
])
def test_a_sentence_that_says_it_gives_the_cause(sentence: str, cause: bool) -> None:
    assert gives_cause(sentence) is cause


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("gives-cause"), {
        "ops/INC-12-printers.md": OUTAGE, "legal/northsea-haulage.md": HAULAGE})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_sentence_that_gives_the_cause(folder: Folder) -> None:
    answer = str(ask(folder, "Back in August the printers' cert just expired. Why didn't it get renewed "
                             "automatically?")["answer"])
    assert "switched off during the July maintenance window" in answer, answer
