"""The errors the shared library raises for things a user must fix outside Python.

A leaf module (it imports nothing from compsem), so that every layer can raise them.
"""


class ModelUnavailableError(RuntimeError):
    """A model or resource cannot be loaded here (package missing, needs network, ...).

    The message always says how to fix it (the pip command, or the packaged alternatives).
    """
