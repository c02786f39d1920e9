"""A question that names its thing only by what a table row says of it, and asks for a field of another record.

"I want to fire some pots in the kiln. Which town should I travel to?": the equipment list's row for the pottery
kiln gives its site, "Millrace Studio", whose row in the studio directory gives the town. The whole question
brings the directory (it speaks of towns and studios) but not the equipment row, so the policy searches again
for the question's words that nothing found contains ("fire pots kiln"). A folder written here is ingested into
the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.hops import unseen_words
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.answer.records import subject_chain
from tests.support.folders import Folder, ask, csv_text, ingested, write_files

DIRECTORY = """# Studios: directory

| Studio | Street | Town | Keyholder |
|---|---|---|---|
| Harbour Studio | 3 Quay Road | Penmore | Lise Arndt |
| Millrace Studio | 9 Mill Lane | Tolgarth | Owen Price |
| Orchard Studio | 41 Apple Walk | Brackley Wells | Rhian Doyle |
"""

EQUIPMENT = csv_text(["asset", "item", "studio", "bought"], [
    ["A-01", "Pottery kiln", "Millrace Studio", "2021-04-02"],
    ["A-02", "Screen printing press", "Harbour Studio", "2019-11-20"],
    ["A-03", "Laser cutter", "Orchard Studio", "2022-06-13"],
    ["A-04", "Darkroom enlarger", "Harbour Studio", "2018-02-08"],
])

NOTICE = """# Studio opening times

Every studio opens at nine and closes at six. In every town the studio shares its building with a library, and
visitors should travel by bus where they can, because parking near a studio is short in each town.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("studios"), {
        "studios/directory.md": DIRECTORY, "studios/equipment.csv": EQUIPMENT, "studios/opening-times.md": NOTICE})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_words_nothing_found_contains() -> None:
    found = [Passage(ref="S1", title="Studios: directory", text=DIRECTORY, rank=1, round=1)]
    assert unseen_words("I want to fire some pots in the kiln. Which town should I travel to?", found) == (
        "fire pots kiln travel")
    assert unseen_words("Which town is Millrace Studio in?", found) == ""
    # Verb forms and the words of "how long" name nothing to look for.
    assert unseen_words("How long was the kiln left turning before it was switched off?", found) == "kiln left"
    # Nor do the words asking for arithmetic.
    assert unseen_words("How many pots did the two studios fire put together?", found) == "pots fire"
    assert unseen_words("How many kilns do the studios have on average?", found) == "kilns"


def test_the_described_row_leads_to_the_record_that_answers() -> None:
    passages = [Passage(ref="S1", title="Studios: directory", text=DIRECTORY, rank=1, round=1),
                Passage(ref="S2", title="equipment", text=EQUIPMENT, rank=1, round=2, kind="table")]
    if not any("Pottery kiln" in s for s in passage_sentences(passages[1])):
        pytest.fail("the CSV passage is not read as rows")
    chain = subject_chain("I want to fire some pots in the pottery kiln. Which town should I travel to?", passages)
    assert chain is not None
    assert "Pottery kiln" in chain[0][1] and "Tolgarth" in chain[1][1]
    # A question that names the studio itself is answered by its own row: no chain.
    assert subject_chain("Which town is Millrace Studio in?", passages) is None


def test_the_kiln_question_is_answered_with_its_studio_town(folder: Folder) -> None:
    result = ask(folder, "I want to fire some pots in the kiln. Which town should I travel to?")
    answer = str(result["answer"])
    assert "Millrace Studio" in answer and "Tolgarth" in answer, answer
    assert "Penmore" not in answer and "Brackley Wells" not in answer, answer
