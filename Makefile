# Entry points: patches/ -> kernel tree -> vmlinux -> initramfs -> QEMU guest -> results.
# Every target works on one kernel base, BASE (patches/bases: 7.2 by default, 6.12 the
# backport), and honours BUILD (default ./build/$(BASE)) and KSRC (default $(BUILD)/linux).

BASE ?= $(shell awk '!/^\#/ && NF { print $$1; exit }' patches/bases)
BUILD ?= $(CURDIR)/build/$(BASE)
KSRC ?= $(BUILD)/linux
RESULTS ?= $(BUILD)/results
VARIANT ?= normal
export BASE BUILD KSRC RESULTS

# Guest scripts (in guest/) the suite runs, each in its own boot, after smoke.sh.
# Entry syntax: script[:arg,arg][@variant], e.g. TEST_SCRIPTS = fs-poll.sh stacks.sh:only=md@debug
# stacks.sh runs on the debug kernel only (lockdep, KASAN: what dm and md paths need);
# its checks are the same on the normal kernel, which make test's time could not afford.
# queues.sh runs on the normal kernel (51 s there, 194 s on the debug kernel) but for
# per-cpu, which needs the nvme_setup_cmd tracepoint only the debug kernel has: its
# checks are of queue mapping and choice; the paths it shares with the I/O stack
# (io_poll switched under load, resets, removal) run under lockdep and KASAN in
# reliability.sh and stacks.sh. CPU hotplug under lockdep: TEST_SCRIPTS=queues.sh@debug.
TEST_SCRIPTS ?= selftest.sh fs-poll.sh demo.sh readme.sh reliability.sh@debug stacks.sh@debug queues.sh:only=per-cpu@debug queues.sh:only=default+switch+iowait+hotplug no-spare-queue.sh passthrough.sh
# Kernel variants the suite needs, derived from the @variant suffixes.
TEST_VARIANTS := $(sort normal $(foreach t,$(TEST_SCRIPTS),$(if $(findstring @,$(t)),$(lastword $(subst @, ,$(t))))))
# Host-side checks of the patch files (checkpatch, per-patch build, ...): commands run by check-patches.
CHECK_PATCHES ?= scripts/check-patches.sh
# Host-side tests of the tooling.
HOST_TESTS ?= $(sort $(wildcard tests/test-*.sh))
SHELL_SCRIPTS = $(wildcard scripts/*.sh tests/*.sh guest/*.sh guest/*/*.sh) guest/init .ci/run

# Guest scripts `make deb-test` boots the Debian package's kernel with, one boot each.
DEB_TEST_SCRIPTS ?= modules.sh smoke.sh selftest.sh readme.sh

# Stop after patch N (make apply UPTO=3).
UPTO ?=
# Guest script for `make boot` (make boot RUN=smoke.sh ARGS=a,b).
RUN ?= smoke.sh
ARGS ?=

.PHONY: help deps base apply tree export export-check build build-debug initramfs smoke boot \
	suite test host-tests lint check-patches demo clean distclean \
	bench bench-quick bench-choice bench-memory kunit test-backport test-core test-core-here fixes-on-stock deb-here deb-test-here reliability-breaks polling-off-fails deb deb-test check-docs fast \
	sample-output model

