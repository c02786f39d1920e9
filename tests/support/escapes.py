"""A corpus of ways out of the run_python sandbox, and the canaries they aim at.

Each technique is a pair of programs for the sandbox: one tries to read a canary outside it (a plain file, an
access file, a SQLite database, a module, the parent's environment, a listener on this machine) and print what
it got; the other tries to write outside (a new file, the access file, the standard library). Programs are
``string.Template`` texts; ``Canaries.fill`` puts in the paths. Every program may fail in any way: what counts
is that the secret never comes back and nothing outside changes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import sqlite3
import sysconfig
import threading
import uuid
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from string import Template

SECRET_ENV = "HOPGRAPH_ESCAPE_SECRET"

# Shared preambles: where the standard library is (readable inside), and a harmless file in the working dir.
_STDLIB = "import os, sys\nstdlib = [p for p in sys.path if os.path.isdir(p) and 'dynload' not in p][0]\n"
_INSIDE = "open('inside.txt', 'w').write('harmless')\n"

_CTYPES_ALIAS = _STDLIB + """
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

_LISTENER_READ = "print(s.recv(4096))\n"

TECHNIQUES: dict[str, tuple[str, str]] = {
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
        _STDLIB + "class M(str):\n    def __contains__(self, x): return False\n"
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
        _INSIDE + "import os\nos.link('inside.txt', $target)",
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
        _STDLIB + """d = os.open(stdlib, os.O_RDONLY | os.O_DIRECTORY)
fd = os.open(os.path.relpath($canary, stdlib), os.O_RDONLY, dir_fd=d)
print(os.read(fd, 100000))""",
        _STDLIB + _INSIDE + """d = os.open(stdlib, os.O_RDONLY)
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
    "builtins replaced before opening": (
        """import builtins
builtins.isinstance = lambda *a: True
builtins.any = lambda *a: False
builtins.len = lambda *a: 0
builtins.type = lambda *a: str
builtins.next = lambda *a: 0
builtins.str = type('S', (str,), {'startswith': lambda *a: True})
print(open($canary).read())""",
        """import builtins
builtins.any = lambda *a: False
builtins.isinstance = lambda *a: False
builtins.next = lambda *a: 0
open($target, 'w').write('pwned')""",
    ),
    "sys.modules tampering": (
        """import sys, os, types
root = os.getcwd()
fake = types.ModuleType('posixpath')
fake.__dict__.update(vars(os.path))
fake.realpath = fake.normpath = fake.abspath = lambda p, *a, **k: root + '/x'
sys.modules['posixpath'] = sys.modules['os.path'] = fake
os.path = fake
sys.modules['stat'] = types.ModuleType('stat')
sys.modules['posix'].stat = lambda *a, **k: os.stat_result((0o100644,) + (0,) * 9)
main = sys.modules['__main__']
main.os = types.SimpleNamespace(_exit=lambda rc: None)
print(open($canary).read())""",
        """import sys, os, types
root = os.getcwd()
sys.modules['posixpath'].normpath = lambda p: root + '/x'
sys.modules['__main__'].os = types.SimpleNamespace(_exit=lambda rc: None)
open($target, 'w').write('pwned')""",
    ),
    "the hook's own frame, reached through a traceback": (
        """import sys
try:
    open($canary)
except PermissionError as exc:
    tb = exc.__traceback__
    while tb.tb_next:
        tb = tb.tb_next
    frame = tb.tb_frame
    while frame is not None:
        for key in list(frame.f_locals):
            if key in ('_root', '_readable', '_both'):
                frame.f_locals[key] = ('/',)
        frame.f_globals.update(make_hook=lambda *a: (lambda *b: None))
        frame = frame.f_back
print(open($canary).read())""",
        """try:
    open($target, 'w')
except PermissionError as exc:
    frame = exc.__traceback__.tb_next.tb_frame
    for _ in range(10000):
        next(frame.f_locals.get('_written', iter([0])), 0)
open($target, 'w').write('pwned')""",
    ),
    "trace functions and gc rewriting the hook's state": (
        """import sys, gc
def tracer(frame, event, arg):
    if '_root' in frame.f_locals:
        frame.f_locals['_root'] = ('/',)
    return tracer
try:
    sys.settrace(tracer)
except Exception as exc:
    print('settrace', exc)
for obj in gc.get_objects():
    if isinstance(obj, tuple) and obj and obj[0] == '/':
        pass
print(open($canary).read())""",
        """import gc, sys
for f in gc.get_referrers(sys.addaudithook):
    pass
sys.setprofile(lambda *a: None)
open($target, 'w').write('pwned')""",
    ),
    "ctypes": (
        "import ctypes\nlibc = ctypes.CDLL(None)\nfd = libc.open($canary.encode(), 0)\n"
        "buf = ctypes.create_string_buffer(100000)\nn = libc.read(fd, buf, 100000)\nprint(buf.raw[:n])",
        "import ctypes\nlibc = ctypes.CDLL(None)\nfd = libc.open($target.encode(), 0o101, 0o644)\n"
        "libc.write(fd, b'pwned', 5)",
    ),
    "_ctypes loaded under another name, ctypes built on it": (
        _CTYPES_ALIAS + "fd = libc.open($canary.encode(), 0)\nbuf = c.create_string_buffer(100000)\n"
        "n = libc.read(fd, buf, 100000)\nprint(buf.raw[:n])",
        _CTYPES_ALIAS + "fd = libc.open($target.encode(), 0o101, 0o644)\nlibc.write(fd, b'pwned', 5)\n"
        "libc.system(b'touch ' + $target.encode())",
    ),
    "a new interpreter without the audit hook": (
        "import _xxsubinterpreters as si\ni = si.create()\n"
        "si.run_string(i, 'print(open(' + repr($canary) + ').read())')",
        "import _xxsubinterpreters as si\ni = si.create()\n"
        "si.run_string(i, 'open(' + repr($target) + ', \"w\").write(\"pwned\")')",
    ),
    "finalizers after the hooks are cleared": (
        """import builtins, atexit, sys
class Late:
    def __del__(self, open=open, print=print, canary=$canary):
        print(open(canary).read())
builtins._late = keep = Late()
atexit.register(lambda: print(open($access).read()))
sys.exit(0)""",
        """import builtins, sys
class Late:
    def __del__(self, open=open, target=$target):
        open(target, 'w').write('pwned')
builtins._late = keep = Late()
sys.exit(0)""",
    ),
    "mmap": (
        "import mmap, os\nfd = os.open($canary, os.O_RDONLY)\nprint(mmap.mmap(fd, 0, prot=mmap.PROT_READ)[:])",
        "import mmap, os\nm = mmap.mmap(-1, 4096)\nfd = os.open($target, os.O_RDWR | os.O_CREAT)\n"
        "os.ftruncate(fd, 5)\nmmap.mmap(fd, 5)[:] = b'pwned'",
    ),
    "shutil": (
        "import shutil\nshutil.copyfile($canary, 'stolen')\nprint(open('stolen').read())\n"
        "shutil.copytree($module_dir, 'mods')\nprint(open('mods/secretmod.py').read())",
        _INSIDE + "import shutil\nshutil.copy('inside.txt', $target)\nshutil.move('inside.txt', $outdir)\n"
        "shutil.rmtree($module_dir)",
    ),
    "rename and replace across the boundary": (
        "import os\nos.rename($canary, 'stolen')\nprint(open('stolen').read())",
        _INSIDE + "import os\nos.replace('inside.txt', $target)\nos.rename('inside.txt', $access)",
    ),
    "delete, truncate, chmod, utime outside": (
        "import os\nprint(os.read(os.open($access, os.O_RDONLY), 100000))",
        "import os\nos.truncate($canary, 0)\nos.chmod($canary, 0o777)\nos.utime($canary, (0, 0))\n"
        "os.remove($access)\nos.mkfifo($target)",
    ),
    "chdir to outside": (
        "import os\nos.chdir($outdir + '/..')\nprint(open('canary.txt').read())",
        "import os\nfd = os.open($outdir, os.O_RDONLY)\nos.fchdir(fd)\nopen('pwned', 'w').write('pwned')",
    ),
    "open() with an opener": (
        "import os\nprint(open('inside.txt', opener=lambda p, f: os.open($canary, os.O_RDONLY)).read())",
        "import os\nopen('inside.txt', 'w', opener=lambda p, f: os.open($target, os.O_WRONLY | os.O_CREAT)).write('x')",
    ),
    "importlib SourceFileLoader": (
        "from importlib.machinery import SourceFileLoader\nl = SourceFileLoader('secretmod', $module_file)\n"
        "print(l.get_data($canary))\nprint(l.load_module().SECRET)",
        "from importlib.machinery import SourceFileLoader\nSourceFileLoader('x', $target).set_data($target, b'pwned')",
    ),
    "importlib FileFinder on an outside folder": (
        "import importlib.machinery as m, importlib.util as u\n"
        "f = m.FileFinder($module_dir, (m.SourceFileLoader, ['.py']))\nspec = f.find_spec('secretmod')\n"
        "mod = u.module_from_spec(spec)\nspec.loader.exec_module(mod)\nprint(mod.SECRET)",
        "import importlib.machinery as m\nf = m.FileFinder($outdir, (m.SourceFileLoader, ['.py']))\n"
        "m.SourceFileLoader('x', $outdir + '/pwned.py').set_data($outdir + '/pwned.py', b'x = 1')",
    ),
    "sys.path and import": (
        "import sys\nsys.path.insert(0, $module_dir)\nimport secretmod\nprint(secretmod.SECRET)",
        _INSIDE + "import py_compile\nopen('m.py', 'w').write('x = 1')\npy_compile.compile('m.py', cfile=$target)",
    ),
    "runpy and tempfile": (
        "import runpy\nprint(runpy.run_path($module_file)['SECRET'])",
        "import tempfile\ntempfile.mkstemp(dir=$outdir)\ntempfile.NamedTemporaryFile(dir=$outdir, delete=False)",
    ),
    "linecache": (
        "import linecache\nprint(linecache.getlines($canary))\nprint(linecache.getline($module_file, 1))",
        "import linecache\nlinecache.cache[$target] = (1, None, ['x'], $target)\nopen($target, 'w')",
    ),
    "zipimport and zipfile": (
        "import zipimport\nprint(zipimport.zipimporter($zip).load_module('secretmod').SECRET)",
        "import zipfile\nzipfile.ZipFile($target, 'w').writestr('a', 'pwned')",
    ),
    "sqlite3": (
        "import sqlite3\nprint(sqlite3.connect($sqlite).execute('select * from t').fetchall())",
        "import sqlite3\nc = sqlite3.connect(':memory:')\nc.execute('attach database ? as x', ($target,))\n"
        "c.execute('create table x.t(a)')\nsqlite3.connect($sqlite).execute('delete from t')",
    ),
    "the parent's environment": (
        """import os
print(dict(os.environ))
print(open('/proc/self/environ').read())
print(open('/proc/%d/environ' % os.getppid()).read())
print(open('/proc/1/environ').read())""",
        "import os\nos.environ['X'] = '1'\n"
        "open('/proc/%d/cwd/' % os.getppid() + '../' * 30 + $target.lstrip('/'), 'w')",
    ),
    "other processes' /proc": (
        """import os
for pid in os.listdir('/proc'):
    if pid.isdigit():
        for leaf in ('cmdline', 'environ', 'maps'):
            try:
                print(pid, leaf, open('/proc/%s/%s' % (pid, leaf), 'rb').read()[:20000])
            except Exception as exc:
                last = exc""",
        "import os\nos.kill(os.getppid(), 0)\nopen('/proc/%d/root%s' % (os.getppid(), $target), 'w').write('pwned')",
    ),
    "TCP socket to a listener on 127.0.0.1": (
        "import socket\ns = socket.create_connection(('127.0.0.1', $port), timeout=2)\n" + _LISTENER_READ,
        "import socket\ns = socket.create_connection(('127.0.0.1', $port), timeout=2)\ns.sendall(b'pwned')",
    ),
    "_socket called directly": (
        "import _socket\ns = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)\ns.settimeout(2)\n"
        "s.connect(('127.0.0.1', $port))\n" + _LISTENER_READ,
        "import _socket\ns = _socket.socket()\ns.connect(('127.0.0.1', $port))\ns.send(b'pwned')",
    ),
    "Unix socket at a path": (
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.settimeout(2)\ns.connect($unix)\n" + _LISTENER_READ,
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect($unix)\ns.sendall(b'pwned')",
    ),
    "abstract Unix socket": (
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.settimeout(2)\ns.connect('\\0' + $abstract)\n"
        + _LISTENER_READ,
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('\\0' + $abstract)\ns.sendall(b'pwned')",
    ),
    "HTTP clients": (
        "import urllib.request\nprint(urllib.request.urlopen('http://127.0.0.1:%d/' % $port, timeout=2).read())",
        "import http.client\nc = http.client.HTTPConnection('127.0.0.1', $port, timeout=2)\n"
        "c.request('POST', '/', body=b'pwned')",
    ),
    "asyncio streams": (
        "import asyncio\nasync def go():\n    r, w = await asyncio.open_connection('127.0.0.1', $port)\n"
        "    print(await r.read(4096))\nasyncio.run(go())",
        "import asyncio\nasync def go():\n    r, w = await asyncio.open_connection('127.0.0.1', $port)\n"
        "    w.write(b'pwned'); await w.drain()\nasyncio.run(go())",
    ),
    "subprocess": (
        "import subprocess\nprint(subprocess.run(['cat', $canary], capture_output=True).stdout)",
        "import subprocess\nsubprocess.run(['sh', '-c', 'echo pwned > ' + $target])",
    ),
    "os.system, exec and posix_spawn": (
        "import os\nos.system('cat ' + $canary)\nos.posix_spawn('/bin/cat', ['cat', $canary], {})\n"
        "os.execv('/bin/cat', ['cat', $canary])",
        "import os\nos.system('touch ' + $target)\nos.execv('/bin/sh', ['sh', '-c', 'touch ' + $target])",
    ),
    "fork and pty": (
        "import os\npid = os.fork()\nif pid == 0:\n    print(open($canary).read(), flush=True)\n    os._exit(0)\n"
        "os.waitpid(pid, 0)",
        "import pty\npty.spawn(['sh', '-c', 'touch ' + $target])",
    ),
    "_posixsubprocess, directly and under another name": (
        """import _posixsubprocess, os
r, w = os.pipe()
args = [[b'/bin/cat', $canary.encode()], [b'/bin/cat'], True, (), None, None, -1, -1, -1, w, -1, -1, *os.pipe(),
        False, False, -1, None, None, None, -1, None]
try:
    _posixsubprocess.fork_exec(*args, False)
except TypeError:
    _posixsubprocess.fork_exec(*args)
print(os.read(r, 10000))""",
        _STDLIB + """import importlib.util as iu, importlib.machinery as im
dyn = [p for p in sys.path if p.endswith('lib-dynload')][0]
so = [os.path.join(dyn, f) for f in os.listdir(dyn) if f.startswith('_posixsubprocess.')][0]
spec = iu.spec_from_file_location('x._posixsubprocess', so, loader=im.ExtensionFileLoader('x._posixsubprocess', so))
ps = iu.module_from_spec(spec)
args = [[b'/bin/sh', b'-c', b'touch ' + $target.encode()], [b'/bin/sh'], True, (), None, None, -1, -1, -1, -1, -1,
        -1, *os.pipe(), False, False, -1, None, None, None, -1, None]
try:
    ps.fork_exec(*args, False)
except TypeError:
    ps.fork_exec(*args)
import time; time.sleep(0.5)""",
    ),
    "raising the limits and the uid": (
        "import resource\nresource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))\nprint(open($canary).read())",
        "import os\nos.setuid(0)\nopen($target, 'w').write('pwned')",
    ),
}


@dataclass
class Canaries:
    """Files and listeners outside the sandbox, each holding or answering with ``secret``."""

    root: Path
    secret: str = field(default_factory=lambda: f"hopgraph-canary-{uuid.uuid4().hex}")
    received: list[bytes] = field(default_factory=list)
    _sockets: list[socket.socket] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.canary = self.root / "canary.txt"
        self.canary.write_text(f"the secret is {self.secret}\n")
        self.access = self.root / "identities.json"
        alice = {"id": "alice", "key_sha256": [self.secret], "admin": True}
        self.access.write_text(json.dumps({"identities": [alice]}))
        self.sqlite = self.root / "checkpoints.sqlite"
        with contextlib.closing(sqlite3.connect(self.sqlite)) as db:
            db.execute("create table t (thread text, message text)")
            db.execute("insert into t values ('alice-thread', ?)", (f"alice asked about {self.secret}",))
            db.commit()
        self.outdir = self.root / "outside"
        self.outdir.mkdir()
        self.module_dir = self.root / "modules"
        self.module_dir.mkdir()
        self.module_file = self.module_dir / "secretmod.py"
        self.module_file.write_text(f"SECRET = {self.secret!r}\n")
        self.zip = self.root / "secret.zip"
        with zipfile.ZipFile(self.zip, "w") as zf:
            zf.writestr("secretmod.py", f"SECRET = {self.secret!r}\n")
        self.stdlib = sysconfig.get_path("stdlib")
        self.abstract = f"hopgraph-escape-{uuid.uuid4().hex}"
        self.unix = str(self.root / "listener.sock")
        # A descriptor the server holds open on the canary, inheritable: a child must still not get it.
        self.open_fd = os.open(self.canary, os.O_RDONLY)
        os.set_inheritable(self.open_fd, True)
        self.port = self._listen(socket.AF_INET, ("127.0.0.1", 0))
        self._listen(socket.AF_UNIX, self.unix)
        self._listen(socket.AF_UNIX, "\0" + self.abstract)

    def _listen(self, family: int, address: object) -> int:
        server = socket.socket(family, socket.SOCK_STREAM)
        server.bind(address)
        server.listen(8)
        self._sockets.append(server)

        def serve() -> None:
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:
                    return
                with conn:
                    conn.settimeout(1)
                    with contextlib.suppress(OSError):
                        conn.sendall(self.secret.encode())
                    try:
                        self.received.append(b"connected:" + conn.recv(4096))
                    except OSError:
                        self.received.append(b"connected")

        threading.Thread(target=serve, daemon=True).start()
        return int(server.getsockname()[1]) if family == socket.AF_INET else 0

    def close(self) -> None:
        os.close(self.open_fd)
        for server in self._sockets:
            with contextlib.suppress(OSError):
                server.shutdown(socket.SHUT_RDWR)
            server.close()

    def target_for(self, name: str) -> Path:
        return self.outdir / f"pwned-{hashlib.sha1(name.encode()).hexdigest()[:10]}"

    def stdlib_name(self, name: str) -> str:
        return f"hopgraph-escape-{hashlib.sha1(name.encode()).hexdigest()[:10]}"

    def fill(self, template: str, name: str) -> str:
        values = {
            "canary": self.canary, "access": self.access, "sqlite": self.sqlite, "outdir": self.outdir,
            "module_dir": self.module_dir, "module_file": self.module_file, "zip": self.zip, "unix": self.unix,
            "abstract": self.abstract, "target": self.target_for(name), "stdlib_name": self.stdlib_name(name),
        }
        filled = {k: repr(str(v)) for k, v in values.items()}
        filled["port"] = str(self.port)
        return Template(template).substitute(filled)

    def snapshot(self) -> dict[str, tuple[int, int, int, str]]:
        """Every file under the canaries' folder: size, mode, mtime and a hash of its content."""
        out: dict[str, tuple[int, int, int, str]] = {}
        for path in sorted(self.root.rglob("*")):
            st = path.lstat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
            out[str(path)] = (st.st_size, st.st_mode, st.st_mtime_ns, digest)
        return out

    def stdlib_leftovers(self) -> list[str]:
        return sorted(n for n in os.listdir(self.stdlib) if n.startswith("hopgraph-escape-"))
