"""The container rule: which containers one run searches, given what it asked for and what its caller may search.

One rule for every entry point. The served graph passes the containers of the authenticated identity; the
Python API and the CLI trust their caller and pass ``None`` (every container).
"""

from __future__ import annotations

from collections.abc import Sequence

from hopgraph.config import DEFAULT_CONTAINER
from hopgraph.errors import AccessError


def run_containers(requested: Sequence[str] | None, permitted: Sequence[str] | None) -> list[str]:
    """The containers a run searches.

    For a trusted caller (``permitted`` is ``None``) the request stands as it is, and ``None`` means the
    default container. For an identity, ``None`` or an empty list means "all I may search", and a requested
    container outside ``permitted`` is refused by name, never silently dropped, so a caller cannot mistake a
    narrowed search for an empty one.
    """
    if isinstance(requested, str) or isinstance(permitted, str):
        raise AccessError("containers must be a list of names, not a single string")
    if permitted is None:
        return [DEFAULT_CONTAINER] if requested is None else list(requested)
    wanted = [str(name) for name in requested or []]
    allowed = [str(name) for name in permitted]
    if not wanted:
        if not allowed:
            raise AccessError("this identity may search no container; ask the operator to grant one")
        return allowed
    outside = [name for name in wanted if name not in allowed]
    if outside:
        names = ", ".join(f"'{name}'" for name in outside)
        raise AccessError(
            f"container {names} is not among the containers this identity may search ({', '.join(allowed) or 'none'})"
        )
    return wanted
