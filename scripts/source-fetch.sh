#!/bin/sh
# Fetch linux-source-$BASE at exactly patches/$BASE/BASE from its Debian suite when that
# is not the machine's own: one `apt-get download` with a private sources list and
# package lists under build/apt-<suite>, so the machine's sources and packages stay
# as they are. Unpacks the .deb into build/src/; a no-op when it is there.
# usage: source-fetch.sh   env: BASE (patches/bases), DEBIAN_MIRROR (http://deb.debian.org/debian)
set -eu
. "$(dirname "$0")/lib.sh"

if [ "$BASE_SUITE" = bookworm ]; then
	stage "source: $BASE_PKG comes from the machine's suite (make deps installs it)"
	exit 0
fi
if [ -f "$BASE_TARBALL" ]; then
	stage "source: $BASE_PKG $BASE_VERSION already in ${BASE_TARBALL%/usr/src/*}"
	exit 0
fi

apt=$TOP/build/apt-$BASE_SUITE
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
	"${DEBIAN_MIRROR:-http://deb.debian.org/debian}" "$BASE_SUITE" > "$apt/sources.list"
set -- -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
	-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User=root
stage "source: package lists of $BASE_SUITE into $apt (the machine's own are not touched)"
apt-get -q "$@" update >/dev/null || die "source: apt-get update of $BASE_SUITE failed (network?)"
offered=$(apt-cache "$@" madison "$BASE_PKG" | awk '{ printf "%s ", $3 }')
case " $offered" in
*" $BASE_VERSION "*) ;;
*) die "source: $BASE_SUITE offers $BASE_PKG ${offered:-(none)}, not $BASE_VERSION (patches/$BASE/BASE): refresh the series against one of them" ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
(cd "$tmp" && apt-get -q "$@" download "$BASE_PKG=$BASE_VERSION" >/dev/null) ||
	die "source: apt-get download $BASE_PKG=$BASE_VERSION failed"
deb=$(find "$tmp" -name "${BASE_PKG}_*.deb")
[ -n "$deb" ] || die "source: no .deb downloaded"
# apt-get download checked the .deb against the signed lists; say which one it is.
got=$(dpkg-deb -f "$deb" Version)
[ "$got" = "$BASE_VERSION" ] || die "source: downloaded $BASE_PKG $got, wanted $BASE_VERSION"
out=${BASE_TARBALL%/usr/src/*}
rm -rf "$out.tmp"
mkdir -p "${out%/*}"
dpkg-deb -x "$deb" "$out.tmp"
mv "$out.tmp" "$out"
stage "source: $BASE_PKG $got ($(sha256sum "$deb" | cut -c1-16)...) unpacked into $out"
