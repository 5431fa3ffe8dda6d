"""`python -m yatzy_core` runs the `yatzy` command."""
import sys

from .cli.command import main

if __name__ == "__main__":
    sys.exit(main())
