"""Errors a user can cause and fix; the CLI prints them without a traceback."""


class HopgraphError(Exception):
    """Base class for errors with a message meant for the user."""


class InputError(HopgraphError):
    """The question or request itself is unusable (empty, too large, malformed)."""


class ModelSpecError(HopgraphError):
    """The model spec names no known model, or its settings are missing."""
