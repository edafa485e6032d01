"""Hostile bot: spins forever on the CPU."""

if __name__ == "__main__":
    print("spinning", flush=True)
    while True:
        pass
