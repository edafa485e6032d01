"""Nimmt Arena: the 6 nimmt! Brettspiel rules engine, house bots, match runner and CLI."""

__version__ = "0.1.0"
