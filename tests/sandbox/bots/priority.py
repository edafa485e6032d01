"""Hostile bot: tries to raise its scheduling priority and to become a real-time process."""

import json
import os

if __name__ == "__main__":
    report = {"nice": os.getpriority(os.PRIO_PROCESS, 0), "policy": os.sched_getscheduler(0)}
    try:
        os.setpriority(os.PRIO_PROCESS, 0, report["nice"] - 5)
        report["raise"] = "ok"
    except OSError as error:
        report["raise"] = type(error).__name__
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        report["fifo"] = "ok"
    except OSError as error:
        report["fifo"] = type(error).__name__
    print(json.dumps(report), flush=True)
