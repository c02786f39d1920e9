"""Offline policies: deterministic chat models that drive the graph through its tools.

One subpackage per policy: :mod:`hopgraph.policies.ids` (``builtin`` in ids mode: hops, ranking, when the
evidence suffices) and :mod:`hopgraph.policies.answer` (``builtin`` in answer mode: evidence, bridges, the
composed answer). What both use sits beside them: :mod:`~hopgraph.policies.base` (the
:class:`~hopgraph.policies.base.ScriptedPolicy` a strategy for another mode plugs into),
:mod:`~hopgraph.policies.transcript` (the run read back from the conversation) and
:mod:`~hopgraph.policies.text` (names, terms and phrases).
"""
