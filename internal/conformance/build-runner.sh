#!/usr/bin/env bash
# build-runner.sh builds protobuf's conformance_test_runner (C++) from Debian's
# protobuf source package against Debian's libprotobuf-dev, and caches it outside
# the repository. It installs what it needs (apt-get, only when missing), adds a
# deb-src entry for this Debian release if there is none, and does nothing when the
# runner for this version is already cached.
#
# Its stdout is two lines, "runner <path of conformance_test_runner>" and
# "source <root of the unpacked protobuf source tree>" (whose conformance.proto
# and test message .proto files the testees compile); progress goes to stderr.
set -euo pipefail

VERSION=3.21.12
CACHE="${RPCKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rpckit}/conformance-$VERSION"
SRC="$CACHE/protobuf-$VERSION"
RUNNER="$CACHE/bin/conformance_test_runner"
JOBS="${JOBS:-2}"

log() { echo "build-runner: $*" >&2; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# has_deb_src reports whether any apt source already offers source packages.
has_deb_src() {
	grep -qsE '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list && return 0
	grep -qsE '^[[:space:]]*Types:.*deb-src' /etc/apt/sources.list.d/*.sources && return 0
	return 1
}

add_deb_src() {
	local codename
	codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
	[ -n "$codename" ] || { log "no VERSION_CODENAME in /etc/os-release"; exit 1; }
	log "adding deb-src for $codename"
	as_root tee /etc/apt/sources.list.d/rpckit-deb-src.sources >/dev/null <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $codename $codename-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
}

apt_updated=0
apt_update() {
	if [ "$apt_updated" -eq 0 ]; then
		as_root apt-get update -qq >&2
		apt_updated=1
	fi
}

ensure_packages() {
	local missing=() p
	for p in dpkg-dev libprotobuf-dev protobuf-compiler g++ make; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	if [ "${#missing[@]}" -gt 0 ]; then
		log "installing ${missing[*]}"
		apt_update
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
	fi
}

fetch_source() {
	[ -f "$SRC/conformance/conformance.proto" ] && return 0
	if ! has_deb_src; then
		add_deb_src
		apt_updated=0
	fi
	apt_update
	mkdir -p "$CACHE"
	log "apt-get source protobuf=$VERSION* into $CACHE"
	(cd "$CACHE" && apt-get source -qq "protobuf=$(apt_source_version)" >&2)
	[ -f "$SRC/conformance/conformance.proto" ] || { log "no $SRC/conformance/conformance.proto after apt-get source"; exit 1; }
}

# apt_source_version picks the Debian source version of protobuf $VERSION.
apt_source_version() {
	local v
	v="$(apt-cache showsrc protobuf 2>/dev/null | awk '/^Version:/ {print $2}' | grep -E "^([0-9]+:)?$VERSION(-|$)" | head -n1)"
	[ -n "$v" ] || { log "no protobuf $VERSION source package in apt"; exit 1; }
	echo "$v"
}

generate() {
	local gen="$CACHE/build/gen"
	mkdir -p "$gen"
	log "protoc: conformance.proto, test_messages_proto2/3.proto"
	protoc --cpp_out="$gen" -I"$SRC/conformance" "$SRC/conformance/conformance.proto"
	protoc --cpp_out="$gen" -I"$SRC/src" \
		"$SRC/src/google/protobuf/test_messages_proto2.proto" \
		"$SRC/src/google/protobuf/test_messages_proto3.proto"
}

sources() {
	local gen="$CACHE/build/gen"
	echo "$gen/conformance.pb.cc"
	echo "$gen/google/protobuf/test_messages_proto2.pb.cc"
	echo "$gen/google/protobuf/test_messages_proto3.pb.cc"
	local f
	for f in conformance_test_main.cc conformance_test_runner.cc conformance_test.cc \
		binary_json_conformance_suite.cc text_format_conformance_suite.cc; do
		echo "$SRC/conformance/$f"
	done
	echo "$SRC/conformance/third_party/jsoncpp/jsoncpp.cpp"
}

# compile_one compiles one source into $OBJ unless its object file is there.
compile_one() {
	local src="$1" o
	o="$OBJ/$(printf '%s' "$src" | md5sum | cut -c1-12)-$(basename "$src").o"
	[ -f "$o" ] && return 0
	g++ $CXXFLAGS -c "$src" -o "$o.tmp" && mv -f "$o.tmp" "$o"
}

# compile writes one object file per source, JOBS at a time. The installed headers
# come first; the source's src/ supplies the internal ones libprotobuf-dev lacks.
compile() {
	local gen="$CACHE/build/gen"
	export OBJ="$CACHE/build/obj"
	export CXXFLAGS="-std=c++17 -O1 -w -I$gen -I$SRC -I$SRC/conformance -idirafter $SRC/src -DNDEBUG"
	export -f compile_one
	mkdir -p "$OBJ"
	log "compiling $(sources | wc -l) files, $JOBS at a time"
	sources | xargs -P"$JOBS" -n1 bash -c 'compile_one "$1"' _
}

link() {
	mkdir -p "$(dirname "$RUNNER")"
	log "linking $RUNNER"
	g++ -o "$RUNNER.tmp" "$CACHE"/build/obj/*.o -lprotobuf -lpthread
	mv -f "$RUNNER.tmp" "$RUNNER"
}

main() {
	if [ ! -x "$RUNNER" ]; then
		ensure_packages
		fetch_source
		generate
		compile
		link
	elif [ ! -f "$SRC/conformance/conformance.proto" ]; then
		ensure_packages
		fetch_source
	fi
	log "runner: $RUNNER"
	echo "runner $RUNNER"
	echo "source $SRC"
}

main "$@"
