"""The offline policy for answer mode: search, maybe hop once, answer extractively.

Round 1: ``search_documents`` on the question (preceded by ``rewrite_query`` when the
question is visibly untidy). Round 2, for a question with a second part: a search
for that part, anchored on a bridge entity found in the first results (a name or a
code that the question does not contain). Then a final message without tool calls:
an extractive answer, one sentence per part of the question (the sentence that named
the bridge answers the first part; the best match among the second search's passages
answers the next), each followed by its ``[Sn]`` reference. A one-part question gets
its best sentence, and a second one only if it matches nearly as well.

Only structured data is read: the ``search_documents`` artifacts and the policy's own
earlier tool calls, never the text of tool messages.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from hopgraph.citations import is_tabular
from hopgraph.policies.base import ScriptedPolicy, _call_id
from hopgraph.policies.text import STOPWORDS, entity_spans, fold, sentences, terms
from hopgraph.policies.transcript import message_text, tool_results
from hopgraph.state import question_position

SEARCH = "search_documents"
REWRITE = "rewrite_query"
MAX_SENTENCES = 4
MIN_SENTENCE_CHARS = 25
NOT_FOUND = "I could not find this in the documents."

# Codes such as PO-4471, BUG-882, INC-2026-031, TS-40.
_CODE = re.compile(r"\b[A-Z]{2,}(?:-[A-Z0-9]+)*-\d+[A-Z0-9]*\b")
# Where a question turns to its second part: ", and what ...", "; who ...", " and when ..."
_SPLIT = re.compile(
    r"\s*(?:[,;]\s*(?:and\s+)?|\s+and\s+)(?=(?:(?:in|on|at|by|for|from|with|to|under)\s+)?(?:what|which|who|whom|whose|when|where|why|how|did|does|do|is|are|"
    r"was|were|can|could|should|must)\b)",
    re.IGNORECASE,
)
# Words that only say "this question refers back": they never make a good search term.
_VAGUE = frozenset({"them", "they", "it", "its", "that", "person", "one", "agree", "agreed", "get", "got", "we", "us",
                    "our", "did", "does", "do", "set", "give", "want", "need", "must", "apply", "applies"})
_JOINER_WORDS = frozenset({"of", "the", "on", "in", "and", "for", "at", "to", "de", "von", "van"})
_EXTRA_STOP = frozenset({"which", "what", "who", "when", "where", "how", "did", "does", "the", "and", "whom"})


@dataclass
class Passage:
    ref: str
    title: str
    text: str
    rank: int  # position within its search
    round: int
    page: Any = None
    # Rank of this passage in each round whose search matched it (repeats included).
    ranks: dict[int, int] = field(default_factory=dict)
    kind: str = ""
    source: str = ""


@dataclass
class _State:
    question: str
    rounds: list[list[tuple[str, dict[str, Any]]]] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)
    searched: list[str] = field(default_factory=list)


def stem(word: str) -> str:
    """Crude and deterministic: drop a common suffix, then keep five letters."""
    word = fold(word)
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]  # capped -> cap, planned -> plan
            break
    return word[:5]


def stems(text: str) -> set[str]:
    return {stem(t) for t in terms(text) if t not in _VAGUE}


def split_question(question: str) -> list[str]:
    parts = [p.strip(" ,;?") for p in _SPLIT.split(question) if p and p.strip(" ,;?")]
    return parts or [question.strip()]


def tidy_question(question: str) -> str:
    """A cleaned-up wording: single spaces, one closing mark, capital first letter."""
    text = " ".join(question.split())
    text = re.sub(r"([?!.])\1+", r"\1", text)
    text = re.sub(r"\s+([?!.,;])", r"\1", text)
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    return text


def read_state(messages: Sequence[BaseMessage]) -> _State:
    start = question_position(messages)
    if start < 0:
        return _State(question="")
    state = _State(question=message_text(messages[start]).strip())
    results = tool_results(messages[start + 1:])
    for m in messages[start + 1:]:
        if not isinstance(m, AIMessage) or not m.tool_calls:
            continue
        round_no = len(state.rounds) + 1
        state.rounds.append([(c["name"], dict(c["args"])) for c in m.tool_calls])
        for call in m.tool_calls:
            if call["name"] != SEARCH:
                continue
            state.searched.append(str(call["args"].get("query") or ""))
            tm = results.get(call.get("id") or "")
            artifact = tm.artifact if tm is not None else None
            if not isinstance(artifact, dict):
                continue
            for rank, ref in enumerate(artifact.get("refs") or [], start=1):
                if isinstance(ref, dict) and isinstance(ref.get("ref"), str):
                    state.passages.append(Passage(
                        ref=ref["ref"], title=str(ref.get("title") or ""), text=str(ref.get("text") or ""),
                        rank=rank, round=round_no, page=ref.get("page"), kind=str(ref.get("kind") or ""),
                        source=str(ref.get("source") or ""),
                    ))
            by_ref = {p.ref: p for p in state.passages}
            matched = artifact.get("matched") or [r.get("ref") for r in artifact.get("refs") or []
                                                  if isinstance(r, dict)]
            for rank, ref_id in enumerate(matched, start=1):
                passage = by_ref.get(ref_id) if isinstance(ref_id, str) else None
                if passage is not None:
                    passage.ranks[round_no] = min(rank, passage.ranks.get(round_no, rank))
    return state


_MARKER = re.compile(r"^(?:#+|[-*\u2022]|\d+[.)])\s+")


def _is_heading(line: str) -> bool:
    return len(line) < 60 and not line.rstrip().endswith((".", "!", "?", ":", ";", ","))


def prose_sentences(text: str) -> list[str]:
    """Sentences of running text: wrapped lines are joined, headings and footers left out."""
    paragraphs: list[str] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            paragraphs.append(" ".join(current))
            current.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        marker = _MARKER.match(line)
        if marker:
            flush()
            line = line[marker.end():]
        if _is_heading(line) and (not current or current[-1].endswith((".", "!", "?", ":"))):
            flush()
            continue  # a title, a clause heading or a page footer
        current.append(line)
    flush()
    out = []
    for paragraph in paragraphs:
        for sentence in sentences(paragraph):
            sentence = sentence.strip()
            if len(sentence) >= MIN_SENTENCE_CHARS:
                out.append(sentence)
    return out


_FIELD = re.compile(r"^[^:]{1,40}:\s")


def table_rows(text: str) -> list[str]:
    """Rows of a table as single lines: CSV rows and "Column: value" records spelled out."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) >= 2 and all("," in line for line in lines[:2]) and lines[0].count(",") >= 2:
        rows = list(csv.reader(io.StringIO("\n".join(lines))))
        header = rows[0]
        return ["; ".join(f"{h}: {v}" for h, v in zip(header, row, strict=False)) for row in rows[1:]]
    out = []
    for block in re.split(r"\n\s*\n", text):
        block_lines = [line.strip() for line in block.splitlines() if line.strip()]
        if len(block_lines) >= 2 and sum(1 for line in block_lines if _FIELD.match(line)) >= 2:
            out.append("; ".join(block_lines))  # one record of "Column: value" lines
        else:
            out += [line for line in block_lines if len(line) >= MIN_SENTENCE_CHARS and any(c.isdigit() for c in line)]
    return out


