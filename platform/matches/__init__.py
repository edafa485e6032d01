"""Matches between bots: scheduling, playing them in the sandbox via the runner, storing results."""
