"""Players and many games: strategies, planners, rules of thumb, simulation, the comparison study."""
