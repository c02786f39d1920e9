"""Arithmetic a question asks for without the usual words, labelled directory sections, and chunks that keep a
section's heading.

- "How much did Stonegate spend on drugs from January to the end of September?": a span of quarters adds up their
  rows; "how much lower was A than B" is B minus A; "across all three clinics" and "put together" ask for a sum;
  "what did we spend ..." and "what did the cover come to" ask for an amount; "14 locum vet days" is a count of
  days at a rate of "£520 per day".
- "Which clinic spent the most ... in the third quarter?": the extreme of the rows of that quarter only, once the
  rest of the table is searched for.
- A heading over labelled items ("## Kestrel Road Surgery", "- **Phone:** ...") is one record, read as a table
  row, so the record of a name is found in a Markdown directory too.
- A chunk ends before a heading rather than with it.
"""

from __future__ import annotations

from hopgraph.index.chunking import Chunker
from hopgraph.policies.answer.aggregate import (
    ASKS_QUANTITY,
    asks_for_arithmetic,
    extreme_answer,
    extreme_row,
    plan_aggregate,
)
from hopgraph.policies.answer.evidence import AnswerState, Passage
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.answer.rates import rate_times_quantity
from hopgraph.policies.answer.records import record_answer
from hopgraph.policies.answer.row_filter import named_quarters
from hopgraph.policies.answer.table_search import more_rows_query
from tests.support.folders import csv_text

COSTS = csv_text(["clinic", "quarter", "drugs", "utilities"], [
    ["Kestrel Road", "Q1", 41200, 6820], ["Kestrel Road", "Q2", 43050, 5230], ["Kestrel Road", "Q3", 44100, 4410],
    ["Stonegate", "Q1", 27940, 3100], ["Stonegate", "Q2", 33610, 2950], ["Stonegate", "Q3", 30485, 2870],
])


def _table(text: str) -> Passage:
    return Passage(ref="S1", title="site costs 2026", text=text, rank=1, round=1, kind="table",
                   source="finance/site-costs-2026.csv")


def test_a_span_of_quarters_is_added_up() -> None:
    assert set(named_quarters("from January to the end of September")) == {"q1", "q2", "q3"}
    agg = plan_aggregate("How much did Stonegate spend on drugs from January to the end of September?",
                         [_table(COSTS)])
    assert agg is not None and agg.op == "sum"
    assert sorted(o.value for o in agg.operands) == [27940.0, 30485.0, 33610.0]
    # One quarter is a lookup, not a sum.
    assert plan_aggregate("How much did Stonegate spend on drugs in the second quarter?", [_table(COSTS)]) is None


def test_how_much_lower_takes_the_larger_first() -> None:
    agg = plan_aggregate("How much lower was Kestrel Road's utilities bill in Q3 than in Q1?", [_table(COSTS)])
    assert agg is not None and agg.op == "difference"
    assert [o.value for o in agg.operands] == [6820.0, 4410.0]
    more = plan_aggregate("How much more did Kestrel Road spend on utilities in Q1 than in Q3?", [_table(COSTS)])
    assert more is not None and [o.value for o in more.operands] == [6820.0, 4410.0]


def test_words_that_ask_for_a_sum_or_an_amount() -> None:
    assert asks_for_arithmetic("What did we spend on drugs across all three clinics in Q2?") == "sum"
    assert asks_for_arithmetic("How many dogs were seen at the two clinics put together?") == "sum"
    # Arithmetic only for a question that asks for a quantity.
    assert plan_aggregate("Which clinic is across the road from the station?", [_table(COSTS)]) is None
    assert ASKS_QUANTITY.search("What did we spend on drugs across all three clinics in Q2?")
    assert ASKS_QUANTITY.search("What did the summer locum cover at Orchard Vale come to?")
    assert not ASKS_QUANTITY.search("What did the vet say about the cover?")
    agg = plan_aggregate("What did we spend on drugs across all three clinics in Q2?", [_table(COSTS)])
    assert agg is not None and sorted(o.value for o in agg.operands) == [33610.0, 43050.0]


def test_a_day_rate_times_the_days_booked() -> None:
    memo = Passage(ref="S1", title="Locum memo", rank=1, round=1, text=(
        "# Locum rates\n\n| Cover | Rate |\n|---|---|\n| Locum vet, day shift | £520 per day |\n"
        "| Locum nurse, day shift | £265 per day |\n"))
    minutes = Passage(ref="S2", title="Minutes", rank=2, round=1,
                      text="Orchard Vale booked 14 locum vet days between 20 July and 28 August.")
    agg = rate_times_quantity("Going by the day rate for a locum vet, what did the summer locum vet cover at "
                              "Orchard Vale come to?", [memo, minutes])
    assert agg is not None and agg.op == "product"
    assert [o.value for o in agg.operands] == [14.0, 520.0] and agg.unit == "GBP"


