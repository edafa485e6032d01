"""Generate the bot protocol's code for every language: ``python protos/generate.py [LANGUAGE]``.

One function per language turns ``protos/nimmt/v1/arena.proto`` into that language's code and
writes it where its users find it (the committed copy; ``tests/protocol/test_codegen.py`` fails
when it differs from what this script produces now):

- ``python``: ``grpc_tools.protoc`` (pinned in ``pyproject.toml``) writes ``arena_pb2.py``,
  ``arena_pb2_grpc.py`` and ``arena_pb2.pyi`` into ``arena/protocol/``. protoc names modules
  after the proto's path (``nimmt.v1``); the import in the gRPC module is rewritten to a
  relative one so the code lives inside the ``arena`` package.
- ``cpp``: Debian's ``protoc`` and ``grpc_cpp_plugin`` (packages ``protobuf-compiler``,
  ``protobuf-compiler-grpc``: the same versions as the ``libprotobuf-dev`` and
  ``libgrpc++-dev`` the code compiles against) write ``arena.pb.{h,cc}`` and
  ``arena.grpc.pb.{h,cc}`` into the C++ kit, ``bots/starter-cpp/nimmt/gen/``.
- ``java``: Debian's ``protoc`` and ``grpc_java_plugin`` (``protobuf-compiler-grpc-java-plugin``,
  matching ``libprotobuf-java`` and ``libgrpc-java``) write ``nimmt/v1/ArenaOuterClass.java``
  and ``nimmt/v1/ArenaGrpc.java`` into the Java kit, ``bots/starter-java/src/``.
- ``go``: Debian's ``protoc``, ``protoc-gen-go`` and ``protoc-gen-go-grpc`` (packages
  ``protoc-gen-go``, ``protoc-gen-go-grpc``: the versions of the ``golang-google-protobuf-dev``
  and ``golang-google-grpc-dev`` the code compiles against) write ``arena.pb.go`` and
  ``arena_grpc.pb.go`` (package ``nimmtv1``, import path ``nimmt-arena/bot/nimmt/v1``) into
  the Go kit, ``bots/starter-go/nimmt/v1/``.
- ``javascript``: the JavaScript kit loads the protocol at start from ``arena.json``, protobufjs's
  JSON descriptor of the ``.proto`` (``root.toJSON()``, field names as written, no comments), made
  by Node with the kit's own ``node_modules/protobufjs`` (``npm ci`` in the kit's folder, which
  ``./dev`` runs): reading it costs a bot less CPU than parsing the ``.proto``. The ``.proto`` is
  copied beside it for people to read. Both go to ``bots/starter-javascript/nimmt/``.
- ``reference``: not code but the protocol's reference for people, ``docs/PROTOCOL.md``, made
  from the ``.proto``'s own comments (protoc's descriptor with its source information): the
  overview, the service, every message with its fields, every enum with its values. The site
  serves it on its "Write a bot" pages.

With no language named, every language is generated. ``--out DIR`` writes one language
elsewhere (the staleness test uses a temporary folder).
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
SOURCES = ("nimmt/v1/arena.proto",)
#: The Python code's folder and files (kept under these names for the staleness test).
OUT = ROOT / "arena" / "protocol"
GENERATED = ("arena_pb2.py", "arena_pb2_grpc.py", "arena_pb2.pyi")


@dataclass(frozen=True)
class Language:
    """One language's generated code: where it is committed, and how it is made."""

    name: str
    out: Path
    generate: Callable[[Path], list[Path]]


def generate(out: Path) -> list[Path]:
    """Write the Python code into ``out``; the paths written."""
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


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"{name} is missing: install the Debian package {package} (./dev does)")
    return path


def _debian_protoc(out: Path, flags: list[str], files: dict[str, str]) -> list[Path]:
    """Run Debian's protoc with ``flags`` (``{tmp}`` is the output folder) and copy ``files``
    (generated path -> path under ``out``) into ``out``."""
    protoc = _tool("protoc", "protobuf-compiler")
    with tempfile.TemporaryDirectory() as tmp:
        args = [protoc, f"-I{PROTOS}", *(flag.format(tmp=tmp) for flag in flags), *SOURCES]
        done = subprocess.run(args, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"protoc failed: {' '.join(args)}\n{done.stderr}")
        written = []
        for made, name in files.items():
            target = out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(tmp) / made, target)
            written.append(target)
    return written


def generate_cpp(out: Path) -> list[Path]:
    """Write the C++ messages and gRPC stub into ``out``; the paths written."""
    plugin = _tool("grpc_cpp_plugin", "protobuf-compiler-grpc")
    made = [f"nimmt/v1/arena.{kind}.{ext}" for kind in ("pb", "grpc.pb") for ext in ("h", "cc")]
    flags = ["--cpp_out={tmp}", "--grpc_out={tmp}", f"--plugin=protoc-gen-grpc={plugin}"]
    return _debian_protoc(out, flags, {path: path for path in made})


