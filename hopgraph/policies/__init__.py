"""Offline policies: deterministic chat models that drive the graph through its tools.

``builtin`` (ids mode) lives in :mod:`hopgraph.policies.builtin`; its search strategy in
:mod:`hopgraph.policies.hops`. A strategy for another mode plugs into the same
:class:`~hopgraph.policies.base.ScriptedPolicy` base.
"""
