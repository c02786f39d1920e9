"""Run small pieces of model-written Python in a separate, limited process, and say how it is isolated.

* The code runs in a child process (``python -I -S -B``: isolated mode, no site-packages, no environment
  variables honoured) with a fresh working directory and a minimal environment.
* Where bubblewrap works, the child runs in a sandbox that holds only the Python runtime and its working
  directory, as an unprivileged uid, with no network and a seccomp filter (``hopgraph.sandbox.isolation``).
  Elsewhere it runs on the host, and only the audit hook (below) and the kernel limits stand between the
  code and the server's files; ``current_isolation()`` says which, and the first use says it in the log.
* Kernel limits (``setrlimit``): CPU seconds, address space (memory), size of any file written, open files,
  no core dumps; the working directory has a size cap too. The parent enforces a wall-time limit and kills
  the process group when it is exceeded.
* Before the code runs, the child installs an audit hook (``hopgraph.sandbox.child``) that refuses sockets,
  processes, ctypes and native code outside the standard library, file access outside the working directory
  (the standard library stays readable), links, ``chdir``, raising limits, object walkers and new
  interpreters.
* Output is capped, and the working directory's path is replaced by ``<sandbox>`` in everything returned.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

from hopgraph.sandbox.isolation import SANDBOX_UID, Isolation, bwrap_argv, candidates, child_source, hook_only

log = logging.getLogger("hopgraph.sandbox")

PLACEHOLDER = "<sandbox>"


@dataclass(frozen=True)
class SandboxLimits:
    wall_s: float = 5.0
    cpu_s: int = 3
    memory_mb: int = 256
    # Cap on any file the code writes, including its stdout/stderr capture files.
    file_bytes: int = 1_000_000
    # Files (and directories) the code may write in its working directory.
    max_files: int = 32
    # Characters of output handed back (stdout and error each).
    output_chars: int = 4000
    max_code_chars: int = 20_000


@dataclass
class SandboxResult:
    ok: bool
    stdout: str = ""
    # A short, user-facing error (trimmed traceback or the limit that was hit), else "".
    error: str = ""
    limit: str | None = None  # "wall", "cpu", "memory", "output" when a limit stopped the code
    truncated: bool = False
    returncode: int | None = None
    elapsed_s: float = 0.0
    # How the child was isolated: "bwrap", "bwrap-userns" (either "+seccomp" when filtered); where no sandbox
    # works, the namespaces the child entered itself: "userns+netns", "netns" or "none" (audit hook only).
    isolation: str = "unknown"

    def text(self) -> str:
        """One block for a tool message: output first, then the error if any."""
        parts = []
        if self.stdout:
            parts.append(self.stdout.rstrip("\n"))
        if self.truncated:
            parts.append("[output truncated]")
        if self.error:
            parts.append(self.error.rstrip("\n"))
        if not parts:
            parts.append("(no output; print() the values you need)")
        return "\n".join(parts)


def _read_capped(path: str, limit: int) -> tuple[str, bool]:
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit * 4 + 4)
            more = bool(fh.read(1))
    except OSError:
        return "", False
    text = data.decode("utf-8", errors="replace")
    if len(text) > limit:
        return text[:limit], True
    return text, more


def _scrub(text: str, paths: list[str]) -> str:
    for p in sorted(set(paths), key=len, reverse=True):
        if p:
            text = text.replace(p, PLACEHOLDER)
    return text


_MEMORY_RE = re.compile(r"MemoryError")


def run_code(code: str, limits: SandboxLimits | None = None, *, isolation: Isolation | None = None) -> SandboxResult:
    """Run ``code`` in a fresh sandbox process and return its (scrubbed) output.

    A trailing expression is printed like in an interactive session. ``isolation``: this process's own
    (``current_isolation()``) unless given; measurements and tests pass ``hook_only(...)`` to run the audit
    hook alone.
    """
    limits = limits or SandboxLimits()
    if len(code) > limits.max_code_chars:
        too_long = f"Error: the code is too long (at most {limits.max_code_chars} characters)."
        return SandboxResult(ok=False, error=too_long)
    return _run(code, limits, isolation or current_isolation())


_lock = threading.Lock()
_chosen: Isolation | None = None
# A probe: the sandbox's uid, and that neither this package's files nor any /proc can be seen from inside.
_PROBE = "import os\nprint(os.getuid(), os.path.exists({here!r}), os.path.exists('/proc/self'))"


def current_isolation() -> Isolation:
    """How this process isolates run_python's code: measured on first use (one probe run), then kept.

    The first call says it once in the log: INFO when the code runs in a sandbox, WARNING when only the audit
    hook guards it.
    """
    global _chosen
    with _lock:
        if _chosen is None:
            _chosen = _choose()
            if _chosen.isolated:
                log.info("run_python sandbox: %s", _chosen.summary)
            else:
                log.warning("run_python sandbox: %s", _chosen.summary)
        return _chosen


def _choose() -> Isolation:
    found, reason = candidates()
    here = os.path.dirname(os.path.abspath(__file__))
    expected = f"{SANDBOX_UID} False False"
    for candidate in found:
        result = _run(_PROBE.format(here=here), SandboxLimits(wall_s=20.0, cpu_s=10), candidate)
        if result.ok and result.stdout.strip() == expected:
            return candidate
        detail = (result.error or result.stdout).strip().splitlines()
        reason = f"{candidate.name} failed: {detail[-1] if detail else f'exit status {result.returncode}'}"
    return hook_only(reason)


def _run(code: str, limits: SandboxLimits, isolation: Isolation) -> SandboxResult:
    outer = tempfile.mkdtemp(prefix="hopgraph-sbx-")
    outer_real = os.path.realpath(outer)
    work = os.path.join(outer_real, "work")
    out_path = os.path.join(outer_real, "stdout")
    err_path = os.path.join(outer_real, "stderr")
    status_path = os.path.join(outer_real, "status")
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": work, "TMPDIR": work}
    child = ["-I", "-S", "-B", "-c", child_source(), work, str(limits.cpu_s), str(limits.memory_mb * 1024 * 1024),
             str(limits.file_bytes), str(limits.max_files)]
    seccomp_fd: int | None = None
    if isolation.isolated:
        # The working directory is a tmpfs inside the sandbox: nothing is written on the host but the output.
        if isolation.seccomp is not None:
            seccomp_fd, writer = os.pipe()
            with os.fdopen(writer, "wb") as fh:
                fh.write(isolation.seccomp)
        size = max(limits.file_bytes * limits.max_files, 1 << 20)
        argv = [*bwrap_argv(isolation, work, size, seccomp_fd, env), *child,
                str(SANDBOX_UID if isolation.drops_uid else -1), "-"]
        cwd = outer_real
    else:
        os.mkdir(work, 0o700)
        argv = [sys.executable, *child, "-1", status_path]
        cwd = work
    start = time.monotonic()
    timed_out = False
    try:
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=out, stderr=err, cwd=cwd, env=env,
                close_fds=True, pass_fds=() if seccomp_fd is None else (seccomp_fd,), start_new_session=True,
            )
            if seccomp_fd is not None:
                os.close(seccomp_fd)
                seccomp_fd = None
            try:
                proc.communicate(code.encode("utf-8", errors="surrogateescape"), timeout=limits.wall_s)
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill_group(proc)
                proc.wait()
        elapsed = time.monotonic() - start
        stdout, truncated = _read_capped(out_path, limits.output_chars)
        stderr, err_truncated = _read_capped(err_path, limits.output_chars)
        entered, _ = _read_capped(status_path, 40)
    finally:
        if seccomp_fd is not None:
            os.close(seccomp_fd)
        shutil.rmtree(outer, ignore_errors=True)
    scrub = [work, outer, outer_real]
    rc = proc.returncode
    if isolation.isolated and rc is not None and rc > 128:
        rc = -(rc - 128)  # bubblewrap reports a child killed by signal N as 128 + N
    result = SandboxResult(ok=False, stdout=_scrub(stdout, scrub), truncated=truncated or err_truncated,
                           returncode=rc, elapsed_s=round(elapsed, 3),
                           isolation=isolation.name if isolation.isolated else entered.strip() or "unknown")
    _classify(result, _scrub(stderr, scrub).strip(), limits, timed_out)
    return result


def _classify(result: SandboxResult, stderr: str, limits: SandboxLimits, timed_out: bool) -> None:
    rc = result.returncode
    if timed_out:
        result.limit = "wall"
        result.error = f"Error: the code ran longer than the {limits.wall_s:g} s time limit and was stopped."
    elif rc in (-signal.SIGXCPU, -signal.SIGKILL):
        result.limit = "cpu"
        result.error = f"Error: the code used more than {limits.cpu_s} s of CPU time and was stopped."
    elif rc is not None and rc < 0:
        result.error = f"Error: the code crashed (signal {-rc})."
    elif rc == 3 and _MEMORY_RE.search(stderr.splitlines()[-1] if stderr else ""):
        result.limit = "memory"
        result.error = f"Error: {stderr.splitlines()[-1]}."
    elif "File too large" in stderr or (rc != 0 and result.truncated):
        result.limit = "output"
        result.error = f"Error: the code wrote more than {limits.file_bytes} bytes of output and was stopped."
    elif rc != 0:
        result.error = stderr or f"Error: the code exited with status {rc}."
    else:
        result.ok = True
        result.error = stderr  # warnings, if any


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
