#!/usr/bin/env bash
# The C# client's part of the clients stage (scripts/client_smoke.py):
#   bash smoke.sh BUILD_DIR GRPC_ADDRESS HTTP_URL
# Compiles src/ (the Unity/Godot drop-in) into BUILD_DIR/Referee.Client.dll, and the offline
# self-test and the smoke program against it, with Debian's Mono compiler (mcs), each only
# when one of its inputs is newer; then runs the self-test and plays the smoke script over
# the referee's HTTP/JSON face (HTTP_URL; this client does not speak gRPC).
set -euo pipefail
mkdir -p "$1"
build=$(cd "$1" && pwd)
http_url=$3
cd "$(dirname "$0")"
# C# 7.2 is the newest language mcs accepts; -warnaserror keeps the drop-in warning-free.
MCS=(mcs -langversion:7.2 -warnaserror+ -debug -nologo -r:System.Net.Http)

# Whether $1 is missing or older than any of the other paths (a folder counts by its files
# and by itself, so a deleted source also rebuilds).
stale() {
  local target=$1
  shift
  [ ! -e "$target" ] || [ -n "$(find "$@" -newer "$target" -print -quit)" ]
}

# compile OUTPUT INPUTS... -- MCS_ARGUMENTS...: mcs into a scratch folder, then move the
# assembly in, so an interrupted build never leaves a fresh-looking broken one behind.
compile() {
  local output=$1 inputs=() scratch
  shift
  while [ "$1" != "--" ]; do inputs+=("$1"); shift; done
  shift
  if ! stale "$output" "${inputs[@]}" smoke.sh; then
    echo "build: $(basename "$output") is up to date"
    return
  fi
  scratch=$(mktemp -d "$build/.compile.XXXXXX")
  local started=$SECONDS
  "${MCS[@]}" -out:"$scratch/$(basename "$output")" "$@" || { rm -rf "$scratch"; exit 1; }
  mv "$scratch"/* "$build/"
  rmdir "$scratch"
  echo "build: compiled $(basename "$output") in $((SECONDS - started)) s"
}

dll=$build/Referee.Client.dll
compile "$dll" src -- -target:library src/*.cs
compile "$build/SelfTest.exe" test "$dll" -- -r:"$dll" test/SelfTest.cs
compile "$build/Smoke.exe" smoke "$dll" -- -r:"$dll" smoke/Smoke.cs

mono --debug "$build/SelfTest.exe"
mono --debug "$build/Smoke.exe" "$http_url"
