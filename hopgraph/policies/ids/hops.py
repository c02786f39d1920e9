"""The multi-hop search strategy behind the built-in policy (ids mode).

Round 1 searches the question two ways (hybrid and BM25). When that is decisive, the policy
reports (see :mod:`hopgraph.policies.ids.support`, which also decides what the report lists).
Otherwise later rounds follow bridges: names found in the best documents of the previous hop,
the documents the question names first (people, places, works; in entity-centric corpora these
are often titles of other documents; a compound name such as "X in Y, Z" also links by its
parts) become the subject of the next query, together with the clause of the question that encloses
what the chain resolved (see :mod:`hopgraph.policies.ids.clauses`; the whole unresolved rest when the clauses
cannot be told apart), all in parallel; the first of these rounds also looks a page deeper on the
question itself. Up to ``max_hops`` such rounds, fewer when a round finds almost nothing new.
A single-hop question gets no bridges: an undecided first round only looks deeper.

The final list ranks chains rather than single hits, so the best first-hop document and the
document it leads to both come early (see :mod:`hopgraph.policies.ids.hops_ranking`).

The policy keeps an estimate of the prompt tokens its results take and drops its weakest
bridges first when the next round would not fit the budget. Everything is recomputed from
the transcript each turn (the planner replays its own earlier rounds, continuing its last replay of the
same rounds where it has one, see :mod:`hopgraph.policies.ids.replays`), so what the policy does depends on the
transcript alone and is deterministic: ties break by id.
"""

from __future__ import annotations

import re
from typing import Any

from hopgraph.policies.ids import hops_ranking, support
from hopgraph.policies.ids.clauses import next_clause
from hopgraph.policies.ids.replays import REPLAYS, ReplayCache
from hopgraph.policies.ids.state import Edge, Knobs, Planned, State
from hopgraph.policies.text import (
    GENERIC_NAMES,
    base_title,
    drop_possessive,
    entity_spans,
    name_parts,
    sentences,
    terms,
)
from hopgraph.policies.text import find_phrase as _find
from hopgraph.policies.text import name_head as _head
from hopgraph.policies.text import norm as _norm
from hopgraph.policies.transcript import CallResult, DocHit, Transcript

RRF_K = 60
# A span's possessive, also the bare apostrophe of "Jones'" (terms never end in one: drop_possessive serves them).
_POSSESSIVE = re.compile(r"['’]s?$")
_DISAMBIGUATION = re.compile(r"\(([^)]*)\)\s*$")
# Rough prompt-token accounting (the graph counts exactly; the policy only plans to stay well below).
CHARS_PER_TOKEN = 4.5
DOC_OVERHEAD_TOKENS = 15
PROMPT_OVERHEAD_TOKENS = 500


