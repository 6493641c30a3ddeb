"""``python -m compsem``: the ``compsem`` command (:func:`compsem.cli.main`)."""

import sys

from compsem.cli import main

sys.exit(main())
