"""The package version, in a module of its own so that any module can read it without importing
the package's `__init__` (which imports nearly everything).

>>> isinstance(__version__, str)
True
"""
from importlib.metadata import PackageNotFoundError, version

__all__ = ["__version__"]

try:
    __version__ = version("yatzy-core")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0"
