"""``python -m bench.loadtest``: the load test's command line (:mod:`bench.loadtest.cli`)."""

import sys

from bench.loadtest.cli import main

sys.exit(main())
