"""How the chosen sentences are written out: each cited, a sentence that points back after the one it points to,
no paragraph opening quoted twice, the document's title leading when it names the thing asked for, a decision
before its evidence, and a calculation's result with the numbers it used."""

from __future__ import annotations

import re

from hopgraph.policies.answer.bridge import focus_stems
from hopgraph.policies.answer.choice import Evidence
from hopgraph.policies.answer.compute import Calculation, format_amount, printed_numbers
from hopgraph.policies.answer.evidence import Passage, stems
from hopgraph.policies.answer.paragraphs import paragraph_leads, paragraph_of, passage_sentences
from hopgraph.policies.text import base_title

# Inside a sentence, a word that points back to the sentence before: "Tomasz Wilk and Grace Okafor are its other
# members." (A sentence that opens with one is joined when it is scored, see :mod:`~.select`.)
_POINTS_BACK = re.compile(r"\b(?:its|their)\b", re.IGNORECASE)


def with_antecedent(chosen: list[tuple[str, Passage]]) -> list[tuple[str, Passage]]:
    """Each chosen sentence that points back inside it ("are its other members") after the sentence before it in its
    paragraph, when that is not quoted already, so the answer says whose members they are."""
    out: list[tuple[str, Passage]] = []
    quoted = " ".join(text for text, _ in chosen)
    for text, passage in chosen:
        sentences = paragraph_of(passage, text)
        own = passage_sentences(passage)
        if _POINTS_BACK.search(text) and text in own and sentences != text:
            i = own.index(text)
            before = own[i - 1] if i > 0 else ""
            if before and before in sentences and before not in quoted:
                text = f"{before.rstrip()} {text}"
        out.append((text, passage))
    return out


def unrepeated(chosen: list[tuple[str, Passage]]) -> list[tuple[str, Passage]]:
    """The chosen sentences without a paragraph's opening that an earlier one already quotes (a sentence is
    quoted with its paragraph's opening when that says what it is about, see :mod:`~.select`)."""
    out: list[tuple[str, Passage]] = []
    for text, passage in chosen:
        for lead in dict.fromkeys(paragraph_leads(passage)):
            if lead and text.startswith(f"{lead} ") and any(lead in earlier for earlier, _ in out):
                text = text[len(lead) + 1:]
                break
        out.append((text, passage))
    return out


def titled(part: str, sentence: str, passage: Passage, line: str) -> str:
    """"Which firmware version fixed ...?" answered by a line of release notes ("Fixed: BUG-851, ..."): the
    thing asked for is named by the document's title ("Sensor firmware 4.2.0 - release notes"), so it leads."""
    focus = focus_stems(part)
    title = base_title(passage.title)
    if not focus or focus & stems(sentence) or not focus & stems(title) or not re.search(r"\d", title):
        return line
    return f"{title}: {line}"


def decision(label: str, evidence: list[Evidence]) -> str:
    """The decision first, then the evidence for it, each sentence cited."""
    lines = [f"{label}."]
    for e in evidence:
        line = cited(e.sentence, e.passage.ref)
        if line not in lines:
            lines.append(line)
    return " ".join(lines)


def cited(sentence: str, ref: str) -> str:
    s = sentence.rstrip().rstrip(";:,").rstrip()
    end = s[-1] if s[-1] in ".!?" else "."
    body = s[:-1] if s[-1] in ".!?" else s
    return f"{body} [{ref}]{end}"


def calculation_sentence(calc: Calculation, output: str) -> str:
    """The result, how it was computed, and the sources of its inputs."""
    numbers = printed_numbers(output)
    refs = list(dict.fromkeys(q.passage.ref for q in calc.inputs if q.passage is not None))
    marks = "".join(f"[{r}]" for r in refs)
    amount = format_amount(numbers[0], calc.currency)
    base = format_amount(calc.base.value, calc.currency)
    text = f"Calculated with run_python: {base} × {calc.rate.text}"
    if calc.count is not None:
        text += f" × {calc.count.text}"
    text += f" = {amount}"
    if calc.cap is not None and len(numbers) > 1:
        cap = format_amount(numbers[1], calc.currency)
        text += (f", which is the cap of {calc.cap.text} ({cap})" if numbers[0] >= numbers[1]
                 else f", below the cap of {calc.cap.text} ({cap})")
    return f"{text} {marks}."