def passage_sentences(passage: Passage) -> list[str]:
    if is_tabular(passage.kind, passage.source, passage.title):
        return table_rows(passage.text)
    return prose_sentences(passage.text)


def _clean_span(span: str) -> str:
    span = span.split(",")[0].strip()
    words = span.split()
    for i, w in enumerate(words):
        if w.isdigit():  # "Hull on 17 October": the name ends before the number
            words = words[:i]
            break
    while words and words[-1].lower() in _JOINER_WORDS:
        words.pop()
    return " ".join(words)


def _entities(sentence: str, question: str) -> list[tuple[str, int]]:
    """Names and codes in the sentence that the question does not mention, with their offsets."""
    q = fold(question)
    found: list[tuple[str, int]] = []
    for raw, pos in entity_spans(sentence):
        span = _clean_span(raw)
        if len(span) < 3 or fold(span) in q or fold(span) in STOPWORDS:
            continue
        if all(fold(w) in q for w in span.split()):
            continue
        found.append((span, pos))
    for m in _CODE.finditer(sentence):
        if fold(m.group()) not in q and all(m.group() != f for f, _ in found):
            found.append((m.group(), m.start()))
    return found


def focus_stems(part: str) -> set[str]:
    """What the part asks for: the noun after which/what, or after "who was the" ("on-call engineer")."""
    m = re.search(r"\b(?:which|what)\s+([\w\-]+)", part, re.IGNORECASE)
    if not m:
        m = re.search(r"\bwho\s+(?:was|is|were|are)\s+(?:the\s+)?([\w\-]+(?:\s+[\w\-]+)?)", part, re.IGNORECASE)
    return stems(m.group(1)) if m else set()


def _name_like(span: str) -> bool:
    words = span.split()
    return len(words) >= 2 and sum(1 for w in words if w[:1].isupper() and w.isalpha()) >= 2


