"""Where the sandbox's child runs: a bubblewrap sandbox that holds only the Python runtime, and a seccomp filter.

The child gets a new root (an empty, read-only tmpfs) in private mount, pid, network, ipc and uts
namespaces. Into it go, read-only: the interpreter, the standard library (its ``site-packages`` covered by an
empty mount), the shared libraries the interpreter and the standard library's extension modules link to (as
``ldd`` resolves them), the loader's cache and the time zone data; plus one size-capped tmpfs as the working
directory. There is no ``/proc``, no ``/dev``, no home, no server file and no network interface but a loopback
that is down. The environment is cleared.

The uid is unprivileged: a server running as root starts bubblewrap without a user namespace and the child
drops to uid 65534 before it reads the code (bubblewrap leaves it CAP_SETUID and CAP_SETGID for that step,
and no capability after it); any other user runs bubblewrap with a user namespace, uid 65534 inside. A seccomp
filter (libseccomp, through pyseccomp) refuses the system calls that would start a process, make namespaces
or mounts, open a non-Unix socket, trace or read another process, or reach rarely needed kernel interfaces.

Which of these a process gets is measured once, by running a probe in the sandbox (``hopgraph.sandbox.runner``).
"""

from __future__ import annotations

import errno
import functools
import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass

SANDBOX_UID = 65534

# System calls the seccomp filter refuses with EPERM (names unknown on this architecture are left out).
DENIED_SYSCALLS = (
    "fork", "vfork", "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp", "unshare",
    "setns", "mount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig", "fsmount", "fspick",
    "move_mount", "open_tree", "mount_setattr", "keyctl", "add_key", "request_key", "bpf", "perf_event_open",
    "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register", "kexec_load", "kexec_file_load",
    "init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff", "acct", "quotactl",
    "quotactl_fd", "syslog", "name_to_handle_at", "open_by_handle_at", "iopl", "ioperm", "uselib",
    "lookup_dcookie", "vhangup", "sethostname", "setdomainname", "settimeofday", "clock_settime",
    "clock_adjtime", "adjtimex", "move_pages", "migrate_pages", "fanotify_init", "personality",
)
CLONE_THREAD = 0x00010000
CLONE_NAMESPACES = (0x00000080, 0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000,
                    0x40000000)
AF_UNIX = 1
TIOCSTI, TIOCLINUX = 0x5412, 0x541C


@dataclass(frozen=True)
class Runtime:
    """The files the child needs, as (host path, path inside the sandbox)."""

    python: str
    binds: tuple[tuple[str, str], ...]
    masks: tuple[str, ...]  # paths inside covered by an empty read-only tmpfs


@dataclass(frozen=True)
class Isolation:
    """How this process runs the sandbox's child."""

    name: str  # "bwrap", "bwrap-userns" (each "+seccomp" when filtered), or "hook"
    summary: str  # one line for the log
    bwrap: str | None = None
    runtime: Runtime | None = None
    seccomp: bytes | None = None

    @property
    def isolated(self) -> bool:
        return self.bwrap is not None

    @property
    def drops_uid(self) -> bool:
        # Without a user namespace bubblewrap runs the child as root; the child drops to SANDBOX_UID.
        return self.isolated and not self.name.startswith("bwrap-userns")


_LDD_PATH = re.compile(r"(?:=>\s*|^\s*)(/\S+)\s+\(0x", re.M)


def _base_python() -> str:
    # The installation's own interpreter (not a virtualenv's): its prefix is where the standard library is.
    for candidate in (getattr(sys, "_base_executable", None), sys.executable):
        if candidate and os.path.exists(candidate):
            return os.path.realpath(candidate)
    raise RuntimeError("cannot find the Python interpreter")


