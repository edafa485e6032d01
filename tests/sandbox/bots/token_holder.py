"""Bot that reads its token from $NIMMT_TOKEN_FILE, says it has it, and waits to be killed."""

import os
import time

if __name__ == "__main__":
    with open(os.environ["NIMMT_TOKEN_FILE"]) as file:
        token = file.read()
    print(f"token: {token}", flush=True)
    time.sleep(60)
