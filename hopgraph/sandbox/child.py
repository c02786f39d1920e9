"""The sandbox's child process: limits, the audit hook, then the model's code.

This file is not imported by hopgraph. Its text is run as ``python -I -S -B -c <text> ARGS`` in the child
(standard library only), where it sets the kernel limits, optionally drops to an unprivileged uid, installs an
audit hook (PEP 578) and runs the code read from standard input. The hook is the second layer: the first is
the namespace sandbox around the process (``hopgraph.sandbox.isolation``); where that is missing, the hook is
all there is.

The hook trusts nothing it is handed. It accepts a path only when its type is exactly ``str`` or ``bytes``
(never a subclass, never an ``os.PathLike``, whose ``__fspath__`` may answer differently to ``open`` than to the
hook), it never calls a method of an argument that could be overridden, and every name it uses is bound when
it is defined, so code that patches ``builtins`` or modules cannot change what it checks. The process ends
with ``os._exit``: interpreter finalization, which clears audit hooks before it runs ``__del__`` methods, never
happens.
"""

import ast
import io
import itertools
import linecache
import os
import posix
import resource
import signal
import stat
import sys
import traceback

# Extension modules the code may not load, under any name (the init function comes from the file name).
NATIVE_DENIED = ("_ctypes", "ctypes", "_posixsubprocess", "_xxsubinterpreters", "_xxinterpchannels", "_test",
                 "xxsubtype", "xxlimited", "_ctypes_test")
# Audit events refused outright.
EVENTS_DENIED = frozenset((
    "os.kill", "os.killpg", "signal.pthread_kill", "resource.setrlimit", "resource.prlimit", "os.chdir",
    "os.symlink", "os.link", "os.mknod", "os.mkfifo", "sqlite3.connect", "sqlite3.connect/handle",
    "sqlite3.enable_load_extension", "sqlite3.load_extension", "gc.get_objects", "gc.get_referrers",
    "gc.get_referents", "sys.setprofile", "sys.settrace", "mmap.__new__", "code.__new__",
    "cpython.PyInterpreterState_New", "cpython._PySys_ClearAuditHooks", "sys.remote_exec", "os.setns",
    "os.unshare",
))
PREFIXES_DENIED = (
    ("network access", ("socket.", "urllib.", "ftplib.", "smtplib.", "poplib.", "imaplib.", "nntplib.",
                        "telnetlib.", "http.", "webbrowser.")),
    ("starting processes", ("subprocess.", "os.exec", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn",
                            "os.system", "os.startfile", "pty.", "_posixsubprocess")),
    ("native code (ctypes)", ("ctypes.",)),
)
# Events that change files: (positions of path arguments, positions of dir_fd arguments).
CHANGES = {
    "os.remove": ((0,), (1,)), "os.rmdir": ((0,), (1,)), "os.mkdir": ((0,), (2,)), "os.rename": ((0, 1), (2, 3)),
    "os.truncate": ((0,), ()), "os.utime": ((0,), (3,)), "os.chmod": ((0,), (2,)), "os.chown": ((0,), (3,)),
    "os.chflags": ((0,), ()), "os.setxattr": ((0,), ()), "os.removexattr": ((0,), ()),
}
LISTINGS = ("os.listdir", "os.scandir", "os.getxattr", "os.listxattr")


