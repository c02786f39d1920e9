"""Errors a user can cause and fix; the CLI prints them without a traceback."""


class HopgraphError(Exception):
    """Base class for errors with a message meant for the user."""


class InputError(HopgraphError):
    """The question or request itself is unusable (empty, too large, malformed)."""


class ModelSpecError(HopgraphError):
    """The model spec names no known model, or its settings are missing."""


class AccessError(HopgraphError):
    """The caller asked for something it may not have: a container, a setting, a thread."""


class RunFailedError(HopgraphError):
    """A run could not do its work: the model or the index failed. ``exit_reason`` says which."""

    def __init__(self, message: str, exit_reason: str = "") -> None:
        super().__init__(message)
        self.exit_reason = exit_reason
