#!/bin/sh
# Rebuild $KSRC as tag `base` + $PATCHES/series, one commit per patch, on branch `series`;
# where the series file names several series (dir/NNNN-*.patch), a branch named after
# each marks its last patch (export.sh writes each series back into its directory).
# usage: apply.sh [N]   (or UPTO=N) stop after the Nth patch of the series (bisect checks).
# env:   BASE, PATCHES (default $TOP/patches/$BASE), FORCE=1 discards uncommitted edits in $KSRC,
#        NO_BACKUP=1 skips saving the old branch tip under refs/backup/.
set -eu
. "$(dirname "$0")/lib.sh"

UPTO=${1:-${UPTO:-}}
case $UPTO in
'' | *[!0-9]*) [ -z "$UPTO" ] || die "apply: N must be a number, got '$UPTO'" ;;
esac
[ -f "$PATCHES/series" ] || die "apply: $PATCHES/series missing"

# Patch names in order: blank lines, comments and the cover letter are not applied.
list=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' -e '/^0000-cover-letter\.patch$/d' "$PATCHES/series")
total=$(printf '%s\n' "$list" | sed '/^$/d' | wc -l)
for p in $list; do
	[ -f "$PATCHES/$p" ] || die "apply: series lists $p but $PATCHES/$p does not exist"
done

sh "$TOP/scripts/base.sh"
cd "$KSRC"
[ -n "$(git config user.email || true)" ] || {
	git config user.name "${GIT_USER_NAME:-Block Poll Series}"
	git config user.email "${GIT_USER_EMAIL:-blkpoll@example.org}"
}

# Never lose work: refuse to discard edits, keep the old tip reachable.
if [ -d "$(git rev-parse --git-path rebase-apply)" ]; then
	stage "apply: aborting a git am left in progress"
	git am --abort
fi
dirty=$(git status --porcelain --untracked-files=no)
if [ -n "$dirty" ] && [ "${FORCE:-0}" != 1 ]; then
	printf '%s\n' "$dirty" | head -20 >&2
	die "apply: uncommitted changes in $KSRC (commit and 'make export' them, or FORCE=1 to discard)"
fi
if [ "${NO_BACKUP:-0}" != 1 ] && [ "$(git rev-parse HEAD)" != "$(git rev-parse 'base^{commit}')" ]; then
	ref=refs/backup/$(git rev-parse --abbrev-ref HEAD | tr -c 'A-Za-z0-9._\n-' _)-$(date +%Y%m%d-%H%M%S)
	git update-ref "$ref" HEAD
	stage "apply: previous tip $(git rev-parse --short HEAD) saved as $ref"
fi

git checkout -q -f -B series base
stage "apply: $KSRC reset to base, applying $total patch(es) from $PATCHES${UPTO:+ (stopping after $UPTO)}"
i=0
for p in $list; do
	i=$((i + 1))
	if [ -n "$UPTO" ] && [ "$i" -gt "$UPTO" ]; then
		break
	fi
	stage "apply: [$i/$total] $p"
	# --no-3way: a patch that does not apply exactly is an error, never merged or fuzzed.
	if ! git am -q --no-3way --whitespace=nowarn --committer-date-is-author-date "$PATCHES/$p"; then
		git am --abort || true
		die "apply: patch $i/$total $p does not apply cleanly (series stopped; tree left at patch $((i - 1)))"
	fi
	case $p in
	*/*) git branch -f "${p%%/*}" HEAD ;;
	esac
done
n=$(git rev-list --count base..HEAD)
stage "apply: branch series = base + $n patch(es), HEAD $(git log -1 --format='%h %s')"
# Record what the tree was made from, so demo, smoke and bench notice a stale tree.
sh "$TOP/scripts/tree-fresh.sh" stamp "$UPTO"