help:
	@echo "Block polling series for Linux 6.12: patches/ -> $(KSRC) -> vmlinux -> QEMU guest -> TAP"
	@echo
	@echo "  make demo           build, boot, io_poll on at run time (dd/fio off vs on), then 1-4 jobs irq/poll/IOPOLL"
	@echo "  make test           the whole suite: deps fast (lint host-tests check-docs) apply export-check check-patches"
	@echo "                      build initramfs, then smoke.sh + TEST_SCRIPTS in QEMU, TAP summary"
	@echo
	@echo "  make deps           apt-get install the needed Debian packages (no-op when present)"
	@echo "  make base           unpack linux-source-6.12 into KSRC as git tree, tag base"
	@echo "  make apply          reset KSRC to base and git am patches/series (UPTO=N stops after N)"
	@echo "  make tree           apply only when KSRC is missing or older than patches/ (demo, smoke, bench do)"
	@echo "  make export         write KSRC base..HEAD back to patches/ (+ series)"
	@echo "  make export-check   apply into a scratch tree, export again, require identical bytes"
	@echo "  make build          vmlinux, normal variant  ($(BUILD)/obj-normal)"
	@echo "  make build-debug    vmlinux with lockdep, KASAN, hung task detection ($(BUILD)/obj-debug)"
	@echo "  make initramfs      guest image: busybox, fio, guest/ ($(BUILD)/initramfs.cpio)"
	@echo "  make smoke          build, initramfs, boot guest/smoke.sh"
	@echo "  make boot RUN=x.sh  boot one guest script (ARGS=a,b VARIANT=debug TIMEOUT=s SMP=n)"
	@echo "  make suite          boot smoke.sh and each of TEST_SCRIPTS, summarise TAP"
	@echo "  make lint           shellcheck every shell script (one process per CPU)"
	@echo "  make host-tests     lint + tests/test-*.sh (tests of the tooling)"
	@echo "  make check-docs     README, doc/, cover letter: links, patch names, counts (scripts/doc-check.py)"
	@echo "  make fast           lint host-tests check-docs: the first CI stage, minutes, no kernel build"
	@echo "  make kunit          the series' KUnit suite on the host in UML (~6 min cold, seconds after)"
	@echo "  make model          the series' choice and hybrid polling on modelled real devices, on the host"
	@echo "                      (model/, scripts/model.sh: blk-poll.h from patches/, one table, seconds)"
	@echo "  make check-patches  host checks of the patch files (hook: CHECK_PATCHES)"
	@echo "  make bench          stock vs patched kernel in QEMU: psync irq/poll/hybrid, io_uring, dd, ext4,"
	@echo "                      1-8 jobs per mode with the targets of scripts/bench-jobs-report.py"
	@echo "                      -> $(RESULTS)/bench.md + PNGs (scripts/bench.sh; five boots, ~45 min with the stock build);"
	@echo "                      BENCH_PUBLISH=1 also to doc/results/v<N>/, never over an earlier report"
	@echo "  make bench-quick    the same with 1 repetition of 2 s runs (checks the pipeline)"
	@echo "  make bench-choice   io_poll=1 vs always-irq/always-poll per device model and load"
	@echo "                      -> $(RESULTS)/bench-choice.md (guest/bench-choice.sh; 36 cells, ~26 min)"
	@echo "  make bench-memory   the default spare poll queue's cost: MemFree, hctx, reset time, 2 and 8 vCPUs"
	@echo "                      -> $(RESULTS)/bench-memory/bench-memory.md (two boots, ~5 min)"
	@echo "  make fixes-on-stock io_uring IOPOLL on dm under io.max and suspend: stock fails, the series passes"
	@echo "  make test-backport the backport's stage of make test, on the base given (make test runs it with BASE=6.12)"
	@echo "  make deb-here       make deb's build on the base given (make deb runs it with BASE=$(DEB_BASE))"
	@echo "  make deb-test-here  likewise for make deb-test"
	@echo "  make test-core-here make test-core's steps in the work area given (make test-core sets it)"
	@echo "  make test-core      the fixes and core series without the choice: the polling tests pass (build/<base>-core)"
	@echo "  make reliability-breaks  each reliability phase broken on purpose must fail (~18 min)"
	@echo "  make polling-off-fails   smoke.sh and scheduling booted with nvme.spare_poll_queues=0 must fail (~2 min)"
	@echo "  make deb            Debian packages of the patched kernel (Debian's config, localmodconfig"
	@echo "                      to config/deb-modules.lst + DEB_LSMOD) -> $(BUILD)/deb/linux-image-*.deb"
	@echo "  make deb-test       boot the package's vmlinuz + modules: DEB_TEST_SCRIPTS=$(DEB_TEST_SCRIPTS)"
	@echo "  make sample-output  doc/make-test-output.txt from the newest make test run (TAP summary, stage times)"
	@echo "  make print-VAR      the value of a Makefile variable (make print-TEST_SCRIPTS)"
	@echo "  make clean          remove build outputs in BUILD (keeps KSRC and ccache)"
	@echo "  make distclean      remove BUILD entirely"
	@echo
	@echo "  BUILD=$(BUILD)  KSRC=$(KSRC)"
	@echo "  TEST_SCRIPTS=$(TEST_SCRIPTS)"

deps:
	sh scripts/deps.sh

base:
	sh scripts/base.sh

apply:
	sh scripts/apply.sh $(UPTO)

export:
	sh scripts/export.sh

export-check:
	sh scripts/roundtrip.sh

build:
	sh scripts/build.sh normal

build-debug:
	sh scripts/build.sh debug

initramfs:
	sh scripts/initramfs.sh

# The kernel tree as patches/ has it: made on first use, applied again when patches/
# changed since it was applied (scripts/tree-fresh.sh). demo, smoke and bench run it
# first; `make apply` always applies.
tree:
	sh scripts/tree-fresh.sh

smoke:
	sh scripts/tree-fresh.sh
	sh scripts/build.sh normal
	sh scripts/initramfs.sh
	sh scripts/boot.sh -v normal -l $(RESULTS)/smoke-normal.log smoke.sh

boot:
	VARIANT=$(VARIANT) sh scripts/boot.sh $(RUN) $(subst $(comma), ,$(ARGS))

