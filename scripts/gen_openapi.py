"""The OpenAPI 3.1 document of the HTTP/JSON face, generated from proto/ (comments included).

    python scripts/gen_openapi.py [--out FILE]

The HTTP face speaks the Connect protocol: each RPC is ``POST
/referee.v1.<Service>/<Method>`` with the request message as canonical proto3 JSON,
answered by the response message as JSON, or by a Connect error (``{code, message,
details}``) with the HTTP status the protocol gives that code. The schemas below follow the
proto3 JSON mapping: lowerCamelCase names, 64-bit integers as strings, bytes as base64,
enums by name. ``scripts/gen_stubs.py`` calls this, and a test fails if the committed
document (``service/edge/openapi.json``, served at ``/openapi.json``) is stale.

Every service of the package ``referee.v1`` is listed, except its client- and
bidirectionally streaming methods (``RefereeService/Play``): they need HTTP/2, which this
HTTP/1.1 port does not speak; call them on the gRPC port.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from google.protobuf import descriptor_pb2
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
OUT = ROOT / "service" / "edge" / "openapi.json"
PACKAGE = "referee.v1"

FDP = descriptor_pb2.FieldDescriptorProto
_SCALARS: dict[int, dict[str, Any]] = {
    FDP.TYPE_DOUBLE: {"type": "number", "format": "double"},
    FDP.TYPE_FLOAT: {"type": "number", "format": "float"},
    FDP.TYPE_INT32: {"type": "integer", "format": "int32"},
    FDP.TYPE_SINT32: {"type": "integer", "format": "int32"},
    FDP.TYPE_SFIXED32: {"type": "integer", "format": "int32"},
    FDP.TYPE_UINT32: {"type": "integer", "format": "int64", "minimum": 0},
    FDP.TYPE_FIXED32: {"type": "integer", "format": "int64", "minimum": 0},
    # proto3 JSON writes 64-bit integers as decimal strings and reads either form.
    FDP.TYPE_INT64: {"type": ["string", "integer"], "format": "int64", "pattern": r"^-?[0-9]+$"},
    FDP.TYPE_SINT64: {"type": ["string", "integer"], "format": "int64", "pattern": r"^-?[0-9]+$"},
    FDP.TYPE_SFIXED64: {"type": ["string", "integer"], "format": "int64", "pattern": r"^-?[0-9]+$"},
    FDP.TYPE_UINT64: {"type": ["string", "integer"], "format": "uint64", "pattern": r"^[0-9]+$"},
    FDP.TYPE_FIXED64: {"type": ["string", "integer"], "format": "uint64", "pattern": r"^[0-9]+$"},
    FDP.TYPE_BOOL: {"type": "boolean"},
    FDP.TYPE_STRING: {"type": "string"},
    FDP.TYPE_BYTES: {"type": "string", "format": "byte", "contentEncoding": "base64"},
}

# The Connect protocol's HTTP status for each code the referee gives (connectrpc.com/docs/protocol).
ERROR_STATUSES = {
    "400": "invalid_argument (malformed request or move) or failed_precondition (a move "
    "against the rules now)",
    "401": "unauthenticated: missing or invalid seat token",
    "403": "permission_denied: a valid token for another game or seat",
    "404": "not_found: unknown game id (or method)",
    "409": "aborted: `expectedVersion` is stale; ErrorInfo metadata `current_version` has the "
    "current one",
    "415": "the Content-Type is not application/json or application/proto",
    "429": "resource_exhausted: the store is full",
    "503": "unavailable: the store cannot be reached; nothing was applied, safe to retry",
}
SPECTATOR_RPCS = {
    f"{PACKAGE}.RefereeService/{name}" for name in ("GetView", "WatchGame", "GetHistory")
}
OPEN_RPCS = {f"{PACKAGE}.RefereeService/CreateGame"}  # no token needed


def descriptor_set() -> descriptor_pb2.FileDescriptorSet:
    """Every proto/ file compiled with its comments (source info), via grpc_tools' protoc."""
    include = Path(protoc.__file__).parent / "_proto"
    files = sorted(str(p.relative_to(PROTO)) for p in PROTO.rglob("*.proto"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "set.binpb"
        args = [
            "grpc_tools.protoc",
            f"-I{PROTO}",
            f"-I{include}",
            "--include_source_info",
            "--include_imports",
            f"--descriptor_set_out={out}",
            *files,
        ]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed")
        return descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())


def _comments(file: descriptor_pb2.FileDescriptorProto) -> dict[tuple[int, ...], str]:
    return {
        tuple(loc.path): " ".join(loc.leading_comments.split()).strip()
        for loc in file.source_code_info.location
        if loc.leading_comments.strip()
    }


class _Builder:
    def __init__(self, files: descriptor_pb2.FileDescriptorSet) -> None:
        self.schemas: dict[str, Any] = {}
        self.services: list[tuple[str, descriptor_pb2.MethodDescriptorProto, str]] = []
        for file in files.file:
            self._file(file)

    def _file(self, file: descriptor_pb2.FileDescriptorProto) -> None:
        comments = _comments(file)
        prefix = file.package
        for i, message in enumerate(file.message_type):
            self._message(f"{prefix}.{message.name}", message, comments, (4, i))
        for i, enum in enumerate(file.enum_type):
            self._enum(f"{prefix}.{enum.name}", enum, comments.get((5, i), ""))
        for s, service in enumerate(file.service):
            for m, method in enumerate(service.method):
                name = f"{prefix}.{service.name}"
                self.services.append((name, method, comments.get((6, s, 2, m), "")))

    def _enum(self, name: str, enum: descriptor_pb2.EnumDescriptorProto, doc: str) -> None:
        schema: dict[str, Any] = {"type": "string", "enum": [v.name for v in enum.value]}
        if doc:
            schema["description"] = doc
        self.schemas[name] = schema

    def _message(
        self,
        name: str,
        message: descriptor_pb2.DescriptorProto,
        comments: dict[tuple[int, ...], str],
        path: tuple[int, ...],
    ) -> None:
        maps = {n.name for n in message.nested_type if n.options.map_entry}
        for i, nested in enumerate(message.nested_type):
            if not nested.options.map_entry:
                self._message(f"{name}.{nested.name}", nested, comments, (*path, 3, i))
        for i, enum in enumerate(message.enum_type):
            self._enum(f"{name}.{enum.name}", enum, comments.get((*path, 4, i), ""))
        properties: dict[str, Any] = {}
        oneofs: dict[int, list[str]] = {}
        for i, field in enumerate(message.field):
            prop = self._field(field, message, maps)
            doc = comments.get((*path, 2, i), "")
            if doc:
                prop = {**prop, "description": doc}
            properties[field.json_name] = prop
            if field.HasField("oneof_index") and not field.proto3_optional:
                oneofs.setdefault(field.oneof_index, []).append(field.json_name)
        schema: dict[str, Any] = {
            "type": "object",
            "properties": properties,
            "additionalProperties": False,
        }
        notes = [f"at most one of {', '.join(group)}" for group in oneofs.values()]
        doc = " ".join(filter(None, [comments.get(path, ""), *(n + "." for n in notes)]))
        if doc:
            schema["description"] = doc
        self.schemas[name] = schema

    def _field(
        self,
        field: descriptor_pb2.FieldDescriptorProto,
        message: descriptor_pb2.DescriptorProto,
        maps: set[str],
    ) -> dict[str, Any]:
        type_name = field.type_name.lstrip(".")
        if field.type == FDP.TYPE_MESSAGE and type_name.rsplit(".", 1)[-1] in maps:
            entry = next(n for n in message.nested_type if n.name == type_name.rsplit(".", 1)[-1])
            value = self._single(entry.field[1])
            return {"type": "object", "additionalProperties": value}
        single = self._single(field)
        if field.label == FDP.LABEL_REPEATED:
            return {"type": "array", "items": single}
        return single

    @staticmethod
    def _single(field: descriptor_pb2.FieldDescriptorProto) -> dict[str, Any]:
        if field.type in (FDP.TYPE_MESSAGE, FDP.TYPE_ENUM):
            return {"$ref": f"#/components/schemas/{field.type_name.lstrip('.')}"}
        return dict(_SCALARS[field.type])


def _operation(
    service: str, method: descriptor_pb2.MethodDescriptorProto, doc: str
) -> dict[str, Any]:
    request = method.input_type.lstrip(".")
    response = method.output_type.lstrip(".")
    streaming = method.server_streaming
    media = "application/connect+json" if streaming else "application/json"
    ok_doc = "the response message"
    if streaming:
        ok_doc = (
            "a Connect server stream: each frame is 1 flag byte and a 4-byte big-endian "
            "length, then one message as JSON; the last frame (flag 0x02) holds "
            "`{}` or `{error: {code, message, details}}`"
        )
        doc += (
            " Connect streaming protocol: send the request as one frame (flag 0x00, "
            "length, JSON) with Content-Type application/connect+json."
        )
    operation: dict[str, Any] = {
        "operationId": method.name,
        "summary": method.name,
        "description": doc,
        "tags": [service],
        "parameters": [
            {
                "name": "Connect-Protocol-Version",
                "in": "header",
                "required": False,
                "schema": {"type": "string", "enum": ["1"]},
            }
        ],
        "requestBody": {
            "required": True,
            "content": {media: {"schema": {"$ref": f"#/components/schemas/{request}"}}},
        },
        "responses": {
            "200": {
                "description": ok_doc,
                "content": {media: {"schema": {"$ref": f"#/components/schemas/{response}"}}},
            },
            **{
                status: {
                    "description": text,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/connect.Error"}
                        }
                    },
                }
                for status, text in ERROR_STATUSES.items()
            },
        },
    }
    if streaming:
        operation["x-connect-streaming"] = "server"
    full_name = f"{service}/{method.name}"
    if full_name in OPEN_RPCS:
        operation["security"] = []
    elif full_name in SPECTATOR_RPCS:
        operation["security"] = [{"seatToken": []}, {}]
    return operation


