"""Spins on the CPU forever (started by bot.py, several times)."""

while True:
    pass
