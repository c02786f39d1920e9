"""The run_python sandbox: run model-written Python in an isolated, limited child process.

``runner`` starts the child and reads its result, ``isolation`` builds the bubblewrap sandbox it runs in (where
the kernel allows one), and ``child`` is the code the child runs first: limits and the audit hook.
"""

from hopgraph.sandbox.isolation import Isolation, hook_only
from hopgraph.sandbox.runner import PLACEHOLDER, SandboxLimits, SandboxResult, current_isolation, run_code

__all__ = ["PLACEHOLDER", "Isolation", "SandboxLimits", "SandboxResult", "current_isolation", "hook_only", "run_code"]
