"""Regenerate every client stub and the OpenAPI document from proto/ (the one script).

    python scripts/gen_stubs.py [--root DIR]

- Python: messages (``*_pb2.py``), gRPC stubs (``*_pb2_grpc.py``), Connect stubs
  (``*_connect.py``, connect-python) and type stubs (``*.pyi``, mypy-protobuf) into
  ``clients/python``.
- TypeScript: protobuf-es messages and service descriptors into
  ``clients/typescript/src/gen`` (needs ``npm ci`` in clients/typescript, which ./dev runs).
- Go, C++ and Java: messages and gRPC services into ``clients/go``, ``clients/cpp/gen`` and
  ``clients/java/gen``, with Debian's protoc and plugins (``scripts/gen_stubs_native.py``).
- OpenAPI: ``service/edge/openapi.json``, the document of the HTTP/JSON face.

``--root`` writes the same tree under another folder: the test suite regenerates into a
temporary one and fails if anything committed differs.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the repository's packages are importable

from scripts.gen_openapi import write as write_openapi  # noqa: E402
from scripts.gen_stubs_native import generate_native  # noqa: E402
from scripts.gen_stubs_typescript import generate_typescript  # noqa: E402

PROTO = ROOT / "proto"
PYTHON = Path("clients/python")
TYPESCRIPT = Path("clients/typescript/src/gen")
OPENAPI = Path("service/edge/openapi.json")


def proto_files() -> list[str]:
    return sorted(str(p.relative_to(PROTO)) for p in PROTO.rglob("*.proto"))


def generate_python(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    bindir = Path(sys.executable).parent
    include = Path(protoc.__file__).parent / "_proto"
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO}",
        f"-I{include}",
        f"--plugin=protoc-gen-mypy={bindir / 'protoc-gen-mypy'}",
        f"--plugin=protoc-gen-mypy_grpc={bindir / 'protoc-gen-mypy_grpc'}",
        f"--plugin=protoc-gen-connect-python={bindir / 'protoc-gen-connect-python'}",
        f"--python_out={out}",
        f"--grpc_python_out={out}",
        f"--mypy_out={out}",
        f"--mypy_grpc_out={out}",
        f"--connect-python_out={out}",
        *proto_files(),
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    package = out / "referee"
    for init in (package / "__init__.py", package / "v1" / "__init__.py"):
        init.write_text('"""Generated from proto/ by scripts/gen_stubs.py; do not edit."""\n')
    (package / "py.typed").touch()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=ROOT)
    root = parser.parse_args().root
    for generated in (root / PYTHON / "referee" / "v1", root / TYPESCRIPT):
        if generated.exists():
            shutil.rmtree(generated)
    generate_python(root / PYTHON)
    generate_typescript(root / TYPESCRIPT)
    generate_native(root)
    write_openapi(root / OPENAPI)
    print(f"generated every client stub and the OpenAPI document under {root}")


if __name__ == "__main__":
    main()
