#!/bin/sh
# Configure the Debian-package kernel in $BUILD/obj-deb (or DEB_OBJ): Debian's amd64 config
# (linux-config-6.12), trimmed by localmodconfig to the modules the lsmod-format lists
# in DEB_LSMOD name, then config/deb.config applied with the kernel's scripts/config
# and checked line by line in the final .config.
# env: DEB_CONFIG (Debian config, .xz or plain; default amd64_none_amd64),
#      DEB_LSMOD (lsmod-format files, default config/deb-modules.lst; add /proc/modules
#      to keep what the running machine uses; "all" keeps all of Debian's modules)
set -eu
. "$(dirname "$0")/lib.sh"

DEB_CONFIG=${DEB_CONFIG:-/usr/src/linux-config-6.12/config.amd64_none_amd64.xz}
DEB_LSMOD=${DEB_LSMOD:-$TOP/config/deb-modules.lst}
FRAG=$TOP/config/deb.config
OBJ=${DEB_OBJ:-$BUILD/obj-deb}
[ -f "$KSRC/Makefile" ] || die "deb-config: no kernel tree in $KSRC (run 'make tree')"
[ -f "$DEB_CONFIG" ] || die "deb-config: $DEB_CONFIG missing (apt install linux-config-6.12)"
mkdir -p "$OBJ"

kmake() {
	make -s -C "$KSRC" O="$OBJ" ARCH=x86_64 "$@"
}

stage "deb-config: $DEB_CONFIG -> $OBJ/.config"
case $DEB_CONFIG in
*.xz) xz -dc "$DEB_CONFIG" > "$OBJ/.config" ;;
*) cp "$DEB_CONFIG" "$OBJ/.config" ;;
esac
# Symbols the series adds take their defaults before localmodconfig asks about them.
kmake olddefconfig

if [ "$DEB_LSMOD" != all ]; then
	# shellcheck disable=SC2086 # a list of paths without spaces
	for f in $DEB_LSMOD; do [ -r "$f" ] || die "deb-config: DEB_LSMOD file $f missing"; done
	# streamline_config.pl skips every "Module ..." header, so lists concatenate.
	# shellcheck disable=SC2086
	cat $DEB_LSMOD > "$OBJ/deb.lsmod"
	stage "deb-config: localmodconfig with $(grep -vc '^Module' "$OBJ/deb.lsmod") listed modules"
	# conf --oldconfig may ask about a symbol; the default answer is what we want.
	yes '' | kmake LSMOD="$OBJ/deb.lsmod" localmodconfig > "$OBJ/localmodconfig.log" 2>&1 ||
		die "deb-config: localmodconfig failed (see $OBJ/localmodconfig.log)"
fi

# The fragment, one scripts/config call a line.
grep -E '^CONFIG_|^# CONFIG_.* is not set$' "$FRAG" > "$OBJ/deb.want"
sc() {
	"$KSRC/scripts/config" --file "$OBJ/.config" "$@"
}
while IFS= read -r line; do
	case $line in
	'# CONFIG_'*) sym=${line#\# CONFIG_}; sc --disable "${sym%% *}" ;;
	*=y) sym=${line%%=*}; sc --enable "${sym#CONFIG_}" ;;
	*=m) sym=${line%%=*}; sc --module "${sym#CONFIG_}" ;;
	*=\"*) sym=${line%%=*} val=${line#*=\"}; sc --set-str "${sym#CONFIG_}" "${val%\"}" ;;
	*) sym=${line%%=*}; sc --set-val "${sym#CONFIG_}" "${line#*=}" ;;
	esac
done < "$OBJ/deb.want"
kmake olddefconfig

# Every fragment line must have survived olddefconfig; "not set" also matches a
# symbol that is absent because its dependencies are off.
bad=0
while IFS= read -r line; do
	case $line in
	'# CONFIG_'*)
		sym=${line#\# }
		sym=${sym%% *}
		grep -qE "^$sym=" "$OBJ/.config" || continue
		;;
	*)
		sym=${line%%=*}
		! grep -qxF "$line" "$OBJ/.config" || continue
		# a symbol this base does not have (7.x folded LIBCRC32C into lib/crc)
		if ! grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config ${sym#CONFIG_}[[:space:]]*\$" "$KSRC"; then
			stage "deb-config: $sym is not in this tree, skipped"
			continue
		fi
		;;
	esac
	printf 'deb-config: wanted "%s", .config has "%s"\n' "$line" \
		"$(grep -E "^(# )?${sym}[= ]" "$OBJ/.config" || echo absent)" >&2
	bad=$((bad + 1))
done < "$OBJ/deb.want"
[ "$bad" -eq 0 ] || die "deb-config: $bad setting(s) of config/deb.config did not survive olddefconfig"
# deb.sh builds with LOCALVERSION= (no "+" for a git tree): the release is this.
lv=$(sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"$/\1/p' "$OBJ/.config")
stage "deb-config: $(grep -c '=m$' "$OBJ/.config") modules, $(grep -c '=y$' "$OBJ/.config") built-in, release $(kmake kernelversion)$lv"
