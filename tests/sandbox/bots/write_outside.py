"""Hostile bot: tries to create a file in each folder given."""

import os
import sys

if __name__ == "__main__":
    for folder in sys.argv[2:]:
        path = os.path.join(folder, sys.argv[1])
        try:
            with open(path, "w") as file:
                file.write("escaped\n")
        except OSError as error:
            print(f"DENIED {folder} {type(error).__name__}", flush=True)
        else:
            print(f"WROTE {folder}", flush=True)
