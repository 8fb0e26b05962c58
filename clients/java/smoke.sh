#!/usr/bin/env bash
# Build the Java client (the generated stubs in gen/ and the smoke program in smoke/) with
# Debian's JDK and grpc-java jars, then play the smoke script against a live referee.
#
#   bash smoke.sh BUILD_DIR GRPC_ADDRESS [HTTP_URL]
#
# Run from clients/java (scripts/client_smoke.py does). The stubs and the program compile
# into BUILD_DIR/classes/{gen,smoke}, each only when a source is newer than its last build,
# so a warm run only starts the JVM. HTTP_URL is unused: this client speaks gRPC.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: bash smoke.sh BUILD_DIR GRPC_ADDRESS [HTTP_URL]" >&2
  exit 2
fi
build=$1
address=$2
classes=$build/classes

# Debian's jars: libgrpc-java, libprotobuf-java, libgoogle-common-protos-java, libguava-java
# (+ liberror-prone-java), libgeronimo-annotation-1.3-spec-java (javax.annotation.Generated,
# which the generated services carry), libnetty-java and libperfmark-java (the transport).
compile_jars=(grpc-api grpc-context grpc-stub grpc-protobuf protobuf proto-google-common-protos
  guava error_prone_annotations geronimo-annotation-1.3-spec)
runtime_jars=(grpc-api grpc-context grpc-stub grpc-protobuf grpc-protobuf-lite protobuf
  proto-google-common-protos guava grpc-core grpc-netty netty-buffer netty-codec
  netty-codec-http netty-codec-http2 netty-common netty-handler netty-resolver netty-transport
  perfmark-api)

classpath() {
  local path="" jar
  for jar in "$@"; do
    path+=":/usr/share/java/$jar.jar"
  done
  echo "${path#:}"
}

# javac on the 240k lines of gen/ is the cold run's cost: the client compiler alone (C1) and
# the serial collector halve its CPU time and take a fifth of the memory of the defaults.
JAVAC=(javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -proc:none -encoding UTF-8)

# compile DIR CLASSPATH JAVAC_FLAGS...: compiles the .java files under DIR into
# BUILD_DIR/classes/DIR, unless none of them (nor this script) changed since the last build.
compile() {
  local dir=$1 path=$2
  shift 2
  local out=$classes/$dir stamp=$classes/$dir.stamp
  if [ -f "$stamp" ] && [ -z "$(find "$dir" smoke.sh -newer "$stamp" -print -quit)" ]; then
    echo "build $dir: up to date"
    return
  fi
  local started=$SECONDS
  rm -rf "$out" "$stamp"
  mkdir -p "$out"
  # Stamped with the time the compile started: a source saved meanwhile is seen next run.
  touch "$stamp.next"
  find "$dir" -name '*.java' >"$out.sources"
  "${JAVAC[@]}" "$@" -d "$out" -cp "$path" "@$out.sources"
  mv "$stamp.next" "$stamp"
  echo "build $dir: compiled in $((SECONDS - started)) s"
}

compile gen "$(classpath "${compile_jars[@]}")" -nowarn
# The program is rebuilt against freshly built stubs.
if [ "$classes/gen.stamp" -nt "$classes/smoke.stamp" ]; then rm -f "$classes/smoke.stamp"; fi
compile smoke "$classes/gen:$(classpath "${compile_jars[@]}")" -Xlint:all

java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
  -cp "$classes/smoke:$classes/gen:$(classpath "${runtime_jars[@]}")" \
  referee.smoke.Smoke "$address"
