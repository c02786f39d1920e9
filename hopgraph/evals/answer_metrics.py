"""Scores for one answer: containment of the gold answer, citation precision and recall, "not found".

Normalisation follows the usual reading-comprehension convention (SQuAD, HotpotQA): lowercase, accents
and punctuation dropped, the articles a/an/the dropped, whitespace collapsed. A thousands separator goes
with the punctuation, so "48,200" and "48200" match. Containment is on word boundaries: "1 January" is
inside "no later than 1 January", "10" is not inside "100".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

_ARTICLES = re.compile(r"\b(?:a|an|the)\b")
_PUNCT = re.compile(r"[^\w\s]")
# "Not found in the documents you can search", and the older "I could not find this in the documents".
_NOT_FOUND = re.compile(r"^\s*(?:not found in the documents|i could not find this in the documents)", re.IGNORECASE)


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKD", text or "")
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = re.sub(r"(?<=\d)[,\u2009\u202f](?=\d{3}\b)", "", text)  # 48,200 -> 48200
    text = _PUNCT.sub(" ", text)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def contains(answer: str, gold: str) -> bool:
    """The normalised gold text appears in the normalised answer, on word boundaries."""
    g = normalize(gold)
    return bool(g) and f" {g} " in f" {normalize(answer)} "


def is_not_found(answer: str) -> bool:
    return bool(_NOT_FOUND.match(answer or ""))


def cited_docs(citations: Iterable[Mapping[str, Any]]) -> list[str]:
    """Document ids the answer cites, each once, in order of first citation."""
    return list(dict.fromkeys(str(c.get("doc_id") or "") for c in citations if c.get("doc_id")))


def lead(answer: str) -> str:
    """The answer's first sentence (up to the first full stop, colon or citation)."""
    return re.split(r"(?<=[^A-Z])[.:!?](?:\s|$)|\s\[", answer or "", maxsplit=1)[0]


def score_answer(answer: str, citations: Sequence[Mapping[str, Any]], *, answers: Sequence[str] = (),
                 facts: Sequence[str] = (), answerable: bool = True, relevant: Iterable[str] = (),
                 question: str = "") -> dict[str, Any]:
    """Per-question scores; a value is None where the question does not define it.

    contained: some gold answer (or alias) is in the answer, or every fact is; for an unanswerable question,
    whether the answer says "not found". A gold answer the question itself names (one of the options of
    "Who is older, A or B?") counts only in the answer's first sentence: quoting both options is no answer.
    fact_recall: the share of facts in the answer. citation_precision: the share of cited documents that are
    relevant (None without citations or qrels); citation_recall: the share of relevant documents cited.
    not_found: the answer says it found nothing.
    """
    not_found = is_not_found(answer)
    relevant_set = set(relevant)
    docs = cited_docs(citations)
    out: dict[str, Any] = {"not_found": not_found, "cited_documents": len(docs), "fact_recall": None,
                           "citation_precision": None, "citation_recall": None}
    if not answerable:
        out["contained"] = not_found
        return out
    fact_hits = [contains(answer, f) for f in facts]
    if facts:
        out["fact_recall"] = sum(fact_hits) / len(facts)
    def found(gold: str) -> bool:
        return contains(lead(answer), gold) if question and contains(question, gold) else contains(answer, gold)

    out["contained"] = (not not_found) and (any(found(a) for a in answers) or (bool(facts) and all(fact_hits)))
    if relevant_set and docs:
        out["citation_precision"] = sum(1 for d in docs if d in relevant_set) / len(docs)
    if relevant_set:
        out["citation_recall"] = _share_in(relevant_set, docs)
    return out


def evidence_recall(read: Iterable[str], relevant: Iterable[str], answerable: bool = True) -> float | None:
    """The share of the relevant documents among those the run read (None for an unanswerable question or one
    without relevant documents): an answer can only be as good as what its searches brought."""
    relevant_set = set(relevant)
    if not answerable or not relevant_set:
        return None
    return _share_in(relevant_set, read)


def _share_in(relevant: set[str], found: Iterable[str]) -> float:
    """The share of the (non-empty) relevant documents that ``found`` holds."""
    got = set(found)
    return sum(1 for d in relevant if d in got) / len(relevant)


def _mean(values: Iterable[float | None]) -> float | None:
    got = [float(v) for v in values if v is not None]
    return sum(got) / len(got) if got else None


def aggregate_answers(per_query: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Means over the questions where each score is defined (None where it never is)."""
    answerable = [q for q in per_query if q.get("answerable", True)]
    unanswerable = [q for q in per_query if not q.get("answerable", True)]
    return {
        "containment": _mean(float(q["contained"]) for q in answerable),
        "fact_recall": _mean(q.get("fact_recall") for q in answerable),
        "citation_precision": _mean(q.get("citation_precision") for q in answerable),
        "citation_recall": _mean(q.get("citation_recall") for q in answerable),
        "evidence_recall": _mean(q.get("evidence_recall") for q in answerable),
        "not_found_correct": _mean(float(q["not_found"]) for q in unanswerable),
        "false_not_found": _mean(float(q["not_found"]) for q in answerable),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
    }
