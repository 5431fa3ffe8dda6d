"""Advice for a position: the choices ranked, the coach, game logs graded."""
