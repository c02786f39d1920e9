"""What the served graph adds to the local one: who may call, what a caller may set, what it may search, whose
threads it may reach and how much of the server it may take.

``identities`` reads the operator's access file and ``bearer_tokens`` checks JWTs; ``credentials`` reads the one
credential of a request; ``settings`` splits run settings into the caller's and the operator's; ``owners`` keeps
thread owners beside the checkpoints; ``limits`` is each identity's fair share; ``auth`` is the LangGraph auth
object and ``app`` the custom app (with the route ``gate``) that ``langgraph.json`` names.
"""
