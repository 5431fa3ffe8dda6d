"""Play for something other than the mean: targets, risk, and exact distributions of whole games."""
