#!/bin/sh
# scripts/deps.sh and scripts/base.sh against fake dpkg-query, apt-get and apt-cache:
# all present is a no-op; linux-source-6.12 at another version than patches/6.12/BASE is
# installed at exactly that version; a version the archive does not offer is a clear
# error; a missing tool's package is installed; base.sh refuses another version.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

mkdir -p "$d/top/scripts" "$d/top/patches/6.12" "$d/bin"
cp "$TOP/scripts/deps.sh" "$TOP/scripts/base.sh" "$d/top/scripts/"
cp "$TOP/scripts/lib.sh" "$d/top/scripts/"
# base.sh's tarball: a file of our own, so that the test needs no kernel source
export BASE_TARBALL="$d/linux-source.tar.xz"
: > "$d/linux-source.tar.xz"
echo 6.12.99-1~deb12u1 > "$d/top/patches/6.12/BASE"
printf '7.2\tunstable\tthe default\n6.12\tbookworm\tthe backport\n' > "$d/top/patches/bases"

# dpkg-query -W -f FMT PKG...: "PKG ii  VERSION" for each package in $d/installed
# ("PKG VERSION" lines), ${Version} alone when FMT is just that (base.sh)
cat > "$d/bin/dpkg-query" <<'EOF'
#!/bin/sh
fmt=$3
shift 3
rc=0
for p in "$@"; do
	v=$(awk -v p="$p" '$1 == p { print $2 }' "$STATE/installed")
	if [ -z "$v" ]; then rc=1; continue; fi
	case $fmt in
	'${Version}') printf '%s' "$v" ;;
	*) printf '%s ii  %s\n' "$p" "$v" ;;
	esac
done
exit $rc
EOF
# apt-get: logs its arguments; install fails when $STATE/fail-install exists
cat > "$d/bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >> "$STATE/apt.log"
case $1 in install) [ ! -e "$STATE/fail-install" ] ;; esac
EOF
# apt-cache madison: the versions in $STATE/offered
cat > "$d/bin/apt-cache" <<'EOF'
#!/bin/sh
while read -r v; do
	printf '%s | %s | http://archive bookworm-security/main amd64 Packages\n' "$2" "$v"
done < "$STATE/offered"
EOF
printf '#!/bin/sh\necho 0\n' > "$d/bin/id"
chmod +x "$d/bin/"*
export STATE="$d" PATH="$d/bin:$PATH" BUILD="$d/build" KSRC="$d/build/linux"

# every package of deps.sh's list installed, linux-source-6.12 at $1
all_installed() {
	pkgs=$(sed -n '/^PKGS="/,/"$/p' "$TOP/scripts/deps.sh" | tr -d '"' | sed 's/^PKGS=//')
	for p in $pkgs; do
		# shellcheck disable=SC2016 # the list's own text, unexpanded
		case $p in
		'$BASE_PKG') echo "linux-source-6.12 $1" ;;
		*) echo "$p 1.0" ;;
		esac
	done > "$d/installed"
	rm -f "$d/apt.log" "$d/fail-install"
}

all_installed 6.12.99-1~deb12u1
t_expect 0 "all present at the pinned version: exit 0" sh "$d/top/scripts/deps.sh"
t_grep 'deps: all [0-9]+ packages present \(linux-source-6.12 6.12.99-1~deb12u1\)' "it says so"
t_expect 0 "and apt-get is not called" test ! -e "$d/apt.log"

for tool in python3 perl procps binutils; do
	t_expect 0 "$tool is in the package list" grep -qw "$tool" "$TOP/scripts/deps.sh"
done

all_installed 6.12.99-1~deb12u1
sed -i '/^python3 /d' "$d/installed"
t_expect 0 "python3 missing: installed" sh "$d/top/scripts/deps.sh"
t_expect 0 "apt-get install names python3 and not the present packages" \
	grep -qx 'apt-get install -y -q --no-install-recommends --allow-downgrades python3' "$d/apt.log"

all_installed 6.12.100-1~deb12u1
t_expect 0 "a newer linux-source-6.12 installed: the pinned one is installed" sh "$d/top/scripts/deps.sh"
t_expect 0 "apt-get install linux-source-6.12=6.12.99-1~deb12u1 --allow-downgrades" \
	grep -qE '^apt-get install .*--allow-downgrades linux-source-6.12=6.12.99-1~deb12u1$' "$d/apt.log"

all_installed 6.12.100-1~deb12u1
touch "$d/fail-install"
printf '6.12.101-1~deb12u1\n6.12.100-1~deb12u1\n' > "$d/offered"
t_expect 1 "the pinned version not in the archive: fails" sh "$d/top/scripts/deps.sh"
t_grep 'error: deps: linux-source-6.12 6.12.99-1~deb12u1 \(patches/6.12/BASE\) cannot be installed; the package lists offer: 6.12.101-1~deb12u1 6.12.100-1~deb12u1' \
	"the error names the pinned version, patches/6.12/BASE and what the archive has"
t_expect 0 "after refreshing the package lists once" grep -qx 'apt-get update -q' "$d/apt.log"

all_installed 6.12.100-1~deb12u1
t_expect 1 "base.sh with another linux-source-6.12 installed: refuses" env BASE=6.12 sh "$d/top/scripts/base.sh"
t_grep "6.12.100-1~deb12u1 installed, the series applies to 6.12.99-1~deb12u1 \(patches/6.12/BASE\): run 'make deps'" \
	"it says which versions and what to run"
t_expect 0 "and unpacks nothing" test ! -e "$d/build/linux"
t_end
