"""Bot that says hello and then waits to be killed."""

import time

if __name__ == "__main__":
    print("hello", flush=True)
    while True:
        time.sleep(1)
