#!/usr/bin/env bash
# Build the Go smoke program from the committed sources and play it against a live referee.
#
#   bash smoke.sh BUILD_DIR GRPC_ADDRESS HTTP_URL     (cwd: clients/go; HTTP_URL is unused:
#                                                     the Go client speaks gRPC)
#
# CI has no module proxy, so this builds in GOPATH mode from Debian's Go sources in
# /usr/share/gocode (golang-google-grpc-dev, golang-google-protobuf-dev,
# golang-google-genproto-dev, golang-github-golang-protobuf-1-5-dev). BUILD_DIR/gopath only
# holds a symlink that gives this folder its import path, referee.local/clients/go;
# BUILD_DIR/cache is Go's build cache, so a warm run only relinks, or not even that.
set -euo pipefail

build_dir=$(realpath "$1")
grpc_address=$2

# grpc 1.33 marshals through github.com/golang/protobuf; its 1.3 sources (Debian's
# golang-github-golang-protobuf-1-3-dev) predate the google.golang.org/protobuf messages
# the stubs are generated as, and panic on the first reply.
if ! grep -q google.golang.org/protobuf /usr/share/gocode/src/github.com/golang/protobuf/go.mod 2>/dev/null; then
    echo "build: FAILED: github.com/golang/protobuf 1.4 or later is needed:" \
        "apt-get install golang-github-golang-protobuf-1-5-dev" >&2
    exit 1
fi

gopath=$build_dir/gopath
mkdir -p "$gopath/src/referee.local/clients"
ln -sfn "$PWD" "$gopath/src/referee.local/clients/go"

started=$SECONDS
# GOENV=off: a user's `go env -w` settings (GOFLAGS, GOPROXY, ...) must not change the build.
(
    cd "$gopath/src/referee.local/clients/go"
    env -u GOFLAGS GOENV=off GO111MODULE=off GOPROXY=off \
        GOPATH="$gopath:/usr/share/gocode" GOCACHE="$build_dir/cache" \
        go build -o "$build_dir/smoke" ./cmd/smoke
)
echo "build: ok in $((SECONDS - started)) s ($(go version | cut -d' ' -f3), GOPATH mode)"

"$build_dir/smoke" "$grpc_address"