def generate_java(out: Path) -> list[Path]:
    """Write the Java messages (``nimmt.v1.ArenaOuterClass``) and gRPC stub
    (``nimmt.v1.ArenaGrpc``) into ``out``; the paths written."""
    plugin = _tool("grpc_java_plugin", "protobuf-compiler-grpc-java-plugin")
    made = ["nimmt/v1/ArenaOuterClass.java", "nimmt/v1/ArenaGrpc.java"]
    flags = ["--java_out={tmp}", "--grpc_out={tmp}", f"--plugin=protoc-gen-grpc={plugin}"]
    return _debian_protoc(out, flags, {path: path for path in made})


#: The Go module of the starter bot, and the package the generated code is in.
GO_MODULE = "nimmt-arena/bot"
GO_PACKAGE = f"{GO_MODULE}/nimmt/v1;nimmtv1"


def generate_go(out: Path) -> list[Path]:
    """Write the Go messages and gRPC client (package ``nimmtv1``) into ``out``; the paths
    written. The proto names no ``go_package``: the import path is given here (``M`` option)."""
    plugins = {
        "go": _tool("protoc-gen-go", "protoc-gen-go"),
        "go-grpc": _tool("protoc-gen-go-grpc", "protoc-gen-go-grpc"),
    }
    flags = []
    for name, plugin in plugins.items():
        flags += [
            f"--plugin=protoc-gen-{name}={plugin}",
            f"--{name}_out={{tmp}}",
            f"--{name}_opt=module={GO_MODULE}",
            f"--{name}_opt=M{SOURCES[0]}={GO_PACKAGE}",
        ]
    made = ["nimmt/v1/arena.pb.go", "nimmt/v1/arena_grpc.pb.go"]
    return _debian_protoc(out, flags, {path: Path(path).name for path in made})


#: The protobufjs the JavaScript kit loads its descriptor with (``npm ci`` installs it).
PROTOBUFJS = ROOT / "bots" / "starter-javascript" / "node_modules" / "protobufjs"
#: Node's part of ``generate_javascript``: the ``.proto`` (stdin) parsed as the kit's protobufjs
#: parses it, keeping field names as written, and its descriptor as JSON (stdout). It names no
#: file (the source comes on stdin) and keeps no comments, so the output is the same anywhere.
_TO_JSON = """
const protobuf = require(process.argv[1]);
const source = require("fs").readFileSync(0, "utf8");
const root = protobuf.parse(source, { keepCase: true }).root;
process.stdout.write(JSON.stringify(root.toJSON(), null, 2) + "\\n");
"""


def generate_javascript(out: Path) -> list[Path]:
    """Write the JavaScript kit's ``arena.json`` (protobufjs's descriptor, which the kit loads at
    start) and a copy of the ``.proto`` (for people) into ``out``; the paths written."""
    node = _tool("node", "nodejs")
    if not (PROTOBUFJS / "package.json").is_file():
        raise RuntimeError(f"{PROTOBUFJS} is missing: run `npm ci` in {PROTOBUFJS.parent.parent}")
    source = (PROTOS / SOURCES[0]).read_text(encoding="utf-8")
    done = subprocess.run(
        [node, "-e", _TO_JSON, str(PROTOBUFJS)],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"node could not describe {SOURCES[0]}:\n{done.stderr}")
    out.mkdir(parents=True, exist_ok=True)
    descriptor = out / "arena.json"
    descriptor.write_text(done.stdout, encoding="utf-8")
    target = out / "arena.proto"
    shutil.copyfile(PROTOS / SOURCES[0], target)
    return [descriptor, target]


# ---------------------------------------------------------------------------- the reference

#: Field types as the reference names them (descriptor.proto's FieldDescriptorProto.Type).
_SCALARS = {
    1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32",
    8: "bool", 9: "string", 12: "bytes", 13: "uint32", 15: "sfixed32", 16: "sfixed64",
    17: "sint32", 18: "sint64",
}  # fmt: skip


def _comment(text: str) -> str:
    """A proto comment as Markdown text: the common indent and trailing blanks removed."""
    lines = text.rstrip().split("\n")
    lines = [line[1:] if line.startswith(" ") else line for line in lines]
    return "\n".join(lines).strip("\n")


def _prose(text: str) -> str:
    """A long comment as Markdown: its indented lines (tables of names, a conversation) as
    preformatted blocks, the rest as paragraphs."""
    out: list[str] = []
    block = False
    for line in _comment(text).split("\n"):
        indented = line.startswith("  ") and line.strip()
        if indented and not block:
            out += ["```text"]
        elif not indented and block:
            out += ["```"]
        block = bool(indented)
        out.append(line)
    if block:
        out.append("```")
    return "\n".join(out)


