"""How the built-in policy ranks what its hops found (ids mode).

The final list ranks chains rather than single hits (see :mod:`hopgraph.policies.ids.hops` for how the
chains are followed):
- first-hop documents by their position in the hybrid list (BM25 orders the rest);
- a document whose title the question names is an anchor, ranked near the top; once bridges
  were followed, the other first-hop documents of such a question count half;
- a document reached from a parent (found by a bridge from it, or named by title in its text)
  scores from its parent's score, how strongly it is linked and its rank for the bridge query;
  that score and its own first-hop score combine as a noisy-or. A parent the question's main
  clause names passes on less of its score when a nested clause names another.

Every function reads the planner's state and knobs only; ties break by id.
"""

from __future__ import annotations

from hopgraph.policies.ids.clauses import clauses
from hopgraph.policies.ids.state import Edge, Knobs, State
from hopgraph.policies.text import base_title, find_phrase, name_head, norm, terms


def title_edges(knobs: Knobs, state: State) -> dict[str, list[Edge]]:
    """A document whose title is named in another document's text is linked to it."""
    titles = {}
    for d, t in state.titles.items():
        bt = name_head(norm(base_title(t))) if knobs.title_head else norm(base_title(t))
        if len(bt) > 3 and not set(terms(bt)) <= state.qterms:
            titles[d] = bt
    edges: dict[str, list[Edge]] = {}
    for p, text in state.texts.items():
        folded = norm(text)
        found = sorted((pos, d) for d, bt in titles.items() if d != p and (pos := find_phrase(folded, bt)) >= 0)
        # A document naming many others (a hub) links each of them less: later mentions rank lower.
        for i, (_, d) in enumerate(found):
            edges.setdefault(d, []).append(Edge(p, titles[d], knobs.title_link_rank + i, knobs.strong_link))
    return edges


def anchors(state: State) -> list[str]:
    """Documents whose title the question names."""
    question = norm(state.question)
    found = []
    for d in state.depth:
        bt = norm(base_title(state.titles.get(d, "")))
        if len(bt) > 2 and find_phrase(question, bt) >= 0:
            found.append(d)
    return found


def chain_ends(state: State, named: list[str]) -> set[str]:
    """The named documents where the chain ends rather than starts: those the question's main clause names
    ("What currency predated the Euro in the country ...") when a nested clause names another ("... Signmark
    is from"). What they name in turn leads away from the chain."""
    segs = clauses(state.question)
    if len(segs) < 2:
        return set()
    main = set(segs[0])
    ends = {d for d in named if set(terms(base_title(state.titles.get(d, "")))) <= main}
    return ends if len(ends) < len(named) else set()


def scores(knobs: Knobs, state: State) -> dict[str, float]:
    """Every document found so far with its chain score (higher is better)."""
    # A document whose title the question names is a first-hop anchor, wherever it ranked.
    named = anchors(state) if knobs.question_title > 0 else []
    by_title = title_edges(knobs, state)
    # First-hop documents by position, not raw RRF (too flat). Exact names matter when documents are
    # entities (titles named in the question or in other documents): then hybrid and BM25 lists are
    # fused; otherwise the hybrid list leads and BM25 only orders what it left out.
    order = sorted(state.first, key=lambda d: (-state.first[d], d))
    if knobs.hybrid_first == "always" or (knobs.hybrid_first == "auto" and not named and not by_title):
        pos = {d: i for i, d in enumerate(order)}
        order.sort(key=lambda d: (state.hybrid_rank.get(d, 1 << 30), pos[d]))
    result = {d: 1.0 / (1.0 + knobs.first_decay * i) for i, d in enumerate(order)}
    if named and state.hops_done > 1:
        # The question names where its chain starts: once bridges were followed from there, the other
        # first-round hits only matched its words, and count less than the documents the chain reaches.
        for d in result:
            result[d] *= knobs.anchor_side
    for d in named:
        result[d] = max(result.get(d, 0.0), knobs.question_title)
    ends = chain_ends(state, named) if knobs.end_anchor < 1.0 else set()
    edges: dict[str, list[Edge]] = {d: list(es) for d, es in state.edges.items()}
    for d, es in by_title.items():
        edges.setdefault(d, []).extend(es)
    # Children in order of depth, so a parent's score is final before its children use it.
    for d in sorted(edges, key=lambda x: (state.depth.get(x, 0), x)):
        own = result.get(d, 0.0)
        via = 0.0
        for e in edges[d]:
            ps = result.get(e.parent, 0.0)
            if e.parent in ends:
                ps *= knobs.end_anchor
            via = max(via, knobs.child_weight * ps * e.link / (1.0 + knobs.rank_decay * (e.rank - 1)))
        # Found by the question and linked from a good document: both count (noisy-or).
        result[d] = 1.0 - (1.0 - own) * (1.0 - via) if knobs.noisy_or else max(own, via)
    return result


def ranking(knobs: Knobs, state: State) -> list[str]:
    """Documents best first, ties by id."""
    by_score = scores(knobs, state)
    return sorted(by_score, key=lambda d: (-by_score[d], d))
