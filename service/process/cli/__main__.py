"""``python -m service.process.cli``: the ``referee`` command."""

from service.process.cli import main

raise SystemExit(main())
