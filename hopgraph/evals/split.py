"""A fixed split of a question set into a part to look at and a part only scored.

A question belongs to the part its id's SHA-1 says: an even digest to ``look`` (its answers may be read while
developing), an odd one to ``score`` (only its aggregate figures are read). The split depends on the id alone, so
it is the same on every machine, for every set, and for questions added later.
"""

from __future__ import annotations

import hashlib

PARTS = ("look", "score")


def part_of(qid: str) -> str:
    """``look`` or ``score``: the part the question with this id belongs to."""
    return PARTS[int(hashlib.sha1(str(qid).encode("utf-8")).hexdigest(), 16) % 2]


def in_part(qid: str, part: str | None) -> bool:
    """Whether the question belongs to ``part`` (every question when ``part`` is None)."""
    if part is not None and part not in PARTS:
        raise ValueError(f"part must be one of {', '.join(PARTS)}, got {part!r}")
    return part is None or part_of(qid) == part
