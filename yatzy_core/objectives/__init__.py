"""Play for something other than the mean: targets, risk, and exact distributions of whole games.

Importing the package registers every objective (`registry.REGISTRY`): a module that defines one
is imported here, so that `objective_for` and the front ends see it however they are reached.
"""
from . import objective, goals  # noqa: F401,I001 (each registers its objectives; mean, reach, beat first)
from . import appetite, bonus_first, outscore, versus_objective  # noqa: F401 (each registers its objectives)
