"""The clauses of a composed question, and which of them a chain's next hop asks about.

A question that describes a subject through another nests clauses: "When did [the state [where Coles Creek is
located]] reinstate the death penalty?". Each hop resolves the innermost clause still open (Coles Creek's
document names Mississippi); the next query is the entity it resolved plus the clause that encloses it
("Mississippi reinstate death penalty"), not the whole unresolved rest, whose words belong to later hops and
pull the search towards their documents instead.

Clauses are split at the words that open one: relative words (where, which, that, who, whose, whom, when),
"of", a possessive ("Hello Love's performer": the owner closes one clause, what it owns opens the next) and
commas. A name the question spells out ("Journal of Psychotherapy Integration") is never split.
"""

from __future__ import annotations

import re

from hopgraph.policies.text import drop_possessive, entity_spans, terms

_REDUCED = re.compile(r"\bthe [a-z]+ ((?:the )?[A-Z][\w' .-]*? (?:is|was|were|are) [a-z]+)")
_OPENER = re.compile(r"\b(?:where|which|that|who|whose|whom|when|of)\b|['’]s\b|,", re.IGNORECASE)


def clauses(question: str) -> list[list[str]]:
    """The question's content words, clause by clause, in the order they appear."""
    body = question.strip()
    # The opening wh-word asks; it does not open a nested clause.
    first = body.split(" ", 1)
    start = len(first[0]) if len(first) > 1 else 0
    names = [(pos, pos + len(span)) for span, pos in entity_spans(body) if pos > 0]
    cuts = [0]
    for m in _OPENER.finditer(body, start):
        if m.group()[0] in "'’":
            cuts.append(m.end())  # the owner ends its clause, even inside a name ("Hello Love's")
        elif not any(a < m.start() < b for a, b in names):
            cuts.append(m.start())  # not "of" inside a name
    # "the country Signmark is from": a relative clause without its relative word starts at the name.
    cuts += [m.start(1) for m in _REDUCED.finditer(body, start)]
    cuts = sorted(set(cuts))
    cuts.append(len(body))
    return [[drop_possessive(t) for t in terms(body[a:b])] for a, b in zip(cuts, cuts[1:], strict=False) if b > a]


def next_clause(question: str, resolved: set[str], named: set[str] | None = None) -> list[str] | None:
    """The words of the clauses next to the ones the chain resolved (``resolved``: question words its documents'
    titles and earlier queries used; ``named``: those of its titles alone), in question order; None when the
    question has one clause or the chain resolved none of them yet."""
    resolved = {drop_possessive(t) for t in resolved}
    named = {drop_possessive(t) for t in (resolved if named is None else named)}
    segs = [s for s in clauses(question) if s]
    if len(segs) < 2:
        return None
    # The noun a clause that names a document of the chain describes ("the state" of "the state where X is
    # located", "the author" of "the author of Dead Ernest") is what the entity found there is: resolved too.
    heads = {segs[i - 1][-1] for i in range(1, len(segs)) if sum(t in named for t in segs[i]) * 2 >= len(segs[i])}
    resolved = resolved | heads
    # A clause is resolved when the chain used at least half of its words.
    done = [sum(t in resolved for t in s) * 2 >= len(s) for s in segs]
    if not any(done):
        return None
    picked: list[int] = []
    for i, d in enumerate(done):
        if not d:
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(segs) and not done[j] and j not in picked:
                picked.append(j)
    if not picked:
        return None
    words = [t for j in sorted(picked) for t in segs[j] if t not in resolved]
    return list(dict.fromkeys(words)) or None
