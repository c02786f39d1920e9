"""The built-in policy of answer mode: :mod:`~hopgraph.policies.answer.builtin` is the chat model; the rules it
composes an answer by (evidence, bridges, asked kinds, choices, computed amounts, citations) sit beside it, one
module each."""
