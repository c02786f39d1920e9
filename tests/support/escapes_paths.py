"""Escape techniques through paths: path types, links, /proc, descriptors, dir_fd and the file APIs.

Part of the corpus in ``tests.support.escapes`` (which explains the templates).
"""

from __future__ import annotations

# Shared preambles: where the standard library is (readable inside), and a harmless file in the working dir.
STDLIB = "import os, sys\nstdlib = [p for p in sys.path if os.path.isdir(p) and 'dynload' not in p][0]\n"
INSIDE = "open('inside.txt', 'w').write('harmless')\n"

CTYPES_ALIAS = STDLIB + """
import importlib.util as iu, importlib.machinery as im
dyn = [p for p in sys.path if p.endswith('lib-dynload')][0]
so = [os.path.join(dyn, f) for f in os.listdir(dyn) if f.startswith('_ctypes.')][0]
spec = iu.spec_from_file_location('x._ctypes', so, loader=im.ExtensionFileLoader('x._ctypes', so))
sys.modules['_ctypes'] = iu.module_from_spec(spec)
spec2 = iu.spec_from_file_location('y', os.path.join(stdlib, 'ctypes', '__init__.py'))
c = iu.module_from_spec(spec2)
spec2.loader.exec_module(c)
libc = c.CDLL(None)
"""

LISTENER_READ = "print(s.recv(4096))\n"

