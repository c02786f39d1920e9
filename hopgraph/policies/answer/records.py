"""The record of a named thing in a table, and whether it holds the field a question asks of it.

A name found on the way to an answer (a bridge: "Gideon Marsh", "Tanners Library") usually has a record in a list
or a directory: the one row of a table one of whose cells is that name ("name: Gideon Marsh; role: Digital
Services Officer; ..."). The question asks for one of the row's other fields: the column whose header shares a
word with what the question asks, else the header clearly closest to it in meaning ("job title" -> role, "what
number do I ring" -> Telephone, see :func:`hopgraph.policies.answer.meaning.closest_label`). Such a row is the
answer, quoted whole and cited. A table where several rows carry the name (a site's staff, a branch's quarters)
holds no one record of it.

A question may name a thing by a person listed in its row ("Jana Dvorak's company", "the firm Jana Dvorak works
for"): the row whose contact is that person names the company, see :func:`owner_row`.

A question may also name its thing only by what one row says of it ("the library's 3D printer"): that row (the
row whose cells share the most words with the question, more than any other row) names a thing whose record
holds the asked field ("Brookside Library" -> its Town), see :func:`subject_chain`.
"""

from __future__ import annotations

from collections.abc import Collection

from hopgraph.policies.answer.evidence import OWNER_OF, Passage, stems
from hopgraph.policies.answer.meaning import closest_label
from hopgraph.policies.answer.row_filter import STATUSES, status_named, statuses_named
from hopgraph.policies.answer.tables import (
    Record,
    asking_words,
    column_match,
    header_words,
    row_record,
    table_records,
)
from hopgraph.policies.answer.types import PHONE_ASKED, PLACE_WORDS, THING, YESNO, asked_kind, holds_kind
from hopgraph.policies.text import fold


def records_of(name: str, passages: list[Passage], about: str = "") -> list[tuple[Record, str]]:
    """(record, the column holding the name) for each table in which exactly one row has the name as a cell; for a
    one-word name, else, in which exactly one row has a full name that starts with it ("Sunita Varma"). ``about``:
    the question, which may pick one of several rows of the name by the thing it names ("that hoist" of the rows
    whose site is Hollins Lane Pool: the one whose asset is "Pool hoist (fixed)")."""
    key = fold(name).strip()
    if not key:
        return []
    by_table: dict[str, list[tuple[Record, str]]] = {}
    by_first: dict[str, list[tuple[Record, str]]] = {}
    first_name = len(key.split()) == 1 and name[:1].isupper()
    for record in table_records(passages):
        cells, _, passage = record
        table = passage.source or passage.title
        column = next((c for c, v in cells.items() if fold(v).strip() == key), None)
        if column is not None:
            by_table.setdefault(table, []).append((record, column))
        elif first_name:
            # "Sunita will redo the audit": the row of the one "Sunita ..." of a list of full names.
            column = next((c for c, v in cells.items() if 2 <= len(v.split()) <= 3 and v[:1].isupper()
                           and fold(v.split()[0]) == key), None)
            if column is not None:
                by_first.setdefault(table, []).append((record, column))
    found = [rows[0] for rows in by_table.values() if len(rows) == 1]
    if about:
        found += [row for rows in by_table.values() if len(rows) > 1 and (row := _named_thing(rows, name, about))]
    return found + [rows[0] for table, rows in by_first.items() if len(rows) == 1 and table not in by_table]


def _named_thing(rows: list[tuple[Record, str]], name: str, about: str) -> tuple[Record, str] | None:
    """Of several rows of a name, the one the question names by a word no other of them has ("that hoist": "Pool hoist
    (fixed)"), when only one is."""
    # The words that name columns ("last service") ask for a field; they pick no row.
    headers = {t for record, _ in rows for c in record[0] for t in stems(header_words(c))}
    said = stems(about) - stems(name) - headers
    words = [set().union(*(stems(v) for c, v in record[0].items() if c != column and not any(ch.isdigit() for ch in v)))
             & said for record, column in rows]
    own = [w - set().union(*(o for j, o in enumerate(words) if j != i)) for i, w in enumerate(words)]
    named = [row for row, distinct in zip(rows, own, strict=True) if distinct]
    return named[0] if len(named) == 1 else None


