"""``python -m occli.localcloud`` is ``occli-localcloud``."""

import sys

from occli.localcloud.cli import main

sys.exit(main())