PATHS: dict[str, tuple[str, str]] = {
    "plain open": (
        "print(open($canary).read())",
        "open($target, 'w').write('pwned')\nopen($access, 'w').write('{}')",
    ),
    "str subclass, the reported reproduction": (
        """import os; root = os.getcwd()
class S(str):
    def startswith(self, *a, **k): return True
    def split(self, *a, **k): return (root + "/x").split("/")
print(open(S($access)).read())""",
        """import os; root = os.getcwd()
class S(str):
    def startswith(self, *a, **k): return True
    def split(self, *a, **k): return (root + "/x").split("/")
open(S($access), 'w').write('{"identities": []}')
open(S($target), 'w').write('pwned')""",
    ),
    "str subclass lying in every method": (
        """import os; root = os.getcwd()
class S(str):
    def __eq__(self, o): return True
    def __ne__(self, o): return False
    __hash__ = str.__hash__
    def __contains__(self, x): return False
    def startswith(self, *a, **k): return True
    def endswith(self, *a, **k): return True
    def split(self, *a, **k): return (root + '/x').split('/')
    def __str__(self): return root + '/x'
    def __fspath__(self): return root + '/x'
    def __add__(self, o): return root + '/x'
    def __radd__(self, o): return root + '/x'
    def decode(self, *a): return root + '/x'
    def encode(self, *a): return (root + '/x').encode()
print(open(S($canary)).read())
print(os.read(os.open(S($sqlite), os.O_RDONLY), 100000))""",
        """import os; root = os.getcwd()
class S(str):
    def __contains__(self, x): return False
    def startswith(self, *a, **k): return True
    def split(self, *a, **k): return (root + '/x').split('/')
os.close(os.open(S($target), os.O_WRONLY | os.O_CREAT))""",
    ),
    "str subclass as the open mode": (
        "class M(str):\n    def __contains__(self, x): return False\nprint(open($canary, M('r')).read())",
        STDLIB + "class M(str):\n    def __contains__(self, x): return False\n"
        "open(os.path.join(stdlib, $stdlib_name), M('w')).write('pwned')\nopen($target, M('w')).write('pwned')",
    ),
    "bytes subclass": (
        """import os; root = os.getcwd()
class B(bytes):
    def decode(self, *a, **k): return root + '/x'
    def startswith(self, *a, **k): return True
    def __contains__(self, x): return False
print(open(B($canary.encode())).read())""",
        """import os; root = os.getcwd()
class B(bytes):
    def decode(self, *a, **k): return root + '/x'
open(B($target.encode()), 'wb').write(b'pwned')""",
    ),
    "os.PathLike object": (
        "class P:\n    def __fspath__(self): return $canary\nprint(open(P()).read())",
        "class P:\n    def __fspath__(self): return $target\nopen(P(), 'w').write('pwned')",
    ),
    "__fspath__ that changes its answer": (
        """class P:
    calls = 0
    def __fspath__(self):
        P.calls += 1
        return 'inside.txt' if P.calls == 1 else $canary
open('inside.txt', 'w').write('harmless')
for _ in range(2):
    print(open(P()).read())""",
        """class P:
    calls = 0
    def __fspath__(self):
        P.calls += 1
        return 'inside.txt' if P.calls == 1 else $target
for _ in range(2):
    open(P(), 'w').write('pwned')""",
    ),
    "__fspath__ returning a str subclass": (
        """import os; root = os.getcwd()
class S(str):
    def startswith(self, *a, **k): return True
    def split(self, *a, **k): return (root + '/x').split('/')
class P(os.PathLike):
    def __fspath__(self): return S($canary)
print(open(P()).read())""",
        """import os; root = os.getcwd()
class S(str):
    def startswith(self, *a, **k): return True
    def split(self, *a, **k): return (root + '/x').split('/')
class P(os.PathLike):
    def __fspath__(self): return S($target)
open(P(), 'w').write('pwned')""",
    ),
    "pathlib": (
        "import pathlib\nprint(pathlib.Path($canary).read_text())\nprint(pathlib.Path($access).read_bytes())",
        "import pathlib\npathlib.Path($target).write_text('pwned')\npathlib.Path($access).write_text('{}')",
    ),
    "pathlib path whose cached string is swapped by a thread": (
        """import pathlib, threading, sys, time
sys.setswitchinterval(1e-6)
p = pathlib.Path('inside.txt'); open('inside.txt', 'w').write('harmless')
stop = []
def pause(): pass
def flip():
    while not stop:
        p._str = $canary
        pause()  # threads switch at calls: here the path points outside
        p._str = 'inside.txt'
        pause()
threading.Thread(target=flip, daemon=True).start()
start = time.monotonic()
while time.monotonic() - start < 1.5:
    try:
        data = open(p).read()
        if data != 'harmless':
            print(data); break
    except Exception as exc:
        last = exc
stop.append(1)""",
        """import pathlib, threading, sys, time
sys.setswitchinterval(1e-6)
p = pathlib.Path('inside.txt')
stop = []
def pause(): pass
def flip():
    while not stop:
        p._str = $target
        pause()
        p._str = 'inside.txt'
        pause()
threading.Thread(target=flip, daemon=True).start()
start = time.monotonic()
while time.monotonic() - start < 1.5:
    try:
        open(p, 'w').write('pwned')
    except Exception:
        pass
stop.append(1)""",
    ),
    "dot-dot from the working directory": (
        "print(open('../' * 30 + $canary.lstrip('/')).read())",
        "open('../' * 30 + $target.lstrip('/'), 'w').write('pwned')",
    ),
    "symlink to outside": (
        "import os\nos.symlink($canary, 'link')\nprint(open('link').read())",
        "import os\nos.symlink($outdir, 'dir')\nopen('dir/pwned', 'w').write('pwned')\n"
        "os.symlink($target, 'link2')\nopen('link2', 'w').write('pwned')",
    ),
    "hard link to outside": (
        "import os\nos.link($canary, 'hard')\nprint(open('hard').read())",
        INSIDE + "import os\nos.link('inside.txt', $target)",
    ),
    "/proc/self/root": (
        "print(open('/proc/self/root' + $canary).read())",
        "open('/proc/self/root' + $target, 'w').write('pwned')",
    ),
    "/proc/1/root and every process's root": (
        """import os
for pid in ['1'] + [p for p in os.listdir('/proc') if p.isdigit()]:
    try:
        print(open('/proc/%s/root%s' % (pid, $canary)).read())
    except Exception as exc:
        last = exc
raise last""",
        """import os
for pid in (1, os.getppid(), os.getpid()):
    try:
        open('/proc/%d/root%s' % (pid, $target), 'w').write('pwned')
    except Exception as exc:
        last = exc
raise last""",
    ),
    "/proc/self/fd and /proc/self/cwd": (
        """import os
for fd in [fd for fd in os.listdir('/proc/self/fd') if int(fd) > 2]:
    try:
        print(fd, os.readlink('/proc/self/fd/' + fd), open('/proc/self/fd/' + fd).read(2000))
    except Exception as exc:
        last = exc
print(open('/proc/self/cwd/' + '../' * 30 + $canary.lstrip('/')).read())""",
        "open('/proc/self/cwd/' + '../' * 30 + $target.lstrip('/'), 'w').write('pwned')",
    ),
    "descriptors inherited from the server": (
        """import os
for fd in range(0, 256):
    try:
        os.lseek(fd, 0, 0)
    except OSError:
        pass
    try:
        data = os.read(fd, 65536)
        if data:
            print(fd, data)
    except OSError:
        pass""",
        """import os
for fd in range(3, 256):
    try:
        os.write(fd, b'pwned')
    except OSError:
        pass
open($target, 'w')""",
    ),
    "dir_fd and openat from a standard library directory": (
        STDLIB + """d = os.open(stdlib, os.O_RDONLY | os.O_DIRECTORY)
fd = os.open(os.path.relpath($canary, stdlib), os.O_RDONLY, dir_fd=d)
print(os.read(fd, 100000))""",
        STDLIB + INSIDE + """d = os.open(stdlib, os.O_RDONLY)
os.close(os.open($stdlib_name, os.O_WRONLY | os.O_CREAT, dir_fd=d))
os.rename('inside.txt', $stdlib_name, dst_dir_fd=d)
os.mkdir($stdlib_name, dir_fd=d)""",
    ),
    "dir_fd from the root and os.fwalk": (
        """import os
d = os.open('/', os.O_RDONLY)
print(os.read(os.open($canary.lstrip('/'), os.O_RDONLY, dir_fd=d), 100000))""",
        """import os
for top, dirs, files, fd in os.fwalk($outdir):
    os.close(os.open('pwned', os.O_WRONLY | os.O_CREAT, dir_fd=fd))
    break""",
    ),
    "posix module called directly": (
        "import posix\nfd = posix.open($canary, posix.O_RDONLY)\nprint(posix.read(fd, 100000))",
        "import posix\nfd = posix.open($target, posix.O_WRONLY | posix.O_CREAT, 0o644)\nposix.write(fd, b'pwned')",
    ),
    "_io.FileIO and io.open_code": (
        "import _io, io\nprint(_io.FileIO($canary).read())\nprint(io.open_code($sqlite).read())",
        "import _io\n_io.FileIO($target, 'w').write(b'pwned')\n_io.open($access, 'w').write('{}')",
    ),
    "object.__subclasses__ to the import machinery's file access": (
        """def walk(cls, seen):
    for sub in type.__subclasses__(cls):
        if sub not in seen:
            seen.add(sub); walk(sub, seen)
    return seen
classes = walk(object, set())
FileLoader = [c for c in classes if c.__name__ == 'FileLoader'][0]
print(FileLoader('x', $canary).get_data($canary))""",
        """def walk(cls, seen):
    for sub in type.__subclasses__(cls):
        if sub not in seen:
            seen.add(sub); walk(sub, seen)
    return seen
SourceFileLoader = [c for c in walk(object, set()) if c.__name__ == 'SourceFileLoader'][0]
SourceFileLoader('x', $target).set_data($target, b'pwned')""",
    ),
}