def make_hook(root, readable, hidden, max_files):
    """The audit hook: ``root`` is writable, ``readable`` may be read except ``hidden`` (all absolute and
    normalized)."""
    PE = PermissionError
    written = itertools.count(1)  # can only go up, even for code that reaches the hook's frame

    def norm(p, _type=type, _str=str, _bytes=bytes, _decode=bytes.decode, _startswith=str.startswith,
             _split=str.split, _join=str.join, _root=root, _PE=PE):
        t = _type(p)
        if t is _bytes:
            p = _decode(p, "utf-8", "surrogateescape")
        elif t is not _str:
            # Not even os.fspath: a PathLike answers the hook and open() separately.
            raise _PE("file paths must be plain strings in the sandbox (use str(path))")
        if "\x00" in p:
            raise _PE("invalid path in the sandbox")
        if not _startswith(p, "/"):
            p = _root + "/" + p  # the working directory is fixed: chdir is refused
        out: list[str] = []
        for part in _split(p, "/"):
            if part == "" or part == ".":
                continue
            if part == "..":
                if out:
                    out.pop()
                continue
            out.append(part)
        return "/" + _join("/", out)

    def inside(p, roots, _startswith=str.startswith):
        for r in roots:  # noqa: SIM110 - any() would be looked up in builtins, which the code can replace
            if p == r or _startswith(p, r + "/"):
                return True
        return False

    def deny(what, _PE=PE):
        raise _PE(what + " is not allowed in the sandbox")

    def hook(event, args, _type=type, _str=str, _int=int, _len=len, _norm=norm, _inside=inside, _deny=deny,
             _root=(root,), _readable=readable, _both=(root,) + readable, _W=os.O_WRONLY | os.O_RDWR | os.O_CREAT
             | os.O_TRUNC | os.O_APPEND, _written=written, _next=next, _max=max_files,
             _stat=posix.stat, _isdir=stat.S_ISDIR, _startswith=str.startswith, _rpartition=str.rpartition,
             _events=EVENTS_DENIED, _prefixes=PREFIXES_DENIED, _native=NATIVE_DENIED, _changes=CHANGES,
             _listings=LISTINGS, _code_attrs=("__code__", "__defaults__", "__kwdefaults__"),
             _hidden=hidden):
        # `event` is always an exact str made by the interpreter; `args` is a tuple.
        if event == "open":
            path, mode, flags = args[0], args[1], args[2]
            if _type(path) is _int:
                return  # an already open descriptor
            p = _norm(path)
            write = _type(flags) is _int and flags & _W
            if _type(mode) is _str:
                for c in "wax+":
                    if c in mode:
                        write = True
            elif mode is not None:
                _deny("an unusual open mode")
            if _inside(p, _root):
                if write and _next(_written) > _max:
                    _deny("writing more than " + _str(_max) + " files")
                return
            if write or not _inside(p, _readable) or _inside(p, _hidden):
                _deny("access to files outside the working directory")
            try:
                is_dir = _isdir(_stat(p).st_mode)
            except OSError:
                return
            if is_dir:
                # A directory descriptor would anchor dir_fd lookups the hook cannot see.
                _deny("opening directories outside the working directory")
            return
        if event == "import":
            name, filename = args[0], args[1]
            if _type(name) is not _str or (filename is not None and _type(filename) is not _str):
                _deny("importing by an unusual name")
            base = _rpartition(name, ".")[2]
            if filename is not None:
                f = _norm(filename)
                if not _inside(f, _readable) or _inside(f, _hidden):
                    _deny("loading native code")
                base = _rpartition(_rpartition(filename, "/")[2], ".")[0]
            for denied in _native:
                if base == denied or _startswith(base, denied + ".") or (denied == "_test" and
                                                                         _startswith(base, denied)):
                    _deny("importing " + base)
            return
        if event in _events:
            _deny(event)
        for what, prefixes in _prefixes:
            if _startswith(event, prefixes):
                _deny(what)
        if event == "object.__setattr__" and _type(args[1]) is _str and args[1] in _code_attrs:
            _deny("changing code objects")
        if event in _listings:
            p = args[0]
            if p is None or _type(p) is _int:
                return
            p = _norm(p)
            if not _inside(p, _both) or _inside(p, _hidden):
                _deny("listing directories outside the working directory")
            return
        if event in _changes:
            paths, dir_fds = _changes[event]
            for i in dir_fds:
                if i < _len(args) and args[i] is not None:
                    _deny("changing files relative to a directory descriptor")
            for i in paths:
                if not _inside(_norm(args[i]), _root):
                    _deny("changing files outside the working directory")
            if event == "os.mkdir" and _next(_written) > _max:
                _deny("writing more than " + _str(_max) + " files")
            return
        if _startswith(event, "shutil."):
            for a in args:
                if a is not None and not _inside(_norm(a), _root):
                    _deny("changing files outside the working directory")

    return hook


def _unshare():
    """Namespaces through ctypes, used only where no sandbox isolates the process (the hook's network block
    then has the kernel behind it where user namespaces are allowed)."""
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
    for name in [m for m in sys.modules if m == "ctypes" or m.startswith(("ctypes.", "_ctypes"))]:
        del sys.modules[name]
    return isolation


def setup(argv):
    root, cpu, mem, fsize, max_files, uid, status = argv[1:8]
    cpu, mem, fsize, max_files, uid = int(cpu), int(mem), int(fsize), int(max_files), int(uid)
    if status != "-":
        with open(status, "w") as fh:
            fh.write(_unshare())
    if uid >= 0:
        # Started as root inside a sandbox that left us CAP_SETUID/CAP_SETGID for this step only.
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        if os.getresuid() != (uid, uid, uid) or os.getgroups():
            raise SystemExit(f"sandbox: could not drop to uid {uid}")
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
    readable = tuple(os.path.realpath(p) for p in sys.path if p and os.path.isdir(p))
    # Installed packages are not the standard library (where they sit inside it, as in some images).
    hidden = tuple(os.path.join(p, name) for p in readable for name in ("site-packages", "dist-packages"))
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
    sys.addaudithook(make_hook(root, readable, hidden, max_files))
    return src, mem


def run(src, mem):
    """Run the code; a trailing expression is printed like in an interactive session. Returns the exit code."""
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
        return 0
    except SystemExit as exc:
        code = exc.code
        if code is None or isinstance(code, int):
            return int(code or 0)
        print(code, file=sys.stderr)
        return 1
    except MemoryError:
        g.clear()
        sys.stdout.flush()
        sys.stderr.write(f"MemoryError: the code needed more than {mem // 1048576} MB of memory\n")
        return 3
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
        return 1


def main(_exit=os._exit):
    # _exit is bound now: the code can reach this module's globals (sys.modules["__main__"]) and replace `os`.
    rc = 1
    try:
        src, mem = setup(sys.argv)
        rc = run(src, mem)
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        rc = rc or 1
        traceback.print_exc()  # if even this fails, `finally` still ends the process
    finally:
        _exit(rc)


if __name__ == "__main__":
    main()
