"""A person asked for by their duty at a place the question describes rather than names, and "how often" asked of
the thread's subject.

"A rowing club wants to hire the hall at the library with the recording studio. Who handles that?": the service
guide gives the duty to a job ("the Events Officer at the library concerned"), the directory's section on Fenwick
Library is the only one that speaks of a recording studio, and the staff list names Fenwick's Events Officer. Then
"How often is she supposed to do it?" after "Who checks the fire doors at Fenwick Library?" is answered with the
frequency the safety policy gives, though the sentence says neither "often" nor "supposed". A folder written here
is ingested into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from tests.support.folders import Folder, ask, ingested, write_files

DIRECTORY = """# Directory of libraries

## Amberley Library

- **Address:** 3 Mill Street, Amberley
- **Phone:** 01632 700100
- **Facilities:** children's library, study room with 40 desks, community hall.

## Fenwick Library

- **Address:** 22 Quarry Road, Fenwick
- **Phone:** 01632 700200
- **Facilities:** community hall, makerspace, and a recording studio that groups can book by the hour.

## Harlow Green Library

- **Address:** 9 Green Lane, Harlow Green
- **Phone:** 01632 700300
- **Facilities:** local history room, community hall, café.
"""
GUIDE = """# Who deals with what

- **Hall hire** for clubs, societies and community groups: the Events Officer at the library concerned takes the
  booking and sends the hire agreement.
- **Home library service**: the Outreach Librarian.
"""
STAFF = """name,job_title,site
Priya Anand,Events Officer,Amberley Library
Tom Becker,Events Officer,Fenwick Library
Lucia Moretti,Events Officer,Harlow Green Library
Dana Kiel,Building Officer,Fenwick Library
"""
SAFETY = """# Building safety policy

The **Building Officer** at each library checks every fire door and emergency light once a week, before opening,
and writes the result in the building log.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("libraries"), {
        "service/directory.md": DIRECTORY, "service/who-deals-with-what.md": GUIDE, "service/staff.csv": STAFF,
        "service/building-safety-policy.md": SAFETY})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_place_the_question_describes(folder: Folder) -> None:
    question = "A rowing club wants to hire the hall at the library with the recording studio. Who handles that?"
    answer = str(ask(folder, question)["answer"])
    assert "Tom Becker" in answer, answer
    assert "Priya Anand" not in answer and "Lucia Moretti" not in answer, answer


def test_how_often_asked_of_the_subject(folder: Folder) -> None:
    saver = InMemorySaver()
    ask(folder, "Who checks the fire doors at Fenwick Library?", thread_id="t", checkpointer=saver)
    answer = str(ask(folder, "How often is she supposed to do it?", thread_id="t", checkpointer=saver)["answer"])
    assert "once a week" in answer, answer
