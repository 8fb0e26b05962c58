"""clients/typescript is a real npm package: ``npm pack`` makes the archive a release
publishes (docs/releasing.md), a scratch project installs that archive (not a link to the
source tree), type-checks a TypeScript program against its declarations, and runs it
against a live referee over gRPC: create a table, list the legal moves, submit one, and read
the typed refusal of the same move again."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from scripts.set_version import release_version
from service.process.server import Running
from tests.clients.commands import run

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
TSC = PACKAGE / "node_modules" / ".bin" / "tsc"
# npm pack + npm install (the dependencies from npm's cache, else the registry) + tsc + node
BUDGET_SECONDS = 120.0

PROGRAM = r"""
import { readFileSync } from "node:fs";
import { Code, createRefereeClient, refereeError } from "@referee/client";
import { createRefereeGrpcTransport } from "@referee/client/node";

const transport = createRefereeGrpcTransport(`http://${process.argv[2]}`, {
  defaultTimeoutMs: 10_000,
});
const created = await createRefereeClient(transport).createGame({ game: "gang_of_four", seats: 4 });
const first = createRefereeClient(transport, created.seatTokens[0].token);
const { view } = await first.getView({ gameId: created.gameId });
const seat = createRefereeClient(transport, created.seatTokens[view!.toAct[0]].token);
const legal = await seat.listLegalMoves({ gameId: created.gameId });
const reply = await seat.submitMove({
  gameId: created.gameId,
  move: legal.moves[0],
  clientMoveId: "m1",
  expectedVersion: legal.version,
});
let refused: [string, string | undefined] = ["none", undefined];
try {
  await seat.submitMove({ gameId: created.gameId, move: legal.moves[0], clientMoveId: "m2" });
} catch (error) {
  const { code, reason } = refereeError(error);
  refused = [Code[code], reason];
}
const installed = import.meta.resolve("@referee/client");
const manifest = JSON.parse(readFileSync(new URL("../package.json", installed), "utf8"));
console.log(JSON.stringify({
  installed,
  version: manifest.version,
  moves: legal.moves.length,
  submitted: Number(reply.version),
  refused,
}));
"""

TSCONFIG = {
    "compilerOptions": {
        "target": "ES2022",
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "strict": True,
        "types": ["node"],
        "skipLibCheck": False,
        "outDir": "out",
    },
    "files": ["main.ts"],
}


async def test_npm_pack_installs_into_a_scratch_project_that_plays(
    referee_server: Running, tmp_path: Path
) -> None:
    npm, node = shutil.which("npm"), shutil.which("node")
    assert npm and node, "npm and node (20 or later) are needed: ./dev test sets them up"
    assert (PACKAGE / "dist" / "index.js").is_file(), "clients/typescript is not built: ./dev test"
    deadline = time.monotonic() + BUDGET_SECONDS
    version = release_version()
    packed = tmp_path / "packed"
    packed.mkdir()
    await run(npm, "pack", "--silent", "--pack-destination", packed, deadline=deadline, cwd=PACKAGE)
    archive = packed / f"referee-client-{version}.tgz"
    assert archive.is_file(), sorted(p.name for p in packed.iterdir())

    app = tmp_path / "app"
    app.mkdir()
    manifest = {"name": "scratch", "private": True, "type": "module"}
    (app / "package.json").write_text(json.dumps(manifest))
    install = ("install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error")
    types = PACKAGE / "node_modules" / "@types" / "node"
    await run(npm, *install, archive, types, deadline=deadline, cwd=app)
    (app / "main.ts").write_text(PROGRAM)
    (app / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    await run(TSC, "-p", "tsconfig.json", deadline=deadline, cwd=app)
    out = await run(
        node, app / "out" / "main.js", referee_server.address, deadline=deadline, cwd=app
    )
    report = json.loads(out.strip().splitlines()[-1])

    installed = Path(report["installed"].removeprefix("file://"))
    unpacked = app / "node_modules" / "@referee" / "client"
    assert installed.is_relative_to(unpacked), installed
    assert not unpacked.is_symlink(), "npm linked the source tree instead of the archive"
    assert report["version"] == version
    assert report["moves"] > 0
    assert report["submitted"] == 1
    assert report["refused"] == ["FailedPrecondition", "NOT_YOUR_TURN"]