def asked_field(question: str, cells: dict[str, str], name_column: str, by_meaning: bool = True) -> str | None:
    """The field of the record the question asks for (see the module text), or None. A question that asks for a
    date, a place, a person or an amount takes only a field whose value is one ("by when ...?" is not answered
    by a contact's name)."""
    kind = asked_kind(question)
    fields = [c for c in cells if c != name_column and cells[c].strip()
              and (kind in (THING, YESNO) or holds_kind(f"{c}: {cells[c]}", kind, question))]
    if len(fields) == 1 and PHONE_ASKED.search(question):
        return fields[0]  # "what number do I ring?": the one field that holds a telephone number
    asking = asking_words(question)
    if not fields or not asking:
        return None
    want = stems(asking)
    shared = [(column_match(c, want)[0], c) for c in fields]
    best = max(n for n, _ in shared)
    if best > 0:
        top = [c for n, c in shared if n == best]
        return top[0] if len(top) == 1 else None
    if not by_meaning:
        return None
    closest = closest_label(asking, [header_words(c) for c in fields])
    return fields[closest] if closest is not None else None


def record_answer(question: str, name: str, passages: list[Passage], skip: Collection[str] = (),
                  hops: int = 2, about: str = "", by_meaning: bool = True) -> Record | None:
    """The record of ``name`` that holds a field the question asks for; of several, the best-ranked one.
    Else, within ``hops``, the record of a name that record gives ("ML-2" -> its site "Coldharbour Depot" -> the
    depot's row in the site directory, for "in which town is it kept?"). ``skip``: rows not to take (those the
    answer already quotes). ``about``: the whole question, to pick one of several rows of the name (see
    :func:`records_of`). ``by_meaning``: False to take only a field the question names by a word."""
    # A field the question names by a word, in this record or the next, before one only close in meaning ("in
    # which town is it kept?": the depot's Town, not the vehicle's site).
    for meaning in (False, True) if by_meaning else (False,):
        found = _record_answer(question, name, passages, skip, hops, meaning, about)
        if found is not None:
            return found
    return None


def _record_answer(question: str, name: str, passages: list[Passage], skip: Collection[str], hops: int,
                   by_meaning: bool, about: str = "") -> Record | None:
    found = sorted(records_of(name, passages, about), key=lambda f: (f[0][2].round, f[0][2].rank))
    for record, column in found:
        if record[1] not in skip and asked_field(question, record[0], column, by_meaning) is not None:
            return record
    if hops > 1:
        for (cells, row, _), column in found:
            for field, value in cells.items():
                if field != column and len(value.split()) >= 2 and value[:1].isupper() and fold(value) != fold(name):
                    further = _record_answer(question, value, passages, {*skip, row}, hops - 1, by_meaning)
                    if further is not None:
                        return further
    return None


def subject_chain(question: str, passages: list[Passage]) -> tuple[Record, Record] | None:
    """(the row the question describes, the record of a name it gives that holds the asked field), or None.

    The described row is the one whose cells (not headers) share the most of the question's words, strictly
    more than any other row; it must not answer by itself (no field of it is named by the question), and the
    record reached must not share those words (then it is about the thing itself and answers directly)."""
    want = stems(question)
    # Each row with the question's words its cells hold, the row holding most first.
    # A status the question names in other words ("refusing to pay": Disputed) counts as two of its words.
    scored = sorted(((stems(" ".join(r[0].values())) & want
                      | {f"{v}={n}" for v in r[0].values() if status_named(v, question) for n in (1, 2)}, r)
                     for r in table_records(passages)),
                    key=lambda t: (-len(t[0]), t[1][2].round, t[1][2].rank))
    if not scored or not scored[0][0] or (len(scored) > 1 and len(scored[1][0]) == len(scored[0][0])):
        return None
    described, (cells, row, _) = scored[0]
    if asked_field(question, cells, "", by_meaning=False) is not None:
        return None  # the row answers by itself
    for value in cells.values():
        if len(value.split()) < 2 or not value[:1].isupper():
            continue
        for record, name_column in records_of(value, passages):
            if record[1] == row or described <= stems(" ".join(record[0].values())):
                continue
            if asked_field(question, record[0], name_column, by_meaning=False) is not None:
                return scored[0][1], record
    return None


