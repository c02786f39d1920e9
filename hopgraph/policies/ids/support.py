"""When the built-in policy's evidence is enough, and which documents it supports (ids mode).

- A first round is decisive when the question is single-hop and one document clearly answers it: then the run
  reports without another round.
- A question composes hops when it describes a subject through another ("the city where...", "the author
  of...", "X's country", "the predecessor of National Rail", "the state the Battle of Mine Creek was fought
  in"); one that does not, and names no document's title, is single-hop. So is a claim (no
  question mark, no wh-word first): it states its subjects, it does not ask for one a hop away.
- A single-hop question's report is its own search as the hybrid list ranked it (a deeper page and BM25's
  extra hits come after), so it loses nothing against single-shot hybrid search.
- The report lists the documents the evidence supports: along a chain, until the score drops, but never fewer
  than the chain the question describes needs (one document per subject, and one more) and never dropping a
  document among the best ``chain_keep`` that the question names or a listed document links to by name;
  without a chain (no names linking the best documents), the ranking as it is, since single hits carry no
  score gap to cut at.
"""

from __future__ import annotations

import re

from hopgraph.policies.ids import hops_ranking
from hopgraph.policies.ids.state import Edge, Knobs, State
from hopgraph.policies.text import base_title, find_phrase, name_head, norm, terms

# Words that describe one subject through another: relative clauses, "of the", possessives.
BRIDGE = re.compile(r"\b(?:where|which|that|who|whose|whom|when|what)\b|\bof (?:the|a|an|this|that)\b|['’]s\b",
                    re.IGNORECASE)


# "the state the Battle of Mine Creek was fought": a relative clause without its "where", ending in a verb.
REDUCED = re.compile(r"\bthe [a-z]+ (?:the )?[A-Z][\w' .-]*? (?:is|was|were|are) [a-z]+")

# "the predecessor of National Rail": a role of a named thing is a subject described through another.
ROLE_OF_NAME = re.compile(r"\b[a-z]+ of (?=[A-Z])")

WH_WORDS = frozenset({"who", "whom", "whose", "what", "which", "when", "where", "why", "how"})


def composed(question: str) -> int:
    """How many subjects the question describes through another (its first word is its own wh-word)."""
    body = question.strip().split(" ", 1)[-1]
    return len(BRIDGE.findall(body)) + len(REDUCED.findall(body))


def asks(question: str) -> bool:
    """Is it a question (a question mark, or a wh-word first) rather than a claim to check?"""
    first = question.strip().split(" ", 1)[0].lower()
    return "?" in question or first in WH_WORDS


def single_hop(k: Knobs, state: State) -> bool:
    """A question that describes no subject through another and names no document's title, or a claim.

    A claim ("Mice that lack X are susceptible to Y") states its subjects instead of asking for one: the
    documents that bear on it are the ones its own words find, with no answer to carry into a next hop.
    """
    if not k.hops_by_question:
        return False
    if not asks(state.question):
        return True
    return composed(state.question) == 0 and not hops_ranking.anchors(state) and not ROLE_OF_NAME.search(state.question)


def report(k: Knobs, state: State) -> list[str]:
    """The documents the evidence supports, best first: the list stops where support drops.

    At least ``report_min`` (a chain has two ends), and one document per subject the question composes plus
    ``report_slack``; after that a document is listed while its score keeps ``report_ratio`` of the one before
    and ``report_floor`` of the best, and a later one among the best ``chain_keep`` when the question names it or
    a listed document links to it by name. At most ``max_reported``.
    """
    if single_hop(k, state):
        return first_ranking(k, state)[: k.max_reported]
    scores = hops_ranking.scores(k, state)
    ranked = sorted(scores, key=lambda d: (-scores[d], d))[: k.max_reported]
    if not ranked or not chained(k, state, ranked[: k.chain_top]):
        return ranked
    best = scores[ranked[0]]
    # A question that describes n subjects through others needs a chain of n + 1 documents; the slack allows
    # for one of them ranked just below a side hit.
    n = min(max(k.report_min, composed(state.question) + 1 + k.report_slack), len(ranked))
    while n < len(ranked):
        s = scores[ranked[n]]
        if s < k.report_ratio * scores[ranked[n - 1]] or s < k.report_floor * best:
            break
        n += 1
    kept = ranked[:n]
    if k.chain_keep > n:
        # A score drop does not cut the chain: a document named by the question or linked by name to a
        # listed one stays, up to the chain_keep best.
        links = _links(k, state)
        anchors = set(hops_ranking.anchors(state))
        question = norm(state.question)
        for d in ranked[n:k.chain_keep]:
            # Named also when the question names the title's head: "Edsa Shangri-La, Manila".
            head = name_head(norm(base_title(state.titles.get(d, ""))))
            named = d in anchors or (len(head) > 3 and find_phrase(question, head) >= 0)
            if named or any(e.parent in kept and e.link >= k.weak_link for e in links.get(d, [])):
                kept.append(d)
    return kept


def _links(k: Knobs, state: State) -> dict[str, list[Edge]]:
    linked = {d: list(es) for d, es in state.edges.items()}
    for d, es in hops_ranking.title_edges(k, state).items():
        linked.setdefault(d, []).extend(es)
    return linked


def first_ranking(k: Knobs, state: State) -> list[str]:
    """The question's own search as it ranked (the hybrid list, then what only BM25 or a deeper page found),
    then what later hops found, best first.

    Without a chain no link says more than the question's search did: links that only come from searching a
    name again do not reorder its hits (so a single-hop question gets exactly the hybrid ranking).
    """
    scores = hops_ranking.scores(k, state)
    first = sorted(state.first, key=lambda d: (state.hybrid_rank.get(d, 1 << 30), -state.first[d], d))
    later = sorted((d for d in scores if d not in state.first), key=lambda d: (-scores[d], d))
    return first + later


def chained(k: Knobs, state: State, top: list[str]) -> bool:
    """Do the best documents form a chain: one the question names, or one linked by name to another?"""
    if set(hops_ranking.anchors(state)) & set(top):
        return True
    linked = _links(k, state)
    return any(e.parent in top and e.link >= k.strong_link for d in top for e in linked.get(d, []))


def decisive(k: Knobs, state: State) -> bool:
    """After the first round: is one document clearly the answer, with nothing left to follow?

    Both searches rank it first (hybrid first, BM25 within ``decisive_rank``), it contains at least
    ``decisive_cover`` of the question's content words (all of them when the question names it), the question
    describes no subject through another (a bridge still to cross) and names no other document's title (a
    second subject).
    """
    if not state.hybrid_rank or not state.qterms or (asks(state.question) and composed(state.question)):
        return False
    top = min(state.hybrid_rank, key=lambda d: (state.hybrid_rank[d], d))
    if state.text_rank.get(top, 1 << 30) > k.decisive_rank:
        return False
    words = set(terms(f"{state.titles.get(top, '')} {state.texts.get(top, '')}"))
    if len(state.qterms & words) < k.decisive_cover * len(state.qterms):
        return False
    if top in hops_ranking.anchors(state) and not state.qterms <= words:
        # The question names the document and asks what it does not say ("where is the supplier of Project
        # Alpha based?"): in a corpus of named things the missing word lies one hop away.
        return False
    question = norm(state.question)
    for d, title in state.titles.items():
        bt = norm(base_title(title))
        if d != top and len(bt) > 2 and find_phrase(question, bt) >= 0:
            return False
    return True
