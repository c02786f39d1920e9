"""One module per graph node."""