def _weights(passages: list[Passage]) -> dict[str, float]:
    """Inverse passage frequency: a word in every passage says little about which sentence answers."""
    df: dict[str, int] = {}
    for p in passages:
        for t in stems(p.text):
            df[t] = df.get(t, 0) + 1
    return {t: 1.0 / (1.0 + 0.5 * math.log(n)) for t, n in df.items()}


def _best_sentences(passages: list[Passage], want: set[str], bridge: set[str] | None = None,
                    only_round: int = 0, about: set[str] | None = None) -> list[tuple[float, int, str, Passage]]:
    """Sentences by weighted overlap with ``want``, best first.

    ``only_round``: only passages that round's searches matched, ranked as they ranked
    there (the search issued for a part of the question knows best what answers it).
    A sentence naming the bridge or holding a number gets a little more, and so does
    any sentence of a passage about ``about`` (named in its title or text).
    """
    weights = _weights(passages)
    scored = []
    order = 0
    for p in passages:
        if only_round and only_round not in p.ranks:
            continue
        rank = p.ranks.get(only_round, p.rank) if only_round else p.rank
        on_topic = bool(about and stems(p.title + " " + p.text) & about)
        for s in passage_sentences(p):
            got = stems(s)
            shared = got & want
            if not shared:
                continue
            # fsum: exact, so the score never depends on set iteration order (hash seed).
            score = math.fsum(weights.get(t, 1.0) for t in shared)
            if bridge and got & bridge:
                score += 1.0
            if any(c.isdigit() for c in s):
                score += 0.25
            if on_topic:
                score += 0.75
            score -= 0.05 * rank + 0.001 * p.round
            scored.append((score, order, s, p))
            order += 1
    scored.sort(key=lambda x: (-x[0], x[1]))
    return scored


def find_bridge(state: _State, first_part: str) -> str | None:
    found = find_bridge_evidence(state, first_part)
    return found[0] if found else None


def find_bridge_evidence(state: _State, first_part: str) -> tuple[str, str, Passage] | None:
    """(bridge, the sentence naming it, its passage): a name or code from the first results
    that the question does not mention.

    Candidates come from sentences that share words with the first part of the question;
    a multi-word name helps, and so does matching what the question asks for ("which
    supplier" -> a name right after "supplier"; "which bug" -> BUG-882).
    """
    want = stems(first_part)
    focus = focus_stems(first_part)
    best: tuple[float, str, str, Passage] | None = None
    for p in state.passages:
        if p.round != 1 or p.rank > 4:
            continue
        for sentence in passage_sentences(p):
            got = stems(sentence)
            relevance = len(got & want)
            if relevance == 0:
                continue
            for span, pos in _entities(sentence, state.question):
                score = float(relevance) - 0.05 * p.rank
                if _name_like(span):
                    score += 1.5
                elif pos == 0:
                    score -= 1.5  # a capitalized first word is not evidence of a name
                before = sentence[max(0, pos - 40):pos]
                if focus and (stems(span) & focus or stems(" ".join(before.split()[-3:])) & focus):
                    score += 4.0
                if best is None or score > best[0]:
                    best = (score, span, sentence, p)
    return (best[1], best[2], best[3]) if best else None


def follow_up_query(bridge: str, part: str) -> str:
    words = [w for w in re.findall(r"[\w\-.,%]+", part) if fold(w).strip(".,") not in STOPWORDS | _VAGUE | _EXTRA_STOP]
    return " ".join([bridge, *[w.strip(".,") for w in words]]).strip()


def named_in_titles(question: str, passages: list[Passage]) -> set[str]:
    """Question words that pick out some documents by title ("Nordlicht", even spelt "nordlict"; stems
    keep five letters), leaving out words most titles share ("agreement")."""
    titles = {p.title for p in passages}
    counts = Counter(t for title in titles for t in stems(title))
    return {t for t in stems(question) if 0 < counts[t] <= len(titles) / 2}