def test_the_extreme_of_the_quarter_named() -> None:
    found = extreme_row("Which clinic spent the most on drugs in the third quarter?", [_table(COSTS)])
    assert found is not None and "Q3" in found.row and "Kestrel Road" in found.row and found.compared == 2
    # Written for reading with a thousands separator.
    assert "(44,100)" in extreme_answer(found)
    overall = extreme_row("Which clinic spent the least on drugs?", [_table(COSTS)])
    assert overall is not None and "27940" in overall.row and overall.compared == 6


def test_an_extreme_reads_the_rest_of_the_table_first() -> None:
    # One of the table's two chunks read: the row with the most may be in the other, so search for it.
    first = _table(COSTS)
    first.chunk_index, first.chunk_count = 0, 2
    state = AnswerState(question="Which clinic spent the most on drugs in the third quarter?", passages=[first],
                        searched=["Which clinic spent the most on drugs in the third quarter?"])
    query = more_rows_query(state, state.question, 1)
    assert query is not None and "site costs 2026" in query and "Q3" in query
    # Read whole: answer from the rows.
    second = _table(COSTS)
    second.ref, second.chunk_index, second.chunk_count = "S2", 1, 2
    first_whole = AnswerState(question=state.question, passages=[first, second], searched=state.searched)
    assert more_rows_query(first_whole, state.question, 1) is None
    # A question asking for no extreme, sum or quarter reads no further.
    assert more_rows_query(state, "Which clinic is in Aldermoor?", 1) is None


DIRECTORY = """# Clinic directory

The group runs two clinics.

## Kestrel Road Surgery

- **Address:** 14 Kestrel Road, Aldermoor
- **Phone:** 01632 960 318
- **Open:** Monday to Friday 8:00 to 19:00; Saturday 9:00 to 13:00

## Stonegate Farm

- **Address:** Stonegate Barns, Mill Lane,
  Pellingford
- **Phone:** 01632 961 204
"""


def test_a_heading_over_labelled_items_is_one_record() -> None:
    passage = Passage(ref="S1", title="Clinic directory", text=DIRECTORY, rank=1, round=1)
    sentences = passage_sentences(passage)
    assert ("Name: Kestrel Road Surgery; Address: 14 Kestrel Road, Aldermoor; Phone: 01632 960 318; "
            "Open: Monday to Friday 8:00 to 19:00, Saturday 9:00 to 13:00") in sentences
    assert "Name: Stonegate Farm; Address: Stonegate Barns, Mill Lane, Pellingford; Phone: 01632 961 204" in sentences
    record = record_answer("what is the phone number?", "Stonegate Farm", [passage])
    assert record is not None and "01632 961 204" in record[1]
    # Bold labels on lines that are no list items (a memo's header) make no record.
    memo = Passage(ref="S2", title="Memo", rank=1, round=1,
                   text="# Memo\n\n**To:** Imogen Slade\n**From:** Sunita Bhagat\n\nThe contract ends in 2029.\n")
    assert not any(s.startswith("Name:") for s in passage_sentences(memo))


def test_a_chunk_ends_before_a_heading() -> None:
    sections = "\n\n".join(f"## Site {i}\n\n- **Phone:** 01632 960 {100 + i}\n- **Manager:** Person Number{i}\n"
                           f"- **Notes:** {'open late on weekdays and closed on bank holidays ' * 2}"
                           for i in range(12))
    chunks = Chunker(chunk_tokens=120, overlap=0).split(f"# Directory\n\nOur sites.\n\n{sections}")
    assert len(chunks) > 2
    for chunk in chunks:
        assert not chunk.rstrip().splitlines()[-1].startswith("## "), chunk


def test_a_quarter_searched_for_and_not_found_is_missing() -> None:
    from hopgraph.policies.answer.evidence import AnswerState
    from hopgraph.policies.answer.table_search import missing_quarters

    question = "How many consultations did Orchard Vale carry out between October and December 2026?"
    first = csv_text(["clinic", "quarter", "consultations"], [["Orchard Vale", "Q1", 4980], ["Kestrel", "Q1", 3412]])
    second = csv_text(["clinic", "quarter", "consultations"],
                      [["Orchard Vale", "Q2", 5104], ["Orchard Vale", "Q3", 5230]])

    def chunk(text: str, index: int, round_: int) -> Passage:
        return Passage(ref=f"S{index + 1}", title="activity 2026", text=text, rank=1, round=round_, kind="table",
                       source="clinics/activity-2026.csv", chunk_index=index, chunk_count=3)

    # One chunk of three read, and no search yet for the fourth quarter: not known to be missing.
    state = AnswerState(question=question, passages=[chunk(first, 0, 1)], searched=[question])
    assert missing_quarters(state, question) == []
    # The table searched again by "Q4" brought more of its rows, none of Q4: missing.
    state = AnswerState(question=question, passages=[chunk(first, 0, 1), chunk(second, 1, 2)],
                        searched=[question, "activity 2026 consultations Orchard Vale Q4"])
    assert missing_quarters(state, question) == ["Q4"]
    # A question about a quarter the rows hold is no missing quarter.
    asked = "How many consultations did Orchard Vale carry out between April and June?"
    assert missing_quarters(AnswerState(question=asked, passages=state.passages, searched=state.searched), asked) == []


