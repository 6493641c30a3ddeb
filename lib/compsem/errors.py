"""The errors the shared library raises for things a user must fix outside Python.

A leaf module (it imports nothing from compsem), so that every layer can raise them.
"""


class CompsemError(Exception):
    """An input, file or setting a user must fix: the message names the file, parameter or value
    and says how to fix it. The ``compsem`` command prints it on one line and exits with status 2,
    never with a traceback; every error of this kind derives from this class."""


class ModelUnavailableError(CompsemError, RuntimeError):
    """A model or resource cannot be loaded here (package missing, needs network, ...).

    The message always says how to fix it (the pip command, or the packaged alternatives).
    """
