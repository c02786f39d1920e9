"""Release notes: a version named by its document's title, a follow-up about "it", a version nobody wrote about.

"Which firmware version fixed the clock drift?" is answered by a line of release notes ("Fixed: BUG-851, the clock
...") that does not say its version: the document's title does ("Logger firmware 2.6.0 - release notes"), so the
answer leads with it. "When was it released?" then asks about that version, not about the logger the first
question named. "When is firmware 2.9.0 due?" names a version no document speaks of: not found, rather than the
release date of another version. A folder written here is ingested into the default embedded index and asked
through the graph with the built-in answer policy.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from tests.support.folders import Folder, ask, ingested, write_files

NOTES = {
    "2.5.0": ("3 March 2026", ["New: the RL-20 logs humidity every 10 minutes.",
                               "Fixed: BUG-702, the display stayed dark after a firmware upload."]),
    "2.6.0": ("19 August 2026", ["New: configurable upload interval from 5 minutes to 24 hours.",
                                 "Fixed: BUG-851, the clock of the RL-20 could lag by several seconds per day "
                                 "after a battery change."]),
    "2.6.1": ("14 October 2026", ["Fixed: BUG-877, uploads failed when the gateway clock was ahead."]),
}
DATASHEET = """# RL-20 data logger - datasheet

The RL-20 logs temperature and humidity. Battery: two AA cells, about 14 months at a 10-minute interval.
Clock accuracy: within 2 seconds per day at 20 degrees Celsius.
"""


def _notes(version: str, released: str, lines: list[str]) -> str:
    items = "\n".join(f"- {line}" for line in lines)
    return f"# Logger firmware {version} - release notes\n\nFirmware {version} was released on {released}.\n\n{items}\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    files = {f"product/releases/release-notes-{v}.md": _notes(v, *rest) for v, rest in NOTES.items()}
    docs = write_files(tmp_path_factory.mktemp("loggers"), {**files, "product/rl-20-datasheet.md": DATASHEET})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_version_a_document_title_gives_and_a_follow_up_about_it(folder: Folder) -> None:
    thread, saver = str(uuid.uuid4()), InMemorySaver()
    first = str(ask(folder, "Which firmware version fixed the RL-20 clock falling behind after a battery swap?",
                    thread_id=thread, checkpointer=saver)["answer"])
    assert "2.6.0" in first and "BUG-851" in first, first
    second = str(ask(folder, "When was it released?", thread_id=thread, checkpointer=saver)["answer"])
    assert "19 August 2026" in second, second


def test_a_version_no_document_speaks_of_is_not_found(folder: Folder) -> None:
    answer = str(ask(folder, "When is firmware 2.9.0 due to be released?")["answer"])
    assert answer.startswith("Not found"), answer
    assert "14 October 2026" in str(ask(folder, "When was firmware 2.6.1 released?")["answer"])