comma := ,

suite:
	sh scripts/suite.sh smoke.sh $(TEST_SCRIPTS)

# The KUnit suite (config/blk-poll.kunitconfig) with tools/testing/kunit in UML.
kunit:
	sh scripts/tree-fresh.sh
	sh scripts/kunit.sh

# block/blk-poll.h as patches/ has it, driven on the host by a deterministic model of
# real devices and loads (model/blk-poll-model.c): the choice against always-interrupt
# and always-poll, hybrid against classic polling. No kernel build; seconds.
model:
	sh scripts/model.sh | tee $(RESULTS)/model.txt | sh scripts/model-targets.sh

# Not part of test (CI budget): shows that each class of reliability check can fail.
reliability-breaks:
	sh scripts/tree-fresh.sh
	sh scripts/build.sh $(VARIANT)
	sh scripts/initramfs.sh
	sh scripts/reliability-breaks.sh

# Not part of test: the series' polling switched off at boot with nothing else changed
# (nvme.spare_poll_queues=0: no poll queues, as stock sets a controller up); the suite's
# polled checks must then fail (smoke.sh, reliability's scheduling).
polling-off-fails:
	sh scripts/tree-fresh.sh
	sh scripts/build.sh $(VARIANT)
	sh scripts/initramfs.sh
	sh scripts/reliability-breaks.sh off

# One shellcheck a CPU: it checks each file alone, and fast is CI's first stage.
lint:
	printf '%s\n' $(SHELL_SCRIPTS) | xargs -n 16 -P "$$(nproc)" shellcheck

host-tests: lint
	@set -e; for t in $(HOST_TESTS); do echo "==> host-tests: $$t"; sh $$t; done

# README, doc/ and the cover letter against the tree: links, patch names, the counts of
# patches, KUnit cases and suite boots (scripts/doc-check.py).
check-docs:
	python3 scripts/doc-check.py

# The first CI stage: minutes, no kernel build (.ci/run runs it before make test).
fast: lint host-tests check-docs

# What the README shows a passing make test prints: the newest run's TAP summary and
# stage times, written by the tooling rather than pasted (scripts/sample-output.sh).
sample-output:
	sh scripts/sample-output.sh

# make print-VAR: the value of a variable (scripts/doc-check.py reads TEST_SCRIPTS).
print-%:
	@echo $($*)

check-patches:
	@if [ -z "$(strip $(CHECK_PATCHES))" ]; then \
		echo "check-patches: no checks configured yet (hook: CHECK_PATCHES)"; \
	else set -e; for c in $(CHECK_PATCHES); do echo "==> check-patches: $$c"; sh $$c; done; fi

# Each stage is timed (scripts/stage-time.sh); the times are printed at the end,
# or when a stage fails, and kept in $(RESULTS)/stage-times. The first stage after
# the packages, fast (lint, host tests, documentation check), fails in minutes,
# before a kernel is unpacked, built or booted.
test:
	@sh scripts/stage-time.sh start
	sh scripts/stage-time.sh deps $(MAKE) deps
	sh scripts/stage-time.sh fast $(MAKE) fast
	sh scripts/stage-time.sh apply $(MAKE) apply
	sh scripts/stage-time.sh export-check $(MAKE) export-check
	sh scripts/stage-time.sh check-patches $(MAKE) check-patches
	@set -e; for v in $(TEST_VARIANTS); do sh scripts/stage-time.sh build-$$v sh scripts/build.sh $$v; done
	sh scripts/stage-time.sh initramfs $(MAKE) initramfs
	sh scripts/stage-time.sh suite $(MAKE) suite
	sh scripts/stage-time.sh backport $(on-deb-base) test-backport
	@sh scripts/stage-time.sh report

# The fixes series' dm and blk-throttle fixes: stacks/dm-throttle.sh with io_uring
# IOPOLL must fail on the unpatched base and pass on the series (two boots).
fixes-on-stock:
	sh scripts/tree-fresh.sh
	sh scripts/build.sh normal
	sh scripts/fixes-on-stock.sh

# The fixes and the core without the choice series, in a work area of their own
# (build/<base>-core): the guest tests of polling must pass on them too (CORE_SCRIPTS;
# io_poll=1 then polls every synchronous I/O while its CPU is free). Not part of test.
CORE_SCRIPTS ?= selftest.sh fs-poll.sh demo.sh readme.sh stacks.sh queues.sh:only=default+switch+iowait+hotplug no-spare-queue.sh passthrough.sh
CORE_BUILD = $(CURDIR)/build/$(BASE)-core
test-core:
	$(MAKE) --no-print-directory BUILD=$(CORE_BUILD) KSRC=$(CORE_BUILD)/linux RESULTS=$(CORE_BUILD)/results test-core-here

