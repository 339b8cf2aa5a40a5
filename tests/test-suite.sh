#!/bin/sh
# scripts/suite.sh without QEMU: a copy of it runs against a fake boot.sh that writes
# each boot's TAP from its arguments. Every entry keeps its own result files (args
# are part of the name), every run its own folder, and a failed boot or TAP failure
# fails the suite.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

mkdir -p "$d/top/scripts" "$d/top/patches/7.2"
cp "$TOP/scripts/suite.sh" "$TOP/scripts/lib.sh" "$TOP/scripts/tap-summary.sh" "$d/top/scripts/"
cp "$TOP/patches/bases" "$d/top/patches/"
cp "$TOP/patches/7.2/BASE" "$d/top/patches/7.2/"
# boot.sh -v VARIANT -l LOG SCRIPT ARGS...: LOG's .tap says what was booted;
# fail.sh boots fail.
cat > "$d/top/scripts/boot.sh" <<'BOOT'
#!/bin/sh
set -eu
while getopts v:l: o; do
	case $o in v) v=$OPTARG ;; l) log=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
echo "booted $v $*" > "$log"
printf 'ok 1 - %s %s args:%s\n1..1\n' "$1" "$v" "$(shift; echo "$*")" > "${log%.log}.tap"
[ "$1" != fail.sh ]
BOOT
R=$d/results
L=$R/latest
suite() {
	env RESULTS="$R" BUILD="$d/build" sh "$d/top/scripts/suite.sh" "$@"
}

t_expect 0 "a suite of passing boots passes" suite smoke.sh x.sh:a x.sh:b x.sh@debug
t_expect 0 "no args: script-variant" grep -qx 'ok 1 - smoke.sh normal args:' "$L/smoke-normal.tap"
t_expect 0 "x.sh:a keeps its own result files" grep -qx 'ok 1 - x.sh normal args:a' "$L/x-a-normal.tap"
t_expect 0 "x.sh:b does not overwrite them" grep -qx 'ok 1 - x.sh normal args:b' "$L/x-b-normal.tap"
t_expect 0 "the log is named alike" grep -qx 'booted normal x.sh b' "$L/x-b-normal.log"
t_expect 0 "the variant stays last" grep -qx 'ok 1 - x.sh debug args:' "$L/x-debug.tap"

rm -rf "$R"
t_expect 0 "args are split at commas, the name keeps them" suite 'y.sh:n=1,p=a/b'
t_expect 0 "characters unsafe in a file name become _" grep -qx 'ok 1 - y.sh normal args:n=1 p=a/b' "$L/y-n=1,p=a_b-normal.tap"

rm -rf "$R"
t_expect 0 "the same entry twice runs twice" suite z.sh z.sh
t_expect 0 "the second run gets its own name" test -f "$L/z-normal.tap" -a -f "$L/z-normal-2.tap"

first=$(readlink "$L")
t_expect 0 "a second suite run" suite w.sh
t_expect 0 "gets a folder of its own under runs/" test "$(readlink "$L")" != "$first" -a -f "$L/w-normal.tap"
t_expect 0 "and leaves the earlier run's results alone" test -f "$R/$first/z-normal.tap" -a ! -e "$R/$first/w-normal.tap"
latest_is_stamped() { readlink "$L" | grep -Eq '^runs/[0-9]{8}-[0-9]{6}(-[0-9]+)?$'; }
t_expect 0 "runs are named by their UTC start time" latest_is_stamped

t_expect nonzero "a failed boot fails the suite" suite smoke.sh fail.sh
t_grep 'boot\(s\) failed: fail-normal' "and names it"
t_end
