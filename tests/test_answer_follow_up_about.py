"""A follow-up answered from the sentence that is about the thread's subject, not from one that mentions it.

"Who is the site manager of the Harrow bakery?" then "And where is it?": "Harrow bakery: 5 Mill Lane, Bristol."
opens with the subject and says where it is; "The two Thyme vans are based at the Harrow bakery." is about the
vans. A folder written here is ingested into the default embedded index and asked through the graph with the
built-in answer policy on one thread.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.policies.answer.records import opens_with
from tests.support.folders import Folder, ask, ingested, write_files

SITES = """# Our bakeries

Harrow bakery: 5 Mill Lane, Bristol. The site manager is Odile Marchetti. It bakes sourdough for the western
shops and opens at 4:30.

Quarry bakery: 18 Stone Row, Bath. The site manager is Tariq Hussein. It makes the cakes.
"""

VANS = """# Where the Harrow vans go

The two Thyme vans are based at the Harrow bakery and deliver to the shops in Clifton and Redland. The Harrow
vans leave at 6:00 and are back by noon.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("bakeries"), {
        "ops/bakeries.md": SITES, "ops/delivery-vans.md": VANS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_sentence_is_about_what_it_opens_with() -> None:
    assert opens_with("Harrow bakery: 5 Mill Lane, Bristol.", "Harrow")
    assert opens_with("site: Harrow; manager: Odile Marchetti", "Harrow")
    assert not opens_with("The two Thyme vans are based at the Harrow bakery.", "Harrow")
    assert not opens_with("Harrowgate Road is closed.", "Harrow")


def test_the_follow_up_quotes_the_sentence_about_the_subject(folder: Folder) -> None:
    saver = InMemorySaver()
    first = ask(folder, "Who is the site manager of the Harrow bakery?", thread_id="t", checkpointer=saver)
    assert "Odile Marchetti" in first["answer"]
    answer = ask(folder, "And where is it?", thread_id="t", checkpointer=saver)["answer"]
    assert "5 Mill Lane, Bristol" in answer, answer
    assert "Thyme vans" not in answer