def status_row(question: str, passages: list[Passage]) -> tuple[Record, str] | None:
    """(the one table row whose status the question names in other words, the place it names) for "the supplier
    bill we're in an argument about ... which pool was it charged to?": the Disputed invoice and its site, the name
    to follow to the place's own record. None unless exactly one row has such a status and one cell names a place
    (a word of places in it or in its header: "Whinfield Depot", "site: Priory Library")."""
    rows = [r for r in table_records(passages) if any(status_named(v, question) for v in r[0].values())]
    if len({r[1] for r in rows}) != 1:
        return None
    cells = rows[0][0]
    places = [v for c, v in cells.items() if len(v.split()) >= 2 and v[:1].isupper()
              and (stems(v) & PLACE_WORDS or stems(c) & _PLACE_HEADERS)]
    return (rows[0], places[0]) if len(places) == 1 else None


def status_query(question: str, passages: list[Passage]) -> str | None:
    """A search for the rows of a table found whose status the question names in other words, when none of them
    was read ("the invoice we're refusing to pay": "invoices 2026 Disputed")."""
    wanted = statuses_named(question)
    records = table_records(passages)
    if not wanted or any(status_named(v, question) for cells, _, _ in records for v in cells.values()):
        return None
    for cells, _, passage in records:
        if any(fold(v).strip() in STATUSES for v in cells.values()):
            return f"{passage.title} {wanted[0].capitalize()}"
    return None


# Headers of a column that holds places: "site", "branch", "location".
_PLACE_HEADERS = frozenset(stems("site branch location premises venue base"))


def peer_records(name: str, question: str, passages: list[Passage]) -> Passage | None:
    """A list or directory found that holds the field the question asks for in the record of another thing, but
    no record of ``name``: its own record of ``name`` is likely in a chunk not read yet ("what number do I ring?"
    over a clinic directory whose one section read gives another clinic's Phone). Its passage, or None."""
    if records_of(name, passages):
        return None
    key = fold(name).strip()
    for cells, _, passage in table_records(passages):
        first = next(iter(cells), "")
        if (all(fold(v).strip() != key for v in cells.values())
                and asked_field(question, cells, first) is not None):
            return passage
    return None


def opens_with(sentence: str, name: str) -> bool:
    """The sentence is about ``name``: it opens with it ("Millbrook bakery: 12 Canal Street, Leeds."), or it is a
    table row whose first cell is it or opens with it (a place's short name: "Pennock" for "Name: Pennock Vale
    Vets; Telephone: ...")."""
    key, text = fold(name).strip(), fold(sentence)
    if not key:
        return False
    if text.startswith(key) and not text[len(key):len(key) + 1].isalnum():
        return True
    first = fold(next(iter(row_record(sentence).values()), "")).strip() if ":" in sentence else ""
    return first == key or first.startswith(f"{key} ")



def owner_named(question: str) -> tuple[str, str] | None:
    """(the person, the kind of thing) through whom the question names a company or a unit ("Jana Dvorak",
    "company" of "Jana Dvorak's company"), or None."""
    m = OWNER_OF.search(question)
    if not m:
        return None
    return (m["person"], m["unit"]) if m["person"] else (m["member"], m["unit_of"])


# First columns that list companies: a "company" is a supplier's or a haulier's row, not a cost centre's.
_COMPANY_COLUMNS = frozenset(stems("supplier haulier company vendor carrier contractor customer client firm partner"))
_COMPANY_WORDS = frozenset(stems("company firm supplier vendor contractor carrier employer business organisation "
                                 "organization outfit agency"))


def owner_row(question: str, passages: list[Passage]) -> tuple[Record, str] | None:
    """(the table row listing the person through whom the question names a company or a unit, the name the row
    gives first) for "Jana Dvorak's company: when does our agreement with them end?": the scorecard row whose Contact
    is Jana Dvorak, and its Supplier. The row's first column must be of the kind asked ("Cost centre" for "Jonas's cost
    centre", a supplier's or a haulier's for a company), or its name must say it ("Fleet cost centre"). None when no
    such row was found, or the person is the row's own name."""
    named = owner_named(question)
    if named is None:
        return None
    person, unit = named
    rows = [(record, next(iter(record[0].items()))) for record, column in records_of(person, passages)
            if column != next(iter(record[0]))]
    rows = [(record, (first, name)) for record, (first, name) in rows if name[:1].isupper()]
    kind = stems(unit) | (_COMPANY_COLUMNS if stems(unit) & _COMPANY_WORDS else set())
    fitting = [(record, name) for record, (first, name) in rows
               if stems(header_words(first)) & kind or stems(name) & stems(unit)]
    return fitting[0] if fitting else None
