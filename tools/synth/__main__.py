"""``python -m tools.synth``: see :mod:`tools.synth.cli`."""
import sys

from tools.synth.cli import main

sys.exit(main())
