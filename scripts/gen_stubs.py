"""Regenerate every client stub from proto/ (the one regeneration script).

    python scripts/gen_stubs.py [--out DIR]

Python: messages (``*_pb2.py``), gRPC stubs (``*_pb2_grpc.py``) and type stubs
(``*.pyi``, mypy-protobuf) into ``clients/python``. The test suite runs this into a
temporary folder and fails if the committed stubs differ.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"


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
        f"--python_out={out}",
        f"--grpc_python_out={out}",
        f"--mypy_out={out}",
        f"--mypy_grpc_out={out}",
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
    parser.add_argument("--out", type=Path, default=ROOT / "clients" / "python")
    args = parser.parse_args()
    generated = args.out / "referee" / "v1"
    if generated.exists():
        shutil.rmtree(generated)
    generate_python(args.out)
    print(f"generated Python stubs in {args.out}")


if __name__ == "__main__":
    main()
