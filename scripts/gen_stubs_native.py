"""Generate the Go, C++ and Java stubs (messages and gRPC services) from proto/.

    python scripts/gen_stubs_native.py [--root DIR]

These run Debian's ``protoc`` and gRPC plugins (packages protobuf-compiler,
protobuf-compiler-grpc, protoc-gen-go, protoc-gen-go-grpc and
protobuf-compiler-grpc-java-plugin, which ``./dev test`` installs), not grpcio-tools'
protoc: generated Go, C++ and Java code is tied to the runtime it was generated for, and the
runtimes these stubs are built and played against in CI are Debian's (protobuf 3.21,
grpc++ 1.51, grpc-go 1.33, grpc-java 1.41). A frontend on another runtime regenerates with
its own protoc: each client's README gives the command.

- Go: ``clients/go/referee/v1`` (package ``refereev1``, module :data:`GO_MODULE`).
- C++: ``clients/cpp/gen`` (namespace ``referee::v1``), with ``google/rpc/status.proto``
  and ``error_details.proto`` (googleapis-common-protos' files, the same definitions the
  service uses), whose messages carry every rejection's reason.
- Java: ``clients/java/gen`` (package ``referee.v1``); ``com.google.rpc`` comes from a
  common-protos jar instead (generating it here would clash with the one on every Maven
  user's classpath; clients/java/README.md says which).

``scripts/gen_stubs.py`` calls :func:`generate_native`; the test suite regenerates into a
temporary folder and compares byte for byte.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path

from google.rpc import status_pb2

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
# The Go module of clients/go. Not published yet: docs/releasing.md says what to change
# (here, then regenerate) when the repository gets its public address.
GO_MODULE = "referee.local/clients/go"
GO_PACKAGE = f"{GO_MODULE}/referee/v1;refereev1"
GO = Path("clients/go")
CPP = Path("clients/cpp/gen")
JAVA = Path("clients/java/gen")
RPC_PROTOS = ("google/rpc/status.proto", "google/rpc/error_details.proto")
# The protoc whose output is committed: Debian bookworm's. Another minor version writes
# different files (and code another runtime refuses), so the staleness test would fail
# for a reason that has nothing to do with proto/.
PROTOC_VERSION = re.compile(r"libprotoc 3\.21\.\d+")
PLUGINS = {
    "grpc_cpp": "/usr/bin/grpc_cpp_plugin",
    "grpc-java": "/usr/bin/grpc_java_plugin",
}
PACKAGES = (
    "protobuf-compiler protobuf-compiler-grpc protoc-gen-go protoc-gen-go-grpc "
    "protobuf-compiler-grpc-java-plugin"
)


def proto_files() -> list[str]:
    return sorted(p.relative_to(PROTO).as_posix() for p in PROTO.rglob("*.proto"))


def _protoc() -> str:
    """Debian's protoc, checked for the version the committed stubs came from."""
    protoc = shutil.which("protoc")
    missing = [name for name in ("protoc-gen-go", "protoc-gen-go-grpc") if not shutil.which(name)]
    missing += [path for path in PLUGINS.values() if not Path(path).exists()]
    if protoc is None or missing:
        raise SystemExit(
            f"protoc and its plugins are needed ({', '.join(missing) or 'protoc'} missing): "
            f"apt-get install {PACKAGES}, or run ./dev test once"
        )
    version = subprocess.run([protoc, "--version"], capture_output=True, text=True, check=True)
    if not PROTOC_VERSION.fullmatch(version.stdout.strip()):
        raise SystemExit(
            f"{protoc} is {version.stdout.strip()}; the committed stubs come from libprotoc 3.21 "
            "(Debian bookworm's protobuf-compiler)"
        )
    return protoc


def _googleapis_include() -> Path:
    """The include folder holding google/rpc/*.proto (googleapis-common-protos)."""
    include = Path(status_pb2.__file__).resolve().parent.parent.parent
    for name in RPC_PROTOS:
        if not (include / name).is_file():
            raise SystemExit(f"{name} not found under {include} (googleapis-common-protos)")
    return include


def _run(protoc: str, *args: str) -> None:
    result = subprocess.run([protoc, f"-I{PROTO}", *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"protoc failed: {result.stderr.strip()}")


def generate_go(protoc: str, out: Path) -> None:
    """protoc-gen-go and protoc-gen-go-grpc, every file mapped to package refereev1."""
    out.mkdir(parents=True, exist_ok=True)
    files = proto_files()
    mapping = [f"M{name}={GO_PACKAGE}" for name in files]
    _run(
        protoc,
        f"--go_out={out}",
        f"--go_opt=module={GO_MODULE}",
        *(f"--go_opt={m}" for m in mapping),
        f"--go-grpc_out={out}",
        f"--go-grpc_opt=module={GO_MODULE}",
        *(f"--go-grpc_opt={m}" for m in mapping),
        *files,
    )


def generate_cpp(protoc: str, out: Path) -> None:
    """Messages and gRPC services, plus google.rpc's Status and ErrorInfo messages."""
    out.mkdir(parents=True, exist_ok=True)
    _run(
        protoc,
        f"-I{_googleapis_include()}",
        f"--cpp_out={out}",
        f"--grpc_out={out}",
        f"--plugin=protoc-gen-grpc={PLUGINS['grpc_cpp']}",
        *proto_files(),
    )
    _run(protoc, f"-I{_googleapis_include()}", f"--cpp_out={out}", *RPC_PROTOS)


def generate_java(protoc: str, out: Path) -> None:
    """Messages (one outer class per file) and the *Grpc service classes."""
    out.mkdir(parents=True, exist_ok=True)
    _run(
        protoc,
        f"--java_out={out}",
        f"--grpc-java_out={out}",
        f"--plugin=protoc-gen-grpc-java={PLUGINS['grpc-java']}",
        *proto_files(),
    )


def generated_folders(root: Path) -> list[Path]:
    """What :func:`generate_native` writes (and removes first)."""
    return [root / GO / "referee", root / CPP, root / JAVA]


def generate_native(root: Path) -> None:
    """Write the Go, C++ and Java stubs under ``root``."""
    protoc = _protoc()
    for folder in generated_folders(root):
        if folder.exists():
            shutil.rmtree(folder)
    generate_go(protoc, root / GO)
    generate_cpp(protoc, root / CPP)
    generate_java(protoc, root / JAVA)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=ROOT)
    generate_native(parser.parse_args().root)
    print("generated Go, C++ and Java stubs")


if __name__ == "__main__":
    main()