INVOICES = csv_text(["invoice_no", "supplier", "amount_gbp", "status"], [
    ["RVI-2231", "Radiant Vet Imaging", "1260.00", "Paid"], ["STX-1239", "Sterilex Services", "642.50", "Disputed"],
    ["PLM-2291", "Pellingford Motors", "2764.20", "Outstanding"],
    ["GCW-4410", "Greystone Clinical Waste", "486.30", "Outstanding"],
])


def _invoices() -> Passage:
    return Passage(ref="S1", title="supplier invoices 2026", text=INVOICES, rank=1, round=1, kind="table",
                   source="finance/supplier-invoices-2026.csv", chunk_index=0, chunk_count=1)


def test_rows_picked_by_what_they_are_not_are_added_up() -> None:
    from hopgraph.policies.answer.row_filter import left_out, named_rows
    from hopgraph.policies.answer.tables import row_record

    rows = [row_record(s) for s in passage_sentences(_invoices())]
    question = "Leaving aside the bill we're disputing, how much do we still owe on invoices that haven't been paid?"
    kept, conditions = named_rows(rows, lambda r: r, question, lambda cell: cell.replace(".", "").isdigit())
    assert [r["invoice_no"] for r in kept] == ["PLM-2291", "GCW-4410"]
    assert left_out(question, conditions) == {"Paid", "Disputed"}
    # Named without a negation, a cell keeps its rows.
    kept, conditions = named_rows(rows, lambda r: r, "How much have we paid on the paid invoices?",
                                  lambda cell: cell.replace(".", "").isdigit())
    assert [r["invoice_no"] for r in kept] == ["RVI-2231"] and left_out("the paid invoices", conditions) == set()
    agg = plan_aggregate(question, [_invoices()])
    assert agg is not None and agg.op == "sum" and sorted(o.value for o in agg.operands) == [486.3, 2764.2]
    # One invoice named by what it is: a lookup, no sum.
    assert plan_aggregate("How much is the disputed invoice?", [_invoices()]) is None


def test_more_rows_of_a_table_read_in_part_are_searched_by_the_values_not_left_out() -> None:
    from hopgraph.policies.answer.evidence import AnswerState
    from hopgraph.policies.answer.table_search import more_rows_query

    question = "How much do we owe on invoices that haven't been paid?"
    part = Passage(ref="S1", title="supplier invoices 2026", text=INVOICES, rank=1, round=1, kind="table",
                   source="finance/supplier-invoices-2026.csv", chunk_index=0, chunk_count=3)
    state = AnswerState(question=question, passages=[part], searched=[question],
                        rounds=[[("search_documents", {"query": question})]])
    query = more_rows_query(state, question, search_rounds=1)
    assert query is not None and "Outstanding" in query and "Disputed" in query and "Paid" not in query.split()
    # The same search again, or one after a search that brought nothing, finds nothing new: no more searches.
    state.searched.append(query)
    state.rounds.append([("search_documents", {"query": query})])
    assert more_rows_query(state, question, search_rounds=2) is None


def test_a_follow_up_with_no_word_of_its_own_asks_the_previous_question_again() -> None:
    from hopgraph.policies.answer.builtin import effective_question
    from hopgraph.policies.answer.evidence import AnswerState

    asked = "Which clinic spent the most on drugs in the third quarter?"
    # (Earlier answers are kept without their citation markers.)
    answered = "clinic: Kestrel Road; quarter: Q3; drugs: 44100. It has the most drugs (44,100) of the 2 rows found."
    state = AnswerState(question="How much was it?", history=[(asked, answered)])
    assert effective_question(state) == asked
    # The previous answer holds no answer of the kind asked ("when?"), or was "not found": not asked again.
    assert effective_question(AnswerState(question="When was it?", history=[(asked, answered)])) != asked
    nothing = "Not found in the documents you can search (container: finance)."
    assert effective_question(AnswerState(question="How much was it?", history=[(asked, nothing)])) != asked
    # A follow-up with a word of its own keeps the thread's subject instead.
    assert effective_question(AnswerState(question="And its utilities?", history=[(asked, answered)])) != asked
