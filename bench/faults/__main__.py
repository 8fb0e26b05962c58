"""``python -m bench.faults``: see the package's docs."""

from __future__ import annotations

import sys

from bench.faults.run import main

if __name__ == "__main__":
    sys.exit(main())
