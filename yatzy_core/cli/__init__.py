"""The `yatzy` command."""
from .command import main

__all__ = ["main"]
