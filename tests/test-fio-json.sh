#!/bin/sh
# scripts/fio-json.py on JSON from real fio runs on the host: every figure is there,
# and the line is the one guest/bench.sh's fio_fields (jq) prints for the same file.
set -eu
. "$(dirname "$0")/lib.sh"
P=$TOP/scripts/fio-json.py
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM
if ! command -v fio >/dev/null || ! command -v python3 >/dev/null; then
	t_ok "fio-json # SKIP no fio or python3 on the host"
	t_end
	exit
fi
truncate -s 16M "$d/f"
# fio_run NAME ARGS...: fio JSON of a 1 s run against the scratch file, as guest/bench.sh runs it.
fio_run() {
	_n=$1
	shift
	fio --name=t --filename="$d/f" --ioengine=psync --time_based --runtime=1 \
		--lat_percentiles=1 --clat_percentiles=0 \
		--percentile_list=1:5:10:25:50:75:90:95:99:99.5:99.9:99.99 \
		--output-format=json --output="$d/$_n.json" "$@" >/dev/null 2>&1
}
fio_run read --rw=randread --bs=4k
fio_run jobs2 --rw=randread --bs=4k --numjobs=2 --group_reporting
fio_run write --rw=randwrite --bs=4k
FIGS='^iops=[0-9]+ bw_kib=[0-9]+ lat_mean_us=[0-9.]+ lat_p50_us=[0-9.]+ lat_p99_us=[0-9.]+ lat_p999_us=[0-9.]+ cpu_usr=[0-9.]+ cpu_sys=[0-9.]+ ios=[1-9][0-9]* runtime_ms=[0-9]+ error=0 lat_cdf_us=1:[0-9.]+/5:[0-9.]+/10:[0-9.]+/25:[0-9.]+/50:[0-9.]+/75:[0-9.]+/90:[0-9.]+/95:[0-9.]+/99:[0-9.]+/99.5:[0-9.]+/99.9:[0-9.]+/99.99:[0-9.]+$'

t_expect 0 "parses fio $(fio --version) JSON of a 4k randread" python3 "$P" "$d/read.json" read
t_grep "$FIGS" "every figure is there and numeric"
t_expect 0 "a 2-job group_reporting run" python3 "$P" "$d/jobs2.json" read
t_grep 'runtime_ms=(19|20|21)[0-9][0-9] ' "job_runtime is summed over the 2 jobs (~2000 ms)"
t_expect 0 "a randwrite run, write figures" python3 "$P" "$d/write.json" write
t_grep "$FIGS" "every write figure is there"
t_expect 0 "the JSON can come on stdin" sh -c "python3 '$P' - read < '$d/read.json'"
{ printf 'fio: a warning fio printed before its JSON\n'; cat "$d/read.json"; } > "$d/noisy.json"
t_expect 0 "text before the JSON is skipped" python3 "$P" "$d/noisy.json" read
t_grep "$FIGS" "and the figures are still there"
t_expect 1 "figures of a direction the job lacks: error" python3 "$P" "$d/read.json" nosuch
t_grep '^error=no_nosuch_figures$' "as fio_fields reports it"
# As a guest would hand it over on the serial console: one line, a tag before it, CRLF.
{ printf 'FIOJSON 7 '; tr -d '\n' < "$d/read.json"; printf '\r\n'; } > "$d/console.log"
t_expect 0 "one console line (tag, JSON, CRLF) parses" sh -c "grep '^FIOJSON 7 ' '$d/console.log' | python3 '$P' - read"
t_expect 0 "to the same figures as the file" test "$T_OUT" = "$(python3 "$P" "$d/read.json" read)"
fio --name=t --filename="$d/f" --ioengine=psync --rw=randread --bs=4k --time_based --runtime=1 \
	--output-format=json --output="$d/nolat.json" >/dev/null 2>&1
t_expect 0 "a run without --lat_percentiles" python3 "$P" "$d/nolat.json" read
t_grep ' lat_p50_us=na lat_p99_us=na lat_p999_us=na .* lat_cdf_us=1:na/' "has its percentiles as na, not 0.0"
printf '{"jobs": [\n' > "$d/cut.json"
t_expect 2 "cut-off JSON is an error, not zeros" python3 "$P" "$d/cut.json" read

# The same line as the guest's fio_fields (busybox sh and jq, as in the guest).
if [ -x /bin/busybox ] && command -v jq >/dev/null; then
	for r in read:read jobs2:read write:write; do
		want=$(/bin/busybox sh "$TOP/guest/bench.sh" fio-fields "$d/${r%:*}.json" "${r#*:}")
		t_expect 0 "${r%:*}: the same line as guest/bench.sh fio-fields" \
			test "$(python3 "$P" "$d/${r%:*}.json" "${r#*:}")" = "$want"
	done
else
	t_ok "same line as fio-fields # SKIP no busybox or jq on the host"
fi
t_end
