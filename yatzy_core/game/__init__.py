"""The game as data: dice, exact probability, rule sets and their files, turn states."""
