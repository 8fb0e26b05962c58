#!/usr/bin/env bash
# Build the C++ client (the generated stubs in gen/ as the static library referee_client,
# and the smoke program smoke/smoke.cc) with CMake, g++ and Debian's gRPC C++, then play the
# smoke script against a live referee.
#
#   bash smoke.sh BUILD_DIR GRPC_ADDRESS [HTTP_URL]
#
# Run from clients/cpp (scripts/client_smoke.py does). BUILD_DIR is configured once and
# then only rebuilt, so a warm run compiles nothing that did not change. HTTP_URL is
# unused: this client speaks gRPC.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: bash smoke.sh BUILD_DIR GRPC_ADDRESS [HTTP_URL]" >&2
  exit 2
fi
build=$1
address=$2

if ! command -v cmake >/dev/null; then
  echo "configure: FAILED: cmake is needed (apt-get install cmake)" >&2
  exit 1
fi
mkdir -p "$build"
started=$SECONDS
# CMAKE_BUILD_TYPE empty: g++ with neither optimisation nor debug information, its fastest
# compile of the 6 MB of generated code (the smoke program needs no speed).
if [ ! -f "$build/CMakeCache.txt" ]; then
  # A failed configure leaves no cache behind, so the next run configures again.
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE= >"$build/configure.log" 2>&1 || {
    rm -f "$build/CMakeCache.txt"
    cat "$build/configure.log" >&2
    echo "configure: FAILED" >&2
    exit 1
  }
fi
cmake --build "$build" -j 2 >"$build/build.log" 2>&1 || {
  cat "$build/build.log" >&2
  echo "build: FAILED" >&2
  exit 1
}
echo "build: ok in $((SECONDS - started)) s (g++ $(g++ -dumpfullversion), grpc++ $(pkg-config --modversion grpc++), protobuf $(pkg-config --modversion protobuf))"

"$build/referee_smoke" "$address"
