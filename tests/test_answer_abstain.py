"""Questions the documents do not answer, though related documents exist: "not found", not a related sentence.

"What is the email address of the Kestrel office?" over a directory with telephone numbers only: the thing asked
("email address") is named by all its words, not by "address" alone. "What time does the Kestrel office open on
Sundays?" over costs and minutes without a time of day: "what time" wants a time of day, not any number or date.
Answered counterparts show the rules do not simply refuse. A folder written here is ingested into the default
embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hopgraph.api import run
from hopgraph.config import Context
from hopgraph.index.factory import close_backend, open_backend
from hopgraph.index.ingest import ingest_paths
from hopgraph.policies.answer.asked import asked_subject, asked_thing
from hopgraph.policies.answer.compose import NOT_FOUND
from hopgraph.policies.answer.types import DATE, holds_kind

DIRECTORY = """# Office directory

| Office | Address | Town | Telephone |
|---|---|---|---|
| Kestrel office | 3 Ferry Road | Dunmore | 01632 970 221 |
| Heron office | 18 Quay Street | Ballyhale | 01632 970 384 |
"""

COSTS = """# Office costs 2026

| office | quarter | rent | energy |
|---|---|---|---|
| Kestrel office | Q1 | 4200 | 610 |
| Kestrel office | Q2 | 4200 | 540 |
| Heron office | Q1 | 3900 | 580 |
"""

MINUTES = """# Office managers' meeting, 4 May 2026

The council has asked for the fire doors at the Kestrel office to be checked before the summer. Rosa Quirke will
book the contractor.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, list[str]]]:
    docs = tmp_path_factory.mktemp("offices") / "admin"
    docs.mkdir()
    (docs / "office-directory.md").write_text(DIRECTORY)
    (docs / "office-costs-2026.md").write_text(COSTS)
    (docs / "managers-meeting-2026-05-04.md").write_text(MINUTES)
    index_dir = str(tmp_path_factory.mktemp("offices-index"))
    backend = open_backend(index_dir=index_dir)
    try:
        ingest_paths(backend, [docs], container="admin", progress=False)
        yield backend, ["admin"]
    finally:
        close_backend(index_dir=index_dir)


def _answer(folder: tuple[Any, list[str]], question: str) -> str:
    backend, containers = folder
    context = Context(mode="answer", model="builtin", backend=backend, containers=containers)
    return str(run(question, context=context)["answer"])


def test_what_a_question_names_as_asked() -> None:
    assert asked_thing("What is the email address of the Kestrel office?") == {"email", "addre"}
    # A superlative ranks the things, it names none; a generic head names nothing.
    assert asked_thing("What is the most popular hotel in Dunmore?") == {"hotel"}
    assert asked_thing("What is the largest site of the company?") == {"site"}
    assert asked_thing("What is the test fee for a van?") == {"test", "fee"}
    assert asked_thing("What is the phone number of the office?") == set()
    # "Who is the council's building inspector?": the asked thing may end the question.
    assert asked_subject("Who is the council's building inspector?") == {"inspe"}
    # "What time" wants a time of day.
    asked = "What time does the office open on Sundays?"
    assert holds_kind("The Heron office opens at 8:30 from June.", DATE, asked)
    assert not holds_kind("office: Kestrel office; quarter: Q1; rent: 4200", DATE, asked)
    assert not holds_kind("The meeting was on 4 May 2026.", DATE, asked)


@pytest.mark.parametrize("question", [
    "What is the email address of the Kestrel office?",
    "What time does the Kestrel office open on Sundays?",
])
def test_unanswered_questions_are_not_found(folder: tuple[Any, list[str]], question: str) -> None:
    answer = _answer(folder, question)
    assert answer.startswith(NOT_FOUND[:-1]), answer
    assert "admin" in answer


@pytest.mark.parametrize(("question", "fact"), [
    ("What is the telephone number of the Kestrel office?", "01632 970 221"),
    ("Who will book the contractor for the fire doors?", "Rosa Quirke"),
])
def test_their_answered_counterparts(folder: tuple[Any, list[str]], question: str, fact: str) -> None:
    answer = _answer(folder, question)
    assert fact in answer, answer
