"""Bot that reports who it runs as and what it was given."""

import json
import os
import resource

if __name__ == "__main__":
    limits = {
        name: resource.getrlimit(getattr(resource, name))
        for name in ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_FSIZE")
    }
    token_file = os.environ.get("NIMMT_TOKEN_FILE", "")
    try:
        with open(token_file) as file:
            token = file.read()
        info = os.stat(token_file)
        token_mode = oct(info.st_mode & 0o777)
        token_owner = info.st_uid
    except OSError as error:
        token, token_mode, token_owner = f"unreadable: {error}", "", -1
    report = {
        "uid": os.getuid(),
        "euid": os.geteuid(),
        "gid": os.getgid(),
        "groups": os.getgroups(),
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "limits": limits,
        "work_visible": os.path.exists("/work/main"),
        "token": token,
        "token_mode": token_mode,
        "token_owner": token_owner,
    }
    print(json.dumps(report), flush=True)
