"""Which files an ingest reads: every path under the given folders is either a file to read or a reason it is not.

A folder is walked depth first in name order. A symlink is followed: to a file, it is read as that file under the
link's own name; to a folder, the folder is walked, unless it leads back to a folder the walk is inside (a loop).
What cannot be read as a file is named with its reason: a symlink whose target is missing or that loops, a named
pipe, a socket or a device, a folder that cannot be listed, a path that cannot be examined. Names that start with
``.`` (``.git``, ``.DS_Store``) are left out on purpose and listed apart, as ``hidden``: they are neither read nor
counted as skipped. Paths given directly are read whatever their name.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from hopgraph.index.sources import default_root

_KINDS = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


@dataclass
class Walk:
    files: list[tuple[Path, Path]] = field(default_factory=list)
    """(file, root): each regular file to read, with the root its id is relative to."""
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(path, reason) for every path that is not a file that can be read."""
    hidden: list[str] = field(default_factory=list)
    """Paths left out because their name starts with ``.``."""


def _not_regular(mode: int) -> str:
    kind = next((name for test, name in _KINDS if test(mode)), "not a file or folder")
    return f"not a regular file ({kind})"


def _examine(path: Path) -> tuple[os.stat_result | None, str]:
    """The stat of what ``path`` leads to, or None and the reason it leads nowhere readable."""
    try:
        return path.stat(), ""
    except OSError as exc:
        if path.is_symlink():
            if exc.errno == errno.ELOOP:
                return None, "symlink loop"
            if exc.errno == errno.ENOENT:
                target = os.readlink(path)
                return None, f"symlink target missing ({target})"
        if exc.errno == errno.ENOENT:
            return None, "no such file"
        return None, f"cannot examine: {exc.strerror or exc}"


def _walk_folder(folder: Path, root: Path, out: Walk, inside: tuple[tuple[int, int], ...]) -> None:
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError as exc:
        out.skipped.append((str(folder), f"cannot read folder: {exc.strerror or exc}"))
        return
    for entry in entries:
        path = folder / entry.name
        if entry.name.startswith("."):
            out.hidden.append(str(path))
            continue
        st, reason = _examine(path)
        if st is None:
            out.skipped.append((str(path), reason))
        elif stat.S_ISDIR(st.st_mode):
            key = (st.st_dev, st.st_ino)
            if key in inside:
                out.skipped.append((str(path), f"symlink loop: leads back to a folder above it ({path.resolve()})"))
            else:
                _walk_folder(path, root, out, (*inside, key))
        elif stat.S_ISREG(st.st_mode):
            out.files.append((path, root))
        else:
            out.skipped.append((str(path), _not_regular(st.st_mode)))


def walk(paths: list[Path], root: Path | None = None) -> Walk:
    """The files under ``paths`` (folders recursively) with their roots, and every path left aside with its reason.

    ``root``: the root of every id (already checked to hold every path); None gives each path its default root.
    """
    out = Walk()
    for given in paths:
        base = root if root is not None else default_root(given)
        st, reason = _examine(given)
        if st is None:
            out.skipped.append((str(given), reason))
        elif stat.S_ISDIR(st.st_mode):
            _walk_folder(given, base, out, ((st.st_dev, st.st_ino),))
        elif stat.S_ISREG(st.st_mode):
            out.files.append((given, base))
        else:
            out.skipped.append((str(given), _not_regular(st.st_mode)))
    return out

