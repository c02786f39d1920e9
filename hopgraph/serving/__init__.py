"""What the served graph adds to the local one: who may call, what a caller may set, what it may search.

``identities`` reads the operator's access file, ``settings`` splits run settings into the caller's and the
operator's, and ``auth`` is the LangGraph auth object that ``langgraph.json`` names.
"""
