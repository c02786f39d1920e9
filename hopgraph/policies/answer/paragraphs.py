"""How a passage's text is read around one sentence: the passage's sentences (or table rows), the paragraph a
sentence stands in, its paragraph's opening and other sentences, and the heading it stands under. Each is split
once per text and kept in a bounded cache, since every part of a question reads the same passages again.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from hopgraph.citations import is_tabular
from hopgraph.policies.answer.rows import table_rows
from hopgraph.policies.answer.sentences import leading_heading, prose_paragraphs, prose_sentences, sentence_headings
from hopgraph.policies.text import fold

if TYPE_CHECKING:
    from hopgraph.policies.answer.evidence import Passage


def passage_sentences(passage: Passage) -> list[str]:
    return list(_sentences_of(is_tabular(passage.kind, passage.source, passage.title), passage.text))


def paragraph_of(passage: Passage, sentence: str) -> str:
    """The paragraph of the passage that holds the sentence (a table row is a paragraph of its own); the
    sentence itself when none does."""
    if is_tabular(passage.kind, passage.source, passage.title):
        return sentence
    for paragraph in _paragraphs_of(passage.text):
        if any(s == sentence or sentence.endswith(s) for s in paragraph):
            return " ".join(paragraph)
    return sentence


@functools.lru_cache(maxsize=4096)
def _paragraphs_of(text: str) -> tuple[tuple[str, ...], ...]:
    # Each part of a question checks the same passages again: split each text once.
    return tuple(tuple(paragraph) for paragraph in prose_paragraphs(text))


def paragraph_leads(passage: Passage) -> list[str]:
    """For each of :func:`passage_sentences`, the opening sentence of its paragraph ('' for the opening sentence
    itself and for table rows): what a sentence such as "The site manager is Marek Dvorak." is about."""
    if is_tabular(passage.kind, passage.source, passage.title):
        return [""] * len(passage_sentences(passage))
    return list(_leads_of(passage.text))


@functools.lru_cache(maxsize=4096)
def _leads_of(text: str) -> tuple[str, ...]:
    return tuple("" if i == 0 else paragraph[0] for paragraph in prose_paragraphs(text)
                 for i in range(len(paragraph)))


def paragraph_context(passage: Passage) -> list[str]:
    """For each of :func:`passage_sentences`, the other sentences of its paragraph ('' for table rows): what the
    sentence is said about when it does not say it itself ("Omar Haddad leads it." in a paragraph on a team)."""
    if is_tabular(passage.kind, passage.source, passage.title):
        return [""] * len(passage_sentences(passage))
    return list(_context_of(passage.text))


@functools.lru_cache(maxsize=4096)
def _context_of(text: str) -> tuple[str, ...]:
    return tuple(" ".join(paragraph[:i] + paragraph[i + 1:]) for paragraph in prose_paragraphs(text)
                 for i in range(len(paragraph)))


@functools.lru_cache(maxsize=4096)
def _sentences_of(tabular: bool, text: str) -> tuple[str, ...]:
    # Every part of the question scores the same passages again: split each text once.
    return tuple(table_rows(text) if tabular else prose_sentences(text))


def section_headings(passage: Passage) -> list[str]:
    """For each of :func:`passage_sentences`, the heading it stands under: '' for table rows, and under the heading
    a document opens with (its title line, which says what every sentence of it is about, as its title does)."""
    if is_tabular(passage.kind, passage.source, passage.title):
        return [""] * len(passage_sentences(passage))
    headings, leading = _headings_of(passage.text)
    opening = leading if passage.chunk_index == 0 else ""
    title = fold(passage.title)
    return ["" if heading == opening or fold(heading) == title else heading for heading in headings]


def sentence_heading(passage: Passage, sentence: str) -> str:
    """The heading the sentence stands under in the passage, as :func:`section_headings` gives it."""
    sentences = passage_sentences(passage)
    last = sentence if sentence in sentences else sentence.split(". ")[-1]
    return section_headings(passage)[sentences.index(last)] if last in sentences else ""


@functools.lru_cache(maxsize=4096)
def _headings_of(text: str) -> tuple[tuple[str, ...], str]:
    return tuple(sentence_headings(text)), leading_heading(text)
