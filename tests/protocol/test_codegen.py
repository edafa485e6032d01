"""The generated protocol code of every language is what protos/generate.py makes now."""

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("generate", ROOT / "protos" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATE = _generator()
#: The tools each language's generator runs (Debian packages installed by ./dev).
TOOLS = {
    "cpp": ("protoc", "grpc_cpp_plugin"),
    "java": ("protoc", "grpc_java_plugin"),
    "go": ("protoc", "protoc-gen-go", "protoc-gen-go-grpc"),
    "javascript": ("node",),
}


@pytest.mark.parametrize("name", list(GENERATE.LANGUAGES))
def test_it_fails_when_the_generated_code_is_stale(name, tmp_path):
    missing = [tool for tool in TOOLS.get(name, ()) if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (./dev installs them)")
    if name == "javascript" and not GENERATE.PROTOBUFJS.is_dir():
        pytest.skip("the JavaScript kit's node_modules are not installed (./dev installs them)")
    language = GENERATE.LANGUAGES[name]
    written = language.generate(tmp_path)
    assert written
    for path in written:
        committed = language.out / path.relative_to(tmp_path)
        assert committed.read_bytes() == path.read_bytes(), (
            f"{committed} is stale: run `python protos/generate.py {name}` and commit the result"
        )


def test_it_writes_the_python_modules_the_arena_imports(tmp_path):
    written = GENERATE.generate(tmp_path)
    assert sorted(p.name for p in written) == sorted(GENERATE.GENERATED)


def test_it_imports_the_generated_messages_relatively():
    text = (ROOT / "arena" / "protocol" / "arena_pb2_grpc.py").read_text()
    assert "from . import arena_pb2" in text
    assert "from nimmt" not in text


def test_it_describes_the_javascript_protocol_with_no_path_of_this_machine(tmp_path):
    """The kit's JSON descriptor is made anywhere alike: it names no file and keeps field names
    as the ``.proto`` writes them (the kit's messages are in snake_case)."""
    if shutil.which("node") is None or not GENERATE.PROTOBUFJS.is_dir():
        pytest.skip("node or the JavaScript kit's node_modules are missing (./dev installs them)")
    (descriptor, _) = GENERATE.generate_javascript(tmp_path)
    text = descriptor.read_text()
    assert str(ROOT) not in text and "arena.proto" not in text
    hello = json.loads(text)["nested"]["nimmt"]["nested"]["v1"]["nested"]["Hello"]
    assert "protocol_version" in hello["fields"]
