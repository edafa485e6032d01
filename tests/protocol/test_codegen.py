"""The generated protocol code in arena/protocol/ is what protos/generate.py makes now."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("generate", ROOT / "protos" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_it_fails_when_the_generated_code_is_stale(tmp_path):
    generate = _generator()
    written = generate.generate(tmp_path)
    assert sorted(p.name for p in written) == sorted(generate.GENERATED)
    for path in written:
        committed = generate.OUT / path.name
        assert committed.read_text() == path.read_text(), (
            f"{committed} is stale: run `python protos/generate.py` and commit the result"
        )


def test_it_imports_the_generated_messages_relatively():
    text = (ROOT / "arena" / "protocol" / "arena_pb2_grpc.py").read_text()
    assert "from . import arena_pb2" in text
    assert "from nimmt" not in text