def _served_over_http1(service: str, method: descriptor_pb2.MethodDescriptorProto) -> bool:
    """A method of the package that HTTP/1.1 can carry: unary or server streaming."""
    return service.startswith(f"{PACKAGE}.") and not method.client_streaming


_ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A Connect error. `details` holds a google.rpc.ErrorInfo whose `reason` "
    "is the referee's stable code (its decoded form is under `debug`).",
    "required": ["code"],
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "details": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "type": {"type": "string"},
                    "value": {"type": "string", "contentEncoding": "base64"},
                    "debug": {"type": "object"},
                },
            },
        },
    },
}


def document() -> dict[str, Any]:
    built = _Builder(descriptor_set())
    paths = {
        f"/{service}/{method.name}": {"post": _operation(service, method, doc)}
        for service, method, doc in built.services
        if _served_over_http1(service, method)
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Referee HTTP/JSON API",
            "version": "v1",
            "description": (__doc__ or "").split("\n\n", 2)[2].strip(),
        },
        "servers": [{"url": "http://127.0.0.1:8080"}],
        "security": [{"seatToken": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "the seat token CreateGame returned for your seat",
                }
            },
            "schemas": {"connect.Error": _ERROR_SCHEMA, **dict(sorted(built.schemas.items()))},
        },
    }


def write(out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document(), indent=2, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT)
    write(parser.parse_args().out)


if __name__ == "__main__":
    main()