def compose_answer(state: _State, bridge: str | None) -> str:
    """2-4 sentences: one per part of the question, each with its reference."""
    if not state.passages:
        return NOT_FOUND
    parts = split_question(state.question)
    multi = len(parts) > 1 and bridge is not None
    last_round = max(max(p.ranks, default=p.round) for p in state.passages)
    chosen: list[tuple[str, Passage]] = []
    used: set[str] = set()

    def take(ranked: list[tuple[float, int, str, Passage]], limit: int, floor: float, covered: bool = False) -> None:
        for score, _, s, p in ranked:
            if len(chosen) >= MAX_SENTENCES or limit <= 0:
                return
            if s in used and covered:
                return  # the best sentence for this part is already in the answer
            if s in used or score < floor:
                continue
            chosen.append((s, p))
            used.add(s)
            limit -= 1

    if multi and last_round > 1:
        assert bridge is not None
        evidence = find_bridge_evidence(state, parts[0])
        if evidence is not None and evidence[0] == bridge:
            # Part one is answered by the sentence the bridge came from.
            chosen.append((evidence[1], evidence[2]))
            used.add(evidence[1])
        else:
            take(_best_sentences(state.passages, stems(parts[0]), stems(bridge), only_round=1), 1, 0.3)
        # The later parts were searched for, with the bridge, in the last round.
        for part in parts[1:]:
            take(_best_sentences(state.passages, stems(part), only_round=last_round, about=stems(bridge)), 1, 0.3,
                 covered=True)
    else:
        # Sentences of the documents the question names by title come first among equals.
        named = named_in_titles(state.question, state.passages)
        for part in parts:
            take(_best_sentences(state.passages, stems(part), about=named), 1, 0.3, covered=True)
        ranked = _best_sentences(state.passages, stems(state.question), about=named)
        if named:
            # A second sentence stays with the documents the question named.
            ranked = [r for r in ranked if stems(r[3].title) & named]
        if ranked and len(parts) == 1:
            # A second sentence only when it matches the question nearly as well as the best one.
            take(ranked, 1, floor=max(1.0, 0.85 * ranked[0][0]))
    if not chosen:
        return NOT_FOUND
    lines = []
    for s, p in chosen:
        s = s.rstrip().rstrip(";:,").rstrip()
        end = s[-1] if s[-1] in ".!?" else "."
        body = s[:-1] if s[-1] in ".!?" else s
        lines.append(f"{body} [{p.ref}]{end}")
    return " ".join(lines)


def compose_extractive_answer(question: str, refs: Mapping[str, Mapping[str, Any]]) -> str:
    """An answer from the turn's ref registry alone (for a run that stopped without one).

    Uses the passage text stored with each ref by ``search_documents``; the first search
    of the turn plays the first round, so a bridge is found the same way.
    """
    state = _State(question=question.strip())
    for ref_id, ref in refs.items():
        text = ref.get("text")
        if not isinstance(text, str) or not text.strip():
            continue
        search = ref.get("search")
        state.passages.append(Passage(
            ref=str(ref_id), title=str(ref.get("title") or ""), text=text, rank=int(ref.get("rank") or 1),
            round=1 if search in (None, 1) else 2, page=ref.get("page"), kind=str(ref.get("kind") or ""),
            source=str(ref.get("source") or ""),
            ranks={1 if search in (None, 1) else 2: int(ref.get("rank") or 1)},
        ))
    if not state.question or not state.passages:
        return NOT_FOUND
    parts = split_question(state.question)
    bridge = find_bridge(state, parts[0])
    return compose_answer(state, bridge)


class BuiltinAnswerPolicy(ScriptedPolicy):
    """Deterministic answer-mode policy; no key, no network."""

    max_search_rounds: int = 2

    def plan(self, messages: Sequence[BaseMessage]) -> tuple[list[tuple[str, dict[str, Any]]], str]:
        """The next tool calls, or ([], final answer text)."""
        state = read_state(messages)
        if not state.question:
            return [], NOT_FOUND
        search_rounds = sum(1 for r in state.rounds if any(name == SEARCH for name, _ in r))
        if search_rounds == 0:
            tidy = tidy_question(state.question)
            calls: list[tuple[str, dict[str, Any]]] = []
            if tidy != state.question.strip():
                calls.append((REWRITE, {"query": tidy}))
            calls.append((SEARCH, {"query": tidy}))
            return calls, ""
        parts = split_question(state.question)
        bridge = find_bridge(state, parts[0]) if state.passages else None
        if search_rounds == 1 and search_rounds < self.max_search_rounds:
            if not state.passages:
                keywords = " ".join(dict.fromkeys(terms(state.question)))
                if keywords and fold(keywords) not in {fold(q) for q in state.searched}:
                    return [(SEARCH, {"query": keywords})], ""
            elif bridge and len(parts) > 1:
                query = follow_up_query(bridge, " ".join(parts[1:]))
                if fold(query) not in {fold(q) for q in state.searched}:
                    return [(SEARCH, {"query": query})], ""
        return [], compose_answer(state, bridge)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        calls, text = self.plan(messages)
        turn = len(read_state(messages).rounds) + 1
        tool_calls = [
            {"name": name, "args": args, "id": _call_id(turn, i, name, args), "type": "tool_call"}
            for i, (name, args) in enumerate(calls)
        ]
        message = AIMessage(content=text, tool_calls=tool_calls)
        return ChatResult(generations=[ChatGeneration(message=message)])
