"""Daemonizes the classic way (fork, setsid, fork; the middle process exits), then sleeps."""

import os
import sys
import time

if __name__ == "__main__":
    child = os.fork()
    if child == 0:
        os.setsid()
        if os.fork() == 0:
            me, session = os.getpid(), os.getsid(0)
            line = f"daemon: sleeper {me} in session {session}, the bot's is {sys.argv[1]}\n"
            os.write(1, line.encode())
            while True:
                time.sleep(1)
        os._exit(0)
    os.waitpid(child, 0)
