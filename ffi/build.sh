#!/usr/bin/env bash
# Builds libwisp.dylib on macOS from the Swift sources in ffi/darwin (current
# Xcode, macOS 27 SDK). `deno task native` runs it there; the release runs it
# with --universal. Linux builds its libraries with the C compiler instead
# (scripts/native.ts).
#
#   ffi/build.sh [--universal] [--out DIR]    (DIR defaults to ffi/build)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/build"
universal=false
while [ $# -gt 0 ]; do
  case "$1" in
    --universal) universal=true ;;
    --out) out="$2"; shift ;;
    *) echo "ffi/build.sh: unknown argument $1 (use --universal, --out DIR)" >&2; exit 64 ;;
  esac
  shift
done
mkdir -p "$out"
sources=("$here"/darwin/Buffer.swift "$here"/darwin/Processes.swift "$here"/darwin/Model.swift)
build() { # build <target triple or ""> <output>
  xcrun swiftc -O -emit-library -module-name WispFFI -swift-version 5 \
    ${1:+-target "$1"} \
    -Xlinker -install_name -Xlinker @rpath/libwisp.dylib \
    -o "$2" "${sources[@]}"
}
if $universal; then
  build arm64-apple-macos27 "$out/libwisp-arm64.dylib"
  build x86_64-apple-macos27 "$out/libwisp-x86_64.dylib"
  lipo -create -output "$out/libwisp.dylib.partial" "$out/libwisp-arm64.dylib" "$out/libwisp-x86_64.dylib"
  rm "$out/libwisp-arm64.dylib" "$out/libwisp-x86_64.dylib"
else
  build "" "$out/libwisp.dylib.partial"
fi
# Renamed into place, so that a library a process has loaded is never rewritten.
mv "$out/libwisp.dylib.partial" "$out/libwisp.dylib"
