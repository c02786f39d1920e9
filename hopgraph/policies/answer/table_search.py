"""What the answer policy asks of a table beyond its first search: more of its rows, and whether it lacks the
quarter a question names.

A table spans several chunks and a search returns at most two of one document, so the rows a question names
("every invoice whose status is outstanding", "all five sites in the third quarter") may be in chunks not yet
read.
"""

from __future__ import annotations

from hopgraph.policies.answer.aggregate import ASKS_QUANTITY, asks_for_arithmetic, asks_for_extreme
from hopgraph.policies.answer.anchors import named_in, question_anchors
from hopgraph.policies.answer.evidence import AnswerState
from hopgraph.policies.answer.row_filter import cell_quarters, left_out, named_quarters
from hopgraph.policies.answer.tables import Record, TableRows, header_words, read_whole, table_records, table_rows
from hopgraph.policies.text import fold, terms

# A search for more rows of the table is made only while this many passages or fewer were read this turn (a table
# is read two chunks a search). Under a smaller chunk budget (the fast profile's 8) the search may come back with
# the budget spent; the policy then searches no more and answers from the rows it has.
MORE_ROWS_MAX_PASSAGES = 10


def _quarters_held(table: TableRows, records: list[Record], anchors: list[str] | None = None) -> set[str]:
    """The quarters the table's rows read so far hold in a column of quarters (every cell one), or empty. With
    ``anchors`` (the names a question gives), only the rows naming them all count when there are any: the quarters
    of that site ("Hollins Lane" has rows for Q1 and Q3, though other sites have Q2)."""
    rows = [r for r, _, p in records if p.source == table.passage.source]
    own = [r for r in rows if anchors and all(named_in(a, list(r.values())) for a in anchors)]
    rows = own or rows
    held: set[str] = set()
    for column in dict.fromkeys(k for r in rows for k in r):
        cells = [r[column] for r in rows if column in r]
        quarters = [cell_quarters(c) for c in cells]
        if cells and all(len(q) == 1 for q in quarters):
            held |= {q for found in quarters for q in found}
    return held


def more_rows_query(state: AnswerState, question: str, search_rounds: int) -> str | None:
    """A search for more rows of the table a sum, difference, mean or extreme ("which clinic spent the most") is
    asked over, or that lacks a quarter the question names so far; None.

    Until every chunk of the table is read, after the first search and again while the last search
    brought new rows of the table, the policy searches the table's title with the column and the cells the
    question named."""
    extreme = asks_for_extreme(question)
    if not (ASKS_QUANTITY.search(question) or extreme) or len(state.passages) > MORE_ROWS_MAX_PASSAGES:
        return None
    records = table_records(state.passages)
    table = table_rows(question, records, unnamed=True)
    if table is None or read_whole(table.passage, state.passages):
        return None
    quarters = set(named_quarters(question))
    held = _quarters_held(table, records)
    if (not asks_for_arithmetic(question) and not extreme and not (quarters and held and quarters - held)
            and not (len(quarters) > 1 or left_out(question, table.conditions))):
        return None  # no sum or extreme asked for (nor a span of quarters, rows picked by what they are not) and
        # no quarter lacking
    if search_rounds > 1:
        last = max(p.round for p in state.passages)
        if last < search_rounds or not any(p.round == last and p.source == table.passage.source
                                           for p in state.passages):
            return None  # the last search brought nothing (or the turn's passage budget is spent), or no row
    excluded = left_out(question, table.conditions)
    cells = [cell for named in table.conditions.values() for cell in named if cell not in excluded]
    for column, named in table.conditions.items():
        if set(named) <= excluded:
            # Rows picked by what they are not ("not paid"): search for the other values of that column seen.
            cells += [c for c in dict.fromkeys(r.get(column, "") for r, _, p in records
                                               if p.source == table.passage.source) if c and c not in excluded]
    cells += [q.upper() for q in named_quarters(question)]
    if not table.conditions:  # none of its rows found is named: the question's own words
        cells += terms(question)
    query = " ".join(dict.fromkeys([table.passage.title, header_words(table.column), *cells]))
    return None if fold(query) in {fold(q) for q in state.searched} else query  # the same search finds nothing new


def missing_quarters(state: AnswerState, question: str) -> list[str]:
    """The quarters a question asking for an amount names that the table it asks about, read whole (or searched
    again by those quarters, without finding them), has no row for ("How much did Central Library spend on energy
    in the fourth quarter?" over rows for Q1 to Q3), or empty: the documents do not say it."""
    quarters = named_quarters(question)
    if not quarters or not ASKS_QUANTITY.search(question):
        return []
    records = table_records(state.passages)
    table = table_rows(question, records, unnamed=True)
    if table is None:
        return []
    held = _quarters_held(table, records, question_anchors(question))
    missing = sorted(q.upper() for q in quarters if held and q not in held)
    if read_whole(table.passage, state.passages):
        return missing
    # Not read whole, but searched for by the quarter it lacks: a search for the table naming the quarter brought
    # rows of it and none of that quarter.
    asked = {w.upper() for q in state.searched[1:] for w in q.split()}
    brought = any(p.round > 1 and p.source == table.passage.source for p in state.passages)
    return missing if brought and missing and all(q in asked for q in missing) else []
