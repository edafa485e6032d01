"""Hostile bot: tries to read each path given (file contents or folder listing)."""

import os
import sys

if __name__ == "__main__":
    for path in sys.argv[1:]:
        try:
            if os.path.isdir(path):
                os.listdir(path)
            else:
                with open(path, "rb") as file:
                    file.read(1)
        except OSError as error:
            print(f"DENIED {path} {type(error).__name__}", flush=True)
        else:
            print(f"READ {path}", flush=True)
