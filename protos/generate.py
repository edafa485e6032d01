"""Generate the Python code of the bot protocol: ``python protos/generate.py``.

Runs ``grpc_tools.protoc`` on ``protos/nimmt/v1/arena.proto`` and writes ``arena_pb2.py``,
``arena_pb2_grpc.py`` and ``arena_pb2.pyi`` into ``arena/protocol/``. protoc names modules after
the proto's path (``nimmt.v1``); the import in the gRPC module is rewritten to a relative one so
the code lives inside the ``arena`` package. ``tests/protocol/test_codegen.py`` fails when the
committed files differ from what this script produces.

``--out DIR`` writes elsewhere (the staleness test uses a temporary folder).
"""

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
SOURCES = ("nimmt/v1/arena.proto",)
OUT = ROOT / "arena" / "protocol"
GENERATED = ("arena_pb2.py", "arena_pb2_grpc.py", "arena_pb2.pyi")


def generate(out: Path) -> list[Path]:
    """Write the generated files into ``out``; the paths written."""
    from grpc_tools import protoc  # dev dependency: only code generation needs it

    include = Path(protoc.__file__).parent / "_proto"  # google/protobuf/*.proto
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            "grpc_tools.protoc",
            f"-I{PROTOS}",
            f"-I{include}",
            f"--python_out={tmp}",
            f"--pyi_out={tmp}",
            f"--grpc_python_out={tmp}",
            *SOURCES,
        ]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed: {' '.join(args)}")
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for name in GENERATED:
            text = (Path(tmp) / "nimmt" / "v1" / name).read_text(encoding="utf-8")
            # `from nimmt.v1 import arena_pb2 as ...` -> `from . import arena_pb2 as ...`
            text = re.sub(r"^from nimmt\.v1 import ", "from . import ", text, flags=re.M)
            target = out / name
            target.write_text(text, encoding="utf-8")
            written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"target folder (default {OUT})")
    args = parser.parse_args(argv)
    for path in generate(args.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
