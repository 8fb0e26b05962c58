"""Generate the TypeScript client's messages and service descriptors from proto/.

    python scripts/gen_stubs_typescript.py [--out DIR]

protoc (grpcio-tools) runs protoc-gen-es v2 from ``clients/typescript/node_modules`` (its
version is pinned in that package's lock file), with ``target=ts`` and ``.js`` import
extensions (ES modules for Node and bundlers), into ``clients/typescript/src/gen``. Besides
every ``proto/**/*.proto`` it generates ``google/rpc/error_details.proto`` (from
googleapis-common-protos, the same definitions the service uses) so the client can read the
``google.rpc.ErrorInfo`` detail of every rejection. ``scripts/gen_stubs.py`` calls
:func:`generate_typescript`; the test suite regenerates into a temporary folder and
compares byte for byte.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
PACKAGE = ROOT / "clients" / "typescript"
PLUGIN = PACKAGE / "node_modules" / ".bin" / "protoc-gen-es"
ERROR_DETAILS = "google/rpc/error_details.proto"
OPTIONS = "target=ts,import_extension=js"


def proto_files() -> list[str]:
    return sorted(p.relative_to(PROTO).as_posix() for p in PROTO.rglob("*.proto"))


def _googleapis_include() -> Path:
    """The include folder holding google/rpc/error_details.proto (googleapis-common-protos)."""
    from google.rpc import error_details_pb2

    include = Path(error_details_pb2.__file__).resolve().parent.parent.parent
    if not (include / ERROR_DETAILS).is_file():
        raise SystemExit(f"{ERROR_DETAILS} not found under {include} (googleapis-common-protos)")
    return include


def require_plugin() -> Path:
    """protoc-gen-es as clients/typescript's lock file pins it; a clear failure without it."""
    if not PLUGIN.exists():
        raise SystemExit(
            f"{PLUGIN.relative_to(ROOT)} is missing: run ./dev test once, "
            "or npm ci in clients/typescript"
        )
    return PLUGIN


def generate_typescript(out: Path) -> None:
    """Write protoc-gen-es's output for every proto (and google.rpc's error details) to ``out``."""
    plugin = require_plugin()
    out.mkdir(parents=True, exist_ok=True)
    wkt = Path(protoc.__file__).parent / "_proto"
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO}",
        f"-I{wkt}",
        f"-I{_googleapis_include()}",
        f"--plugin=protoc-gen-es={plugin}",
        f"--es_out={out}",
        f"--es_opt={OPTIONS}",
        *proto_files(),
        ERROR_DETAILS,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed (protoc-gen-es)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=PACKAGE / "src" / "gen")
    args = parser.parse_args()
    require_plugin()  # before removing the old output
    if args.out.exists():
        shutil.rmtree(args.out)
    generate_typescript(args.out)
    print(f"generated TypeScript stubs in {args.out}")


if __name__ == "__main__":
    main()
