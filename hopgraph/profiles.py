"""Answer profiles: how much effort one user turn may spend."""

from __future__ import annotations

from dataclasses import dataclass

from hopgraph.config import Context
from hopgraph.errors import InputError


@dataclass(frozen=True)
class Limits:
    max_turns: int
    token_budget: int
    chunk_budget: int
    reasoning_effort: str | None


PROFILES = ("fast", "thorough")


def effective_limits(context: Context, profile: str | None) -> Limits:
    if profile not in (None, "", *PROFILES):
        raise InputError(f"unknown profile '{profile}'; use fast or thorough")
    if profile == "fast":
        return Limits(min(context.max_turns, 4), min(context.token_budget, 16_000),
                      min(context.chunk_budget, 8), "low")
    if profile == "thorough":
        return Limits(context.max_turns, context.token_budget, context.chunk_budget * 2, "high")
    return Limits(context.max_turns, context.token_budget, context.chunk_budget, None)
