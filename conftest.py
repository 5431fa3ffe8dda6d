"""The doctests of a module that needs an optional extra are collected only where it is installed
(the dev extra installs them all; tests/test_layers.py's EXTRAS lists the same modules)."""
import importlib.util

collect_ignore = [path for path, package in {"yatzy_core/players/gym_env.py": "gymnasium"}.items()
                  if importlib.util.find_spec(package) is None]