def python_runtime() -> Runtime:
    """The interpreter, standard library and shared libraries the child needs; raises RuntimeError if unknown."""
    ldd = shutil.which("ldd")
    if ldd is None:
        raise RuntimeError("ldd is not installed (it lists the libraries the interpreter needs)")
    python = _base_python()
    stdlib = sorted({os.path.realpath(sysconfig.get_path(k)) for k in ("stdlib", "platstdlib")})
    dynload = [os.path.join(d, "lib-dynload") for d in stdlib if os.path.isdir(os.path.join(d, "lib-dynload"))]
    native = [python] + sorted(p for d in dynload for p in glob.glob(os.path.join(d, "*.so")))
    listed = subprocess.run([ldd, *native], capture_output=True, text=True, timeout=60,
                            env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"}).stdout
    binds: dict[str, str] = {python: python}
    for d in stdlib:
        binds[d] = d
    libraries = sorted(set(_LDD_PATH.findall(listed)))
    libc = next((p for p in libraries if os.path.basename(p) == "libc.so.6"), None)
    if libc is not None:
        # glibc loads it on demand when a thread exits early.
        gcc_s = os.path.join(os.path.dirname(libc), "libgcc_s.so.1")
        if os.path.exists(gcc_s):
            libraries.append(gcc_s)
    for path in libraries:
        if os.path.exists(path):
            binds[path] = os.path.realpath(path)
    for extra in ("/etc/ld.so.cache", "/usr/share/zoneinfo"):
        if os.path.exists(extra):
            binds[extra] = os.path.realpath(extra)
    masks = tuple(os.path.join(d, name) for d in stdlib for name in ("site-packages", "dist-packages")
                  if os.path.isdir(os.path.join(d, name)))
    return Runtime(python, tuple((src, dest) for dest, src in sorted(binds.items())), masks)


def seccomp_program() -> bytes | None:
    """The compiled filter (BPF), or None where libseccomp or its binding is missing."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError, RuntimeError):
        return None
    deny = seccomp.ERRNO(errno.EPERM)
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in DENIED_SYSCALLS:
        try:
            rules.add_rule(deny, name)
        except (RuntimeError, ValueError, OSError):
            continue  # not a system call on this architecture
    # clone: threads only, and never into new namespaces. clone3 hides its flags in memory: glibc falls
    # back to clone when it is missing.
    rules.add_rule(deny, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
    for flag in CLONE_NAMESPACES:
        rules.add_rule(deny, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    rules.add_rule(deny, "socket", seccomp.Arg(0, seccomp.NE, AF_UNIX))
    for request in (TIOCSTI, TIOCLINUX):
        rules.add_rule(deny, "ioctl", seccomp.Arg(1, seccomp.MASKED_EQ, 0xFFFFFFFF, request))
    with tempfile.TemporaryFile() as fh:
        rules.export_bpf(fh)
        fh.seek(0)
        return fh.read()


def candidates() -> tuple[list[Isolation], str]:
    """Bubblewrap setups to try, best first, and why there are none when the list is empty."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return [], "bubblewrap (bwrap) is not installed"
    try:
        runtime = python_runtime()
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        return [], f"the Python runtime's files could not be listed ({exc})"
    program = seccomp_program()
    suffix = "+seccomp" if program else ""
    filtered = "; seccomp filter" if program else "; no seccomp filter (libseccomp or pyseccomp missing)"
    spaces = "private mount, pid, network, ipc and uts namespaces"
    found = []
    if os.geteuid() == 0:
        found.append(Isolation("bwrap" + suffix, f"bubblewrap: {spaces}; uid {SANDBOX_UID}{filtered}",
                               bwrap, runtime, program))
    found.append(Isolation("bwrap-userns" + suffix, f"bubblewrap: {spaces} in a user namespace (uid "
                           f"{SANDBOX_UID} inside, uid {os.geteuid()} outside){filtered}", bwrap, runtime, program))
    return found, ""


def _parents(paths: list[str]) -> list[str]:
    out: set[str] = set()
    for path in paths:
        parent = os.path.dirname(path)
        while parent not in ("/", ""):
            out.add(parent)
            parent = os.path.dirname(parent)
    return sorted(out, key=lambda p: (p.count("/"), p))


def bwrap_argv(isolation: Isolation, work: str, work_bytes: int, seccomp_fd: int | None,
               env: dict[str, str]) -> list[str]:
    """bubblewrap's command line up to (and including) the interpreter; the child's arguments follow."""
    runtime = isolation.runtime
    assert isolation.bwrap is not None and runtime is not None
    argv = [isolation.bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--clearenv"]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    if isolation.drops_uid:
        argv += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        argv += ["--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    # Parents made explicitly: made on the way by bubblewrap, they can end up closed to the sandbox's uid.
    for parent in _parents([dest for _, dest in runtime.binds] + [work]):
        argv += ["--perms", "0755", "--dir", parent]
    for src, dest in runtime.binds:
        argv += ["--ro-bind", src, dest]
    for mask in runtime.masks:
        argv += ["--tmpfs", mask, "--remount-ro", mask]
    argv += ["--perms", "1777", "--size", str(work_bytes), "--tmpfs", work, "--chdir", work, "--remount-ro", "/"]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    return [*argv, "--", runtime.python]


def hook_only(reason: str) -> Isolation:
    return Isolation("hook", f"audit hook only, no isolation ({reason})")


@functools.cache
def child_source() -> str:
    with open(os.path.join(os.path.dirname(__file__), "child.py"), encoding="utf-8") as fh:
        return fh.read()
