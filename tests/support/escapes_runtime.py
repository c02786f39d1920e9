"""Escape techniques through the interpreter and the kernel: builtins, modules, frames, native code, new
interpreters, finalizers, file helpers, imports, the environment, other processes, sockets and processes.

Part of the corpus in ``tests.support.escapes`` (which explains the templates).
"""

from __future__ import annotations

from tests.support.escapes_paths import CTYPES_ALIAS, INSIDE, LISTENER_READ, STDLIB

RUNTIME: dict[str, tuple[str, str]] = {
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
        CTYPES_ALIAS + "fd = libc.open($canary.encode(), 0)\nbuf = c.create_string_buffer(100000)\n"
        "n = libc.read(fd, buf, 100000)\nprint(buf.raw[:n])",
        CTYPES_ALIAS + "fd = libc.open($target.encode(), 0o101, 0o644)\nlibc.write(fd, b'pwned', 5)\n"
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
        INSIDE + "import shutil\nshutil.copy('inside.txt', $target)\nshutil.move('inside.txt', $outdir)\n"
        "shutil.rmtree($module_dir)",
    ),
    "rename and replace across the boundary": (
        "import os\nos.rename($canary, 'stolen')\nprint(open('stolen').read())",
        INSIDE + "import os\nos.replace('inside.txt', $target)\nos.rename('inside.txt', $access)",
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
        INSIDE + "import py_compile\nopen('m.py', 'w').write('x = 1')\npy_compile.compile('m.py', cfile=$target)",
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
        "import socket\ns = socket.create_connection(('127.0.0.1', $port), timeout=2)\n" + LISTENER_READ,
        "import socket\ns = socket.create_connection(('127.0.0.1', $port), timeout=2)\ns.sendall(b'pwned')",
    ),
    "_socket called directly": (
        "import _socket\ns = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)\ns.settimeout(2)\n"
        "s.connect(('127.0.0.1', $port))\n" + LISTENER_READ,
        "import _socket\ns = _socket.socket()\ns.connect(('127.0.0.1', $port))\ns.send(b'pwned')",
    ),
    "Unix socket at a path": (
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.settimeout(2)\ns.connect($unix)\n" + LISTENER_READ,
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect($unix)\ns.sendall(b'pwned')",
    ),
    "abstract Unix socket": (
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.settimeout(2)\ns.connect('\\0' + $abstract)\n"
        + LISTENER_READ,
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
        STDLIB + """import importlib.util as iu, importlib.machinery as im
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
