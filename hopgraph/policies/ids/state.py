"""What the built-in ids policy knows: its knobs, its planned calls, and the state it rebuilds from a transcript."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class Knobs:
    first_limit: int = 10
    hop_limit: int = 5
    parents: int = 3
    later_parents: int = 2
    entities_per_parent: int = 3
    entity_parts: bool = True
    anchor_side: float = 0.5
    max_hops: int = 3
    min_new: int = 2
    widen_limit: int = 15
    text_weight: float = 1.0
    noisy_or: bool = True
    hybrid_first: str = "always"
    question_title: float = 0.95
    later_min_link: float = 0.75
    title_link_rank: int = 1
    child_weight: float = 0.85
    rank_decay: float = 0.35
    first_decay: float = 0.35
    strong_link: float = 1.0
    weak_link: float = 0.75
    no_link: float = 0.35
    max_turns: int = 10
    short_text: int = 120
    token_budget: int = 48_000
    budget_share: float = 0.8
    max_reported: int = 10
    title_head: bool = False
    resolve_text: bool = True
    clause_queries: bool = True
    list_commas: int = 3  # separators (commas, "and") that make a span a list of names
    title_bridge: bool = True
    end_anchor: float = 0.5
    hops_by_question: bool = True
    chain_top: int = 3
    report_min: int = 2
    report_slack: int = 1
    chain_keep: int = 5
    report_ratio: float = 0.8
    report_floor: float = 0.5
    decisive_cover: float = 0.4
    decisive_rank: int = 2


@dataclass(frozen=True)
class Planned:
    name: str
    args: dict[str, Any]
    hop: int
    parent: str | None = None
    entity: str | None = None
    widen: bool = False


@dataclass
class Edge:
    parent: str
    entity: str
    rank: int
    link: float
    query: str = ""


@dataclass
class State:
    question: str
    qterms: set[str]
    titles: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    depth: dict[str, int] = field(default_factory=dict)
    first: dict[str, float] = field(default_factory=dict)
    edges: dict[str, list[Edge]] = field(default_factory=dict)
    expanded: set[str] = field(default_factory=set)
    queries: set[str] = field(default_factory=set)
    entities: set[str] = field(default_factory=set)
    read: set[str] = field(default_factory=set)
    hybrid_rank: dict[str, int] = field(default_factory=dict)
    text_rank: dict[str, int] = field(default_factory=dict)
    shown_chars: int = 0
    shown_docs: int = 0
    hops_done: int = 0
    last_new: int = 0

    def copy(self) -> State:
        """A copy whose containers can be changed without touching this one (edges are never changed once made)."""
        copied: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, dict):
                value = {k: list(v) if isinstance(v, list) else v for k, v in value.items()}
            elif isinstance(value, set | list):
                value = type(value)(value)
            copied[f.name] = value
        return State(**copied)
