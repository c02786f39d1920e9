"""The built-in policy of ids mode: :mod:`~hopgraph.policies.ids.builtin` is the chat model, its search strategy
is :mod:`~hopgraph.policies.ids.hops`, ranked by :mod:`~hopgraph.policies.ids.hops_ranking` and cut where
support drops by :mod:`~hopgraph.policies.ids.support`."""
