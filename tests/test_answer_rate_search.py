"""A rate the question needs that the first search does not bring.

"How much should she get back for the mileage?": the miles sit in a note about the summer, the rate per mile in
the expenses policy, which shares few words with the question. With the miles found and no rate per mile, the
policy searches for the rate, then multiplies. A folder written here (with cover notes that crowd the first
search) is ingested into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.rates import rate_query
from tests.support.folders import Folder, ask, ingested, write_files

NOTE = ("# Summer lessons\n\nEsme Hargreaves covered the Quarry Lane lessons in July and August while Hannah was on "
        "leave. Esme drove 384 miles in her own car for this and will claim the mileage.\n")
POLICY = ("# Staff expenses\n\nWhat the trust repays.\n\n- Business travel in a private vehicle is paid at 45p per "
          "mile.\n- Meals on a full-day course: up to £9.50.\n")
COVER = {f"centres/cover/{i:02d}-cover.md":
         f"# Cover note {i}\n\nEsme covered lessons at Quarry Lane on day {i} of the summer; her own car was used "
         f"and the lessons ran to time.\n" for i in range(8)}
QUESTION = ("Esme used her own car to cover lessons at Quarry Lane over the summer. How much should she get back "
            "for the mileage?")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("trust"), {
        "centres/summer-lessons.md": NOTE, "finance/staff-expenses.md": POLICY, **COVER})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def _passage(ref: str, text: str) -> Passage:
    return Passage(ref=ref, title=ref, text=text, rank=1, round=1, kind="md", source=f"{ref}.md")


def test_a_search_for_the_rate_of_a_quantity_found() -> None:
    note = _passage("note", NOTE)
    assert rate_query(QUESTION, [note]) == "rate per mile"
    # The rate found too: nothing to search for.
    assert rate_query(QUESTION, [note, _passage("policy", POLICY)]) is None
    # A sum of money about what is asked is found: that may be the answer, no search for a rate.
    claimed = _passage("claim", "Esme's mileage claim for the summer lessons came to £172.80.")
    assert rate_query(QUESTION, [note, claimed]) is None
    # A question about the rate itself, or one that asks no amount, counts no miles.
    assert rate_query("How much is paid per mile?", [note]) is None
    assert rate_query("Who covered the Quarry Lane lessons?", [note]) is None
    # A number before a little word ("2026 for") counts no unit, though the question says "for" too.
    grant = _passage("grant", "In 2026 for the first time the council paid a grant to the trust.")
    assert rate_query("How much does the trust have to pay for itself?", [grant]) is None


def test_the_unit_searched_as_written() -> None:
    # The search names the unit as a reader would ("housing"), not by the stem the words are matched with ("housi").
    delivery = _passage("delivery", "Nordlicht delivered 1,200 housings to the Hull plant in October.")
    assert rate_query("How much should we pay Nordlicht for the housings?", [delivery]) == "rate per housing"


def test_no_rate_for_an_amount_of_time() -> None:
    # "How much notice" asks for a length of time: the 60 days found call for no "rate per day".
    term = _passage("term", "The Agreement renews for one year unless either party gives notice at least 60 days "
                            "before the end of the term.")
    assert rate_query("How much notice would we have to give to end the agreement?", [term]) is None


def test_the_rate_searched_for_then_multiplied(folder: Folder) -> None:
    result = ask(folder, QUESTION)
    queries = [c["args"].get("query") for t in result["trace"] for c in t["tool_calls"]
               if c["name"] == "search_documents"]
    assert "rate per mile" in queries, queries
    answer = str(result["answer"])
    assert "384 × 45p = 172.80 GBP" in answer, answer
    assert {c["doc_id"] for c in result["citations"]} == {"centres/summer-lessons.md", "finance/staff-expenses.md"}


def test_a_mileage_claim_counts_miles() -> None:
    # "put in a mileage claim" counts miles ("a" before "mileage" makes no rate of it, as it does in "a day"), and
    # the miles found call for the rate per mile.
    note = _passage("note", NOTE)
    question = ("Esme's going to put in a mileage claim for her summer cover at Quarry Lane. How much should she get "
                "back?")
    assert rate_query(question, [note]) == "rate per mile"