class HopPlanner:
    def __init__(self, knobs: Knobs | None = None, replays: ReplayCache | None = REPLAYS) -> None:
        self.k = knobs or Knobs()
        self.replays = replays

    # --- replay ---------------------------------------------------------------

    def replay(self, transcript: Transcript) -> tuple[State, list[Planned]]:
        """Rebuilds the state from earlier rounds; returns it with the next round's plan.

        The state may be shared with later calls (see :mod:`hopgraph.policies.ids.replays`): read it, do not change it.
        """
        kept = self.replays.extended_by(self.k, transcript) if self.replays is not None else None
        if kept is None:
            state = State(question=transcript.question, qterms=set(terms(transcript.question)))
            plan = self.plan(state)
            seen = 0
        elif len(kept.rounds) == len(transcript.rounds):
            return kept.state, list(kept.plan)
        else:
            state, plan, seen = kept.state.copy(), list(kept.plan), len(kept.rounds)
        for round_ in transcript.rounds[seen:]:
            self.absorb(state, plan, round_)
            plan = self.plan(state)
        if self.replays is not None:
            self.replays.keep(self.k, transcript, state, plan)
        return state, plan

    def absorb(self, state: State, plan: list[Planned], results: list[CallResult]) -> None:
        by_call = {(p.name, _key(p.args)): p for p in plan}
        new = 0
        hop = state.hops_done
        for res in results:
            meta = by_call.get((res.name, _key(res.args)))
            if res.name in ("search", "text_search"):
                state.queries.add(_norm(str(res.args.get("query", ""))))
            for doc in res.docs:
                # Every result is rendered into the prompt again, repeats included.
                state.shown_chars += len(doc.text) + len(doc.title)
                state.shown_docs += 1
                if doc.id not in state.depth:
                    new += 1
                    state.depth[doc.id] = hop
                if doc.title or doc.id not in state.titles:
                    state.titles[doc.id] = doc.title
                if len(doc.text) > len(state.texts.get(doc.id, "")):
                    state.texts[doc.id] = doc.text
                if res.name == "read":
                    continue
                first_page = hop == 0 or meta is None or meta.parent is None
                ranks = state.hybrid_rank if res.name == "search" else state.text_rank
                w = self.k.text_weight if res.name == "text_search" else 1.0
                if meta is not None and meta.widen:
                    # A deeper page of a first-round query: only what the first page did not show counts, and
                    # below it (a deeper search can order the top differently; the first page stands).
                    if doc.id not in ranks:
                        ranks[doc.id] = self.k.first_limit + doc.rank
                        state.first[doc.id] = state.first.get(doc.id, 0.0) + w / (RRF_K + ranks[doc.id])
                    continue
                if first_page:
                    ranks.setdefault(doc.id, doc.rank)
                if first_page or meta is None:
                    state.first[doc.id] = state.first.get(doc.id, 0.0) + w / (RRF_K + doc.rank)
                else:
                    self._link(state, meta, doc)
            if res.name == "read" and meta is not None and meta.parent is not None:
                state.read.add(meta.parent)
            elif meta is not None and meta.parent is not None:
                state.expanded.add(meta.parent)
                state.entities.add(_norm(meta.entity or ""))
        state.hops_done += 1
        state.last_new = new

    def _link(self, state: State, meta: Planned, doc: DocHit) -> None:
        assert meta.parent is not None and meta.entity is not None
        if doc.id == meta.parent:
            return
        entity = _norm(meta.entity)
        head = _head(entity)
        title = _norm(base_title(doc.title))
        core = _head(title)
        parent_text = _norm(state.texts.get(meta.parent, ""))
        parent_title = _norm(base_title(state.titles.get(meta.parent, "")))
        text = _norm(doc.text)
        # A compound name ("Limpopo River in Gwanda District, Zimbabwe") lists several names: any of them links.
        parts = [_norm(p) for p in name_parts(meta.entity)[1:]] if self.k.entity_parts else []
        # A title is often "Name, Region" and a name "Name in Region": their heads name the same thing.
        if title and (title == entity or core == head or title in parts
                      or (len(core) > 3 and _find(parent_text, core) >= 0)) or (
            len(parent_title) > 3 and parent_title in text
        ):
            link = self.k.strong_link
        elif entity in text or entity in title or (len(head) > 3 and _find(text, head) >= 0) or any(
            len(p) > 3 and (_find(text, p) >= 0 or _find(title, p) >= 0) for p in parts
        ):
            link = self.k.weak_link
        else:
            link = self.k.no_link
        query = str(meta.args.get("query", ""))
        state.edges.setdefault(doc.id, []).append(Edge(meta.parent, meta.entity, doc.rank, link, query))

    # --- planning ---------------------------------------------------------------

    def plan(self, state: State) -> list[Planned]:
        if state.hops_done == 0:
            q = state.question
            return [
                Planned("search", {"query": q, "limit": self.k.first_limit}, 0),
                Planned("text_search", {"query": q, "limit": self.k.first_limit}, 0),
            ]
        # The report costs no turn of its own (the graph takes it as soon as nothing is planned).
        if state.hops_done > self.k.max_hops or state.hops_done >= self.k.max_turns:
            return []
        if state.hops_done > 1 and state.last_new < self.k.min_new:
            return []  # the last hop brought (almost) nothing: the next one would likely bring nothing either
        if state.hops_done == 1 and self.decisive(state):
            return []
        single = support.single_hop(self.k, state)
        scores = self.scores(state)
        hop = state.hops_done
        pool = [d for d in state.depth if state.depth[d] == hop - 1 and d not in state.expanded]
        if hop > 1:
            # Past the first hop, follow only documents that a link explains, not every stray result.
            pool = [d for d in pool if max((e.link for e in state.edges.get(d, [])), default=0.0)
                    >= self.k.later_min_link]
        anchors = set(self.anchors(state)) if hop == 1 else set()
        # The documents the question names start its chain: follow them first, and further.
        pool.sort(key=lambda d: (d not in anchors, -scores.get(d, 0.0), d))
        # A single-hop question has no bridge to follow: a round on it only looks deeper.
        parents = [] if single else pool[: self.k.parents if hop == 1 else self.k.later_parents]
        reads: list[Planned] = []
        # by_rank[i]: the (i+1)-th bridge of every parent, so that cutting for the token budget drops
        # the weakest bridges first.
        by_rank: list[list[Planned]] = [[] for _ in range(self.k.entities_per_parent)]
        seen = set(state.queries)
        for parent in parents:
            if len(state.texts.get(parent, "")) < self.k.short_text and parent not in state.read:
                # Too short to judge: read the whole document; its text feeds the links of the final ranking.
                reads.append(Planned("read", {"id": parent}, hop, parent))
            fresh = [e for e in self.entities(state, parent) if _norm(e) not in state.entities]
            for i, entity in enumerate(fresh[: self.k.entities_per_parent]):
                query = self.query(state, parent, entity)
                if _norm(query) in seen:
                    continue
                seen.add(_norm(query))
                by_rank[i].append(Planned("search", {"query": query, "limit": self.k.hop_limit}, hop, parent, entity))
        widen: list[Planned] = []
        if (any(by_rank) or single) and self.k.widen_limit > self.k.first_limit:
            # Also look deeper on the question itself, in case a first-hop document ranked just below the
            # first page (both lists, in the first expansion round).
            widen = [Planned(name, {"query": state.question, "limit": self.k.widen_limit}, hop, widen=True)
                     for name in (("search", "text_search") if hop == 1 else ())]
        ordered = [*reads, *by_rank[0], *widen, *[c for rank in by_rank[1:] for c in rank]]
        return self._within_budget(state, ordered)

    def _within_budget(self, state: State, calls: list[Planned]) -> list[Planned]:
        """Keeps the calls (in priority order) whose results should still fit the prompt token budget."""
        per_doc = (state.shown_chars / max(state.shown_docs, 1)) / CHARS_PER_TOKEN + DOC_OVERHEAD_TOKENS
        used = state.shown_chars / CHARS_PER_TOKEN + DOC_OVERHEAD_TOKENS * state.shown_docs + PROMPT_OVERHEAD_TOKENS
        room = self.k.budget_share * self.k.token_budget - used
        kept: list[Planned] = []
        for call in calls:
            cost = per_doc * (int(call.args.get("limit", 1)) if call.name != "read" else 2)
            if cost > room:
                continue
            room -= cost
            kept.append(call)
        return kept

    def entities(self, state: State, parent: str) -> list[str]:
        text = state.texts.get(parent, "")
        if not text:
            return []
        # The title without its disambiguation: "Decade (Neil Young album)" still leads to Neil Young.
        ptitle = set(terms(base_title(state.titles.get(parent, ""))))
        residual = state.qterms - self.resolved(state, parent)
        known_titles = {_norm(base_title(t)) for t in state.titles.values() if t}
        sent_overlap: list[tuple[int, int]] = []
        offset = 0
        for s in sentences(text):
            start = text.find(s, offset)
            offset = max(start, 0) + len(s)
            sent_overlap.append((start + len(s), len(set(terms(s)) & residual)))
        scored: dict[str, tuple[float, str]] = {}
        for span, pos in entity_spans(text):
            # A possessive names its owner: "Finland's currency" leads to Finland.
            span = _POSSESSIVE.sub("", span)
            if span.count(",") + span.count(" and ") + span.count(" & ") >= self.k.list_commas:
                continue  # a list ("Belgium, Luxembourg, Slovenia and Slovakia") names no one thing to follow
            eterms = set(terms(span))
            if not eterms or eterms <= state.qterms or eterms <= ptitle or _norm(span) in known_titles:
                continue  # known titles are linked directly (see title_edges), no search needed
            if len(ptitle) > 1 and ptitle <= eterms:
                continue  # the parent's full name ("Peter Phillip Bonetti" in "Peter Bonetti"), not a next subject
            if len(eterms) == 1 and next(iter(eterms)) in GENERIC_NAMES:
                continue
            if not any(w[:1].isupper() for w in span.split()):
                continue  # a number or a date ("43.8", "1920s") names no document to follow
            overlap = next((o for end, o in sent_overlap if pos < end), 0)
            score = overlap + 0.5 * (1.0 - pos / max(len(text), 1))
            if len(span.split()) == 1:
                score -= 0.25
            key = _norm(span)
            if key not in scored or scored[key][0] < score:
                scored[key] = (score, span)
        ranked = sorted(scored.values(), key=lambda x: (-x[0], x[1]))
        found = [span for _, span in ranked]
        if self.k.title_bridge:
            # A title's disambiguation names what the document belongs to: "Privilege (Ivor Cutler album)" is by
            # Ivor Cutler, "Norris Mountain (Montana)" is in Montana. That is the first bridge.
            named = _DISAMBIGUATION.search(state.titles.get(parent, ""))
            for span, _ in entity_spans(named.group(1)) if named else []:
                eterms = set(terms(span))
                if eterms and not eterms <= state.qterms and _norm(span) not in known_titles:
                    found = [span, *(f for f in found if _norm(f) != _norm(span))]
                    break
        return found

    def query(self, state: State, parent: str, entity: str) -> str:
        """The bridge name as the next subject, with the part of the question the chain has not resolved."""
        done = self.resolved(state, parent) | set(terms(entity))
        clause = None
        if self.k.clause_queries:
            named = self.chain_words(state, parent, queries=False)
            clause = next_clause(state.question, self.chain_words(state, parent), named)
        if clause is not None:
            words = [t for t in clause if t not in done]
            if words:
                return " ".join([entity, *words]).strip()
        rest = [t for t in dict.fromkeys(terms(state.question)) if t not in done]
        return " ".join([entity, *rest]).strip()

    def chain_words(self, state: State, doc: str, queries: bool = True) -> set[str]:
        """Question words the chain to ``doc`` used: its documents' titles and (``queries``) the queries that
        followed it."""
        words: set[str] = set()
        for current, best in self._chain(state, doc):
            words |= set(terms(base_title(state.titles.get(current, ""))))
            if best is not None and queries:
                words |= set(terms(best.query))
        # The question's words as its clauses count them: "Love's" is Love.
        return words & {drop_possessive(t) for t in state.qterms}

    def resolved(self, state: State, doc: str) -> set[str]:
        """Question words the chain that reached ``doc`` has already resolved: its documents' titles."""
        words: set[str] = set()
        for current, _ in self._chain(state, doc):
            words |= set(terms(base_title(state.titles.get(current, ""))))
            if self.k.resolve_text and current != doc:
                words |= set(terms(state.texts.get(current, "")))
        return words & state.qterms

    @staticmethod
    def _chain(state: State, doc: str) -> list[tuple[str, Edge | None]]:
        """``doc`` and the documents before it, each with the edge that reached it (its strongest link)."""
        chain: list[tuple[str, Edge | None]] = []
        seen: set[str] = set()
        current: str | None = doc
        while current is not None and current not in seen:
            seen.add(current)
            edges = state.edges.get(current)
            best = max(edges, key=lambda e: (e.link, -e.rank, e.parent)) if edges else None
            chain.append((current, best))
            current = best.parent if best else None
        return chain

    # --- ranking (hopgraph.policies.ids.hops_ranking) ---------------------------------------

    def title_edges(self, state: State) -> dict[str, list[Edge]]:
        return hops_ranking.title_edges(self.k, state)

    def scores(self, state: State) -> dict[str, float]:
        return hops_ranking.scores(self.k, state)

    def ranking(self, state: State) -> list[str]:
        return hops_ranking.ranking(self.k, state)

    def anchors(self, state: State) -> list[str]:
        return hops_ranking.anchors(state)

    def report(self, state: State) -> list[str]:
        return support.report(self.k, state)

    def decisive(self, state: State) -> bool:
        return support.decisive(self.k, state)


def _key(args: dict[str, Any]) -> str:
    return repr(sorted((str(k), str(v)) for k, v in args.items()))