def _cell(text: str) -> str:
    """A comment in a Markdown table cell: one line, pipes escaped."""
    return " ".join(_comment(text).split()).replace("|", "\\|")


def reference_markdown() -> str:
    """``docs/PROTOCOL.md``: the protocol's reference, from ``arena.proto``'s comments."""
    from google.protobuf import descriptor_pb2
    from grpc_tools import protoc

    include = Path(protoc.__file__).parent / "_proto"
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "arena.desc"
        args = [
            "grpc_tools.protoc",
            f"-I{PROTOS}",
            f"-I{include}",
            "--include_source_info",
            f"--descriptor_set_out={target}",
            *SOURCES,
        ]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed: {' '.join(args)}")
        files = descriptor_pb2.FileDescriptorSet.FromString(target.read_bytes())
    proto = files.file[0]
    comments: dict[tuple[int, ...], str] = {}
    overview = ""
    for location in proto.source_code_info.location:
        path = tuple(location.path)
        if location.leading_comments:
            comments[path] = location.leading_comments
        if path == (12,) and location.leading_detached_comments:  # before `syntax`
            overview = location.leading_detached_comments[0]
    if not overview:
        overview = comments.get((12,), "")
    out = [
        f"# The bot protocol: `{proto.package}` reference",
        "",
        f"Generated from `protos/{proto.name}` by `python protos/generate.py reference`; the",
        "comments in the `.proto` are the source of every sentence below.",
        "",
        _prose(overview),
        "",
    ]
    for s_index, service in enumerate(proto.service):
        out += [f"## Service `{service.name}`", "", _comment(comments.get((6, s_index), "")), ""]
        for m_index, method in enumerate(service.method):
            stream_in = "stream " if method.client_streaming else ""
            stream_out = "stream " if method.server_streaming else ""
            signature = (
                f"rpc {method.name}({stream_in}{method.input_type.rsplit('.', 1)[-1]}) "
                f"returns ({stream_out}{method.output_type.rsplit('.', 1)[-1]})"
            )
            out += [f"- `{signature}`: {_cell(comments.get((6, s_index, 2, m_index), ''))}", ""]
    out += ["## Messages", ""]
    for index, message in enumerate(proto.message_type):
        out += [f"### `{message.name}`", "", _prose(comments.get((4, index), "")), ""]
        if message.field:
            out += ["| field | type | number | meaning |", "| --- | --- | --- | --- |"]
            for f_index, field in enumerate(message.field):
                kind = _SCALARS.get(field.type) or field.type_name.rsplit(".", 1)[-1]
                if field.label == 3:
                    kind = f"repeated {kind}"
                oneof = ""
                if field.HasField("oneof_index") and not field.proto3_optional:
                    oneof = f" (one of `{message.oneof_decl[field.oneof_index].name}`)"
                meaning = _cell(comments.get((4, index, 2, f_index), ""))
                out.append(f"| `{field.name}` | `{kind}` | {field.number} | {meaning}{oneof} |")
            out.append("")
    out += ["## Enums", ""]
    for index, enum in enumerate(proto.enum_type):
        out += [f"### `{enum.name}`", "", _prose(comments.get((5, index), "")), ""]
        out += ["| value | number | meaning |", "| --- | --- | --- |"]
        for v_index, value in enumerate(enum.value):
            meaning = _cell(comments.get((5, index, 2, v_index), ""))
            out.append(f"| `{value.name}` | {value.number} | {meaning} |")
        out.append("")
    text = "\n".join(out)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.rstrip("\n") + "\n"


def generate_reference(out: Path) -> list[Path]:
    """Write ``PROTOCOL.md`` into ``out``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / "PROTOCOL.md"
    target.write_text(reference_markdown(), encoding="utf-8")
    return [target]


LANGUAGES = {
    language.name: language
    for language in (
        Language("python", OUT, generate),
        Language("cpp", ROOT / "bots" / "starter-cpp" / "nimmt" / "gen", generate_cpp),
        Language("java", ROOT / "bots" / "starter-java" / "src", generate_java),
        Language("go", ROOT / "bots" / "starter-go" / "nimmt" / "v1", generate_go),
        Language("javascript", ROOT / "bots" / "starter-javascript" / "nimmt", generate_javascript),
        Language("reference", ROOT / "docs", generate_reference),
    )
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("languages", nargs="*", help=f"of {', '.join(LANGUAGES)} (default: all)")
    parser.add_argument("--out", type=Path, help="target folder (one language only)")
    args = parser.parse_args(argv)
    names = args.languages or list(LANGUAGES)
    unknown = [name for name in names if name not in LANGUAGES]
    if unknown:
        parser.error(f"unknown language {unknown[0]!r}; the languages are {', '.join(LANGUAGES)}")
    if args.out is not None and len(names) != 1:
        parser.error("--out needs exactly one language")
    for name in names:
        language = LANGUAGES[name]
        for path in language.generate(args.out or language.out):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
