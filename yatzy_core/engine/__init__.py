"""The turn engine and the optimal solver: one turn backwards, the layers of a game, solved
tables on disk, the rest of a game as a rule set. Its compiled kernels live in `compiled/`."""
