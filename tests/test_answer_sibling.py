"""A sentence about a sibling of what the question names is not its answer.

"Who leads the paint crew?" over crews written up one after another: "The rigging crew works from the north shed. It
is led by Mirela Stanciu; ..." shares "crew" and "lead" with the question, as much as the paint crew's own "Joost
Vermeer leads it". The documents use both phrases, "rigging crew" and "paint crew", so a sentence that says the other
word in front of "crew" and never "paint" speaks of the other crew. A phrase the documents never use contrasts with
nothing.

A folder written here is ingested into the default embedded index and asked through the graph with the built-in
answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.contrast import sibling_pairs, speaks_of_sibling
from hopgraph.policies.answer.evidence import stems
from tests.support.folders import Folder, ask, ingested, write_files

CREWS = """# Boatyard crews

The rigging crew works from the north shed. It is led by Mirela Stanciu; Arvo Kask and Nell Dewar are its other
members.

The paint crew is based at the slipway. Joost Vermeer leads it, with Ines Parra and Colm Rafferty.

Both crews stop for the winter lay-up in December.
"""
SHEDS = """# Sheds and slipway

North shed: masts, booms and the rigging loft. Slipway: hull preparation and antifouling.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("boatyard"), {"yard/crews.md": CREWS, "yard/sheds.md": SHEDS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_lead_of_the_crew_asked_about_not_of_the_one_written_up_before_it(folder: Folder) -> None:
    answer = str(ask(folder, "Who leads the paint crew?")["answer"])
    assert not is_not_found(answer) and "Joost Vermeer" in answer and "Mirela" not in answer, answer
    answer = str(ask(folder, "Who leads the rigging crew?")["answer"])
    assert not is_not_found(answer) and "Mirela Stanciu" in answer and "Joost" not in answer, answer


def test_a_phrase_the_documents_never_use_contrasts_with_nothing() -> None:
    texts = [CREWS]
    question = "Who leads the paint crew?"
    siblings = sibling_pairs(question, texts)
    asked = stems(question)
    assert speaks_of_sibling("The rigging crew works from the north shed. It is led by Mirela Stanciu;", siblings,
                             asked)
    assert not speaks_of_sibling("Joost Vermeer leads it, with Ines Parra and Colm Rafferty.", siblings, asked)
    # "night crew" is never written in the documents: a sentence about the rigging crew is not its sibling.
    night = "Who leads the night crew?"
    assert not speaks_of_sibling("The rigging crew works from the north shed.", sibling_pairs(night, texts),
                                 stems(night))
