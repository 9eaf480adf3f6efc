"""`python -m peers.cli`: the `dealerless` command without the installed script."""

import sys

from peers.cli.main import main

sys.exit(main())
