"""Run small pieces of model-written Python in a separate, limited process.

What the sandbox does:

* The code runs in a child process (``sys.executable -I -S -B``: isolated mode, no
  site-packages, no environment variables honoured), with a fresh temporary
  directory as its working directory and a minimal environment.
* Kernel limits (``setrlimit``): CPU seconds, address space (memory), size of any
  file written, open files, no core dumps; the hook also caps how many files are
  written, so the temporary directory stays small. The parent also enforces a wall-time limit
  and kills the process group when it is exceeded.
* Before the code runs, a bootstrap installs an audit hook (PEP 578) that refuses:
  sockets and other network clients, subprocesses / ``os.system`` / ``os.exec*`` /
  ``fork``, ``ctypes`` and loading native extensions from outside the standard
  library, ``open()`` and other path operations outside the temporary directory
  (the standard library stays readable, so imports work), links, ``chdir``, raising
  resource limits, and the ``gc`` object walkers.
* When the kernel allows it, the child also moves into new user and network
  namespaces (``unshare``), so it has no network interface beyond a loopback that is
  down, even if the hook were bypassed.
* Output is capped, and the temporary path is replaced by ``<sandbox>`` in
  everything returned.

What it does not guarantee: CPython's audit hooks are not a security boundary on
their own; a determined attacker with an interpreter bug could get past them. Where
user namespaces are unavailable, the network block rests on the hook alone. The
sandbox is meant for arithmetic and small calculations written by a model, not for
hostile code; run the whole service in a container for that.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

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
    # Namespaces the child entered: "userns+netns", "netns" or "none" (audit hook only).
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


# The bootstrap runs in the child before any user code. Everything it needs is bound
# as default arguments of the hook (immutable or C functions), so user code cannot
# redirect the checks by patching modules.
_BOOTSTRAP = r'''
import sys, os, resource, signal, ast, traceback, linecache

def _setup():
    root, cpu, mem, fsize = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    isolation = "none"
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(0x10000000 | 0x40000000) == 0:  # CLONE_NEWUSER | CLONE_NEWNET
            isolation = "userns+netns"
        elif libc.unshare(0x40000000) == 0:
            isolation = "netns"
    except Exception:
        pass
    with open(sys.argv[5], "w") as fh:
        fh.write(isolation)
    for name in [m for m in sys.modules if m == "ctypes" or m.startswith(("ctypes.", "_ctypes"))]:
        del sys.modules[name]
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    # Writes past the file limit fail with an error instead of killing the process.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    src = sys.stdin.read()
    sys.stdin.close()
    sys.dont_write_bytecode = True
    ro = tuple(os.path.realpath(p) for p in sys.path if p and os.path.isdir(p))
    sys.stdout.reconfigure(encoding="utf-8", errors="backslashreplace")
    sys.stderr.reconfigure(encoding="utf-8", errors="backslashreplace")

    def hook(event, args, _root=root, _ro=ro, _isinstance=isinstance, _str=str, _bytes=bytes, _int=int,
             _tuple=tuple, _PE=PermissionError, _W=os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND,
             _writes=[0], _max_writes=int(sys.argv[6])):
        def norm(p):
            if _isinstance(p, _bytes):
                p = p.decode("utf-8", "surrogateescape")
            if not _isinstance(p, _str):
                raise _PE("sandbox: file paths must be plain strings")
            if "\x00" in p:
                raise _PE("sandbox: invalid path")
            if not p.startswith("/"):
                p = _root + "/" + p  # cwd is fixed (chdir is refused)
            out = []
            for part in p.split("/"):
                if part in ("", "."):
                    continue
                if part == "..":
                    if out:
                        out.pop()
                    continue
                out.append(part)
            return "/" + "/".join(out)

        def inside(p, roots):
            for r in roots:
                if p == r or p.startswith(r + "/"):
                    return True
            return False

        def deny(what):
            raise _PE(what + " is not allowed in the sandbox")

        if event == "open":
            path, mode, flags = args[0], args[1], args[2]
            if path is None or _isinstance(path, _int):
                return
            p = norm(path)
            write = (_isinstance(mode, _str) and any(c in mode for c in "wax+")) or (
                mode is None and _isinstance(flags, _int) and flags & _W)
            if inside(p, (_root,)):
                if write:
                    # Each file is capped by RLIMIT_FSIZE; this caps how many, so the disk cannot fill.
                    _writes[0] += 1
                    if _writes[0] > _max_writes:
                        deny("writing more than " + _str(_max_writes) + " files")
                return
            if not write and inside(p, _ro):
                return
            shown = path if _isinstance(path, _str) else "path"
            deny("access to files outside the working directory (" + shown + ")")
        if event == "import":
            name, filename = args[0], args[1]
            if name in ("ctypes", "_ctypes", "_posixsubprocess") or _str(name).startswith("ctypes."):
                deny("importing " + _str(name))
            if filename is not None and not inside(norm(filename), _ro):
                deny("loading native code")
            return
        if event.startswith(("socket.", "urllib.", "ftplib.", "smtplib.", "poplib.", "imaplib.", "nntplib.",
                             "telnetlib.", "http.", "webbrowser.")):
            deny("network access")
        if event.startswith(("subprocess.", "os.exec", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn",
                             "os.system", "os.startfile", "pty.", "_posixsubprocess")):
            deny("starting processes")
        if event.startswith(("ctypes.", "cpython._PySys_ClearAuditHooks", "sys.remote_exec")):
            deny("native code (ctypes)")
        if event in ("os.kill", "os.killpg", "signal.pthread_kill", "resource.setrlimit", "resource.prlimit",
                     "os.chdir", "os.symlink", "os.link", "os.mknod", "os.mkfifo", "sqlite3.connect",
                     "sqlite3.enable_load_extension", "sqlite3.load_extension", "gc.get_objects",
                     "gc.get_referrers", "gc.get_referents", "sys.setprofile", "sys.settrace", "mmap.__new__"):
            deny(event)
        if event == "object.__setattr__" and args[1] in ("__code__", "__defaults__", "__kwdefaults__"):
            deny("changing code objects")
        if event in ("os.listdir", "os.scandir", "os.getxattr", "os.listxattr"):
            p = args[0]
            if p is None or _isinstance(p, _int):
                return
            p = norm(p)
            if not inside(p, (_root,) + _ro):
                deny("listing directories outside the working directory")
            return
        if event == "os.mkdir":
            _writes[0] += 1
            if _writes[0] > _max_writes:
                deny("writing more than " + _str(_max_writes) + " files")
        if event in ("os.remove", "os.rmdir", "os.mkdir", "os.rename", "os.truncate", "os.utime", "os.chmod",
                     "os.chown", "os.chflags", "os.setxattr", "os.removexattr", "shutil.copyfile",
                     "shutil.copymode", "shutil.copystat", "shutil.copytree", "shutil.rmtree", "shutil.move",
                     "shutil.chown", "shutil.make_archive", "shutil.unpack_archive"):
            for a in args:
                if _isinstance(a, (_str, _bytes)) and not inside(norm(a), (_root,)):
                    deny("changing files outside the working directory")
            return

    sys.addaudithook(hook)
    return src, mem


def _main():
    src, mem = _setup()
    g = {"__name__": "__main__", "__builtins__": __builtins__}
    linecache.cache["<code>"] = (len(src), None, src.splitlines(True), "<code>")
    try:
        tree = ast.parse(src, "<code>", "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, "<code>", "exec"), g)
        if last is not None:
            value = eval(compile(last, "<code>", "eval"), g)
            if value is not None:
                print(repr(value))
    except SystemExit:
        raise
    except MemoryError:
        g.clear()
        sys.stdout.flush()
        sys.stderr.write("MemoryError: the code needed more than %d MB of memory\n" % (mem // 1048576))
        sys.exit(3)
    except BaseException as exc:
        g.clear()
        # Only the model's own lines: the hook and library internals are noise to it.
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<code>"]
        sys.stdout.flush()
        lines = []
        if frames:
            lines.append("Traceback (most recent call last):\n")
            lines.extend(traceback.format_list(frames))
        lines.extend(traceback.format_exception_only(type(exc), exc))
        sys.stderr.write("".join(lines))
        sys.exit(1)

_main()
'''


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


def run_code(code: str, limits: SandboxLimits | None = None) -> SandboxResult:
    """Run ``code`` in a fresh sandbox process and return its (scrubbed) output.

    A trailing expression is printed like in an interactive session.
    """
    limits = limits or SandboxLimits()
    if len(code) > limits.max_code_chars:
        too_long = f"Error: the code is too long (at most {limits.max_code_chars} characters)."
        return SandboxResult(ok=False, error=too_long)
    outer = tempfile.mkdtemp(prefix="hopgraph-sbx-")
    outer_real = os.path.realpath(outer)
    work = os.path.join(outer_real, "work")
    os.mkdir(work, 0o700)
    out_path = os.path.join(outer_real, "stdout")
    err_path = os.path.join(outer_real, "stderr")
    status_path = os.path.join(outer_real, "status")
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": work, "TMPDIR": work}
    argv = [
        sys.executable, "-I", "-S", "-B", "-c", _BOOTSTRAP, work,
        str(limits.cpu_s), str(limits.memory_mb * 1024 * 1024), str(limits.file_bytes), status_path,
        str(limits.max_files),
    ]
    start = time.monotonic()
    timed_out = False
    try:
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=out, stderr=err, cwd=work, env=env,
                close_fds=True, start_new_session=True,
            )
            try:
                proc.communicate(code.encode("utf-8", errors="surrogateescape"), timeout=limits.wall_s)
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill_group(proc)
                proc.wait()
        elapsed = time.monotonic() - start
        stdout, truncated = _read_capped(out_path, limits.output_chars)
        stderr, err_truncated = _read_capped(err_path, limits.output_chars)
        isolation, _ = _read_capped(status_path, 40)
    finally:
        shutil.rmtree(outer, ignore_errors=True)
    scrub = [work, outer, outer_real]
    stdout = _scrub(stdout, scrub)
    stderr = _scrub(stderr, scrub).strip()
    rc = proc.returncode
    result = SandboxResult(ok=False, stdout=stdout, truncated=truncated or err_truncated, returncode=rc,
                           elapsed_s=round(elapsed, 3), isolation=isolation.strip() or "unknown")
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
    elif "File too large" in stderr or (rc != 0 and truncated):
        result.limit = "output"
        result.error = f"Error: the code wrote more than {limits.file_bytes} bytes of output and was stopped."
    elif rc != 0:
        result.error = stderr or f"Error: the code exited with status {rc}."
    else:
        result.ok = True
        result.error = stderr  # warnings, if any
    return result


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
