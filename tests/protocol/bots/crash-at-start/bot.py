"""Hostile fixture: dies before it connects."""

import sys

print("crash-at-start: loading my model", flush=True)
sys.stderr.write("crash-at-start: model.bin is missing\n")
raise SystemExit(7)