test-core-here:
	sh scripts/apply.sh $$(sed -n '/^choice\//q; /^[a-z]/p' $(CURDIR)/patches/$(BASE)/series | wc -l)
	sh scripts/build.sh normal
	sh scripts/initramfs.sh
	sh scripts/suite.sh smoke.sh $(CORE_SCRIPTS)

# The backport on its base (make test's last stage): applies and round-trips, clean
# under checkpatch, builds, and boots smoke.sh and the kselftest (BACKPORT_SCRIPTS).
BACKPORT_SCRIPTS ?= selftest.sh
test-backport:
	sh scripts/apply.sh
	sh scripts/roundtrip.sh
	sh scripts/check-patches.sh checkpatch
	sh scripts/build.sh normal
	sh scripts/initramfs.sh
	sh scripts/suite.sh smoke.sh $(BACKPORT_SCRIPTS)

# Benchmark knobs (BENCH_BOOTS, BENCH_BUILD, ...): see scripts/bench.sh.
bench:
	sh scripts/tree-fresh.sh
	sh scripts/bench.sh

bench-quick:
	sh scripts/tree-fresh.sh
	BENCH_REPS=1 BENCH_RUNTIME=2 sh scripts/bench.sh

# The choice (io_poll=1) against always-interrupt and always-polling, per device
# model and load, one boot (guest/bench-choice.sh; BENCH_CHOICE_ARGS=devs=... loads=...).
bench-choice:
	sh scripts/tree-fresh.sh
	sh scripts/build.sh normal
	sh scripts/initramfs.sh
	sh scripts/boot.sh -v normal -t 3600 -l $(RESULTS)/bench-choice.log bench-choice.sh $(BENCH_CHOICE_ARGS)
	python3 scripts/bench-choice-report.py $(RESULTS)/bench-choice.log > $(RESULTS)/bench-choice.md
	@cat $(RESULTS)/bench-choice.md

# What nvme-pci's default spare poll queue costs a machine that never polls: MemFree,
# hardware contexts and reset time with and without it, 2 and 8 vCPUs, one boot each.
bench-memory:
	sh scripts/tree-fresh.sh
	sh scripts/build.sh normal
	sh scripts/initramfs.sh
	sh scripts/bench-memory.sh

# The series end to end: build, boot, io_poll switched on at run time, dd and
# fio psync off/on side by side (guest/demo.sh), then a second boot of the series
# kernel: 1, 2 and 4 readers by interrupt, polled and io_uring IOPOLL (bench-jobs.sh).
# Installs what it needs first, as test does, so it works on a fresh machine.
demo:
	sh scripts/deps.sh
	sh scripts/tree-fresh.sh
	sh scripts/build.sh normal
	sh scripts/initramfs.sh
	sh scripts/boot.sh -v normal -l $(RESULTS)/demo-normal.log demo.sh
	@grep -E '^# ' $(RESULTS)/demo-normal.tap | sed 's/^# //'
	sh scripts/boot.sh -v normal -l $(RESULTS)/bench-jobs-demo.log bench-jobs.sh reps=1 jobs=1+2+4
	python3 scripts/bench-jobs-report.py $(RESULTS)/bench-jobs-demo.log

# The series as a Debian package for a real machine (README "Try it on a real machine").
# Not part of test: a distribution config takes far longer to build than tinyconfig.
# Debian 12's kernel is the backport's (DEB_BASE), whatever BASE says.
DEB_BASE ?= 6.12
on-deb-base = $(MAKE) --no-print-directory BASE=$(DEB_BASE) BUILD=$(CURDIR)/build/$(DEB_BASE) \
	KSRC=$(CURDIR)/build/$(DEB_BASE)/linux RESULTS=$(CURDIR)/build/$(DEB_BASE)/results

deb:
	sh scripts/deps.sh
	$(on-deb-base) deb-here

deb-here:
	sh scripts/tree-fresh.sh
	sh scripts/deb-config.sh
	sh scripts/deb.sh

deb-test:
	$(on-deb-base) deb-test-here

deb-test-here:
	sh scripts/deb-boot.sh $(DEB_TEST_SCRIPTS)

clean:
	rm -rf $(BUILD)/obj-normal $(BUILD)/obj-debug $(BUILD)/obj-stock $(BUILD)/bench $(BUILD)/initramfs.d $(BUILD)/initramfs.cpio \
		$(BUILD)/selftests $(BUILD)/roundtrip $(RESULTS) $(BUILD)/obj-deb $(BUILD)/obj-modular $(BUILD)/deb $(BUILD)/deb-boot $(BUILD)/kunit

distclean:
	rm -rf $(BUILD)
