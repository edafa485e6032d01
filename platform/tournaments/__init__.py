"""Tournaments that organisers run: round robin, Swiss or duplicate, played by the match workers."""
