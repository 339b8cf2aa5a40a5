#!/bin/sh
# Keep $KSRC in step with patches/, so that demo, smoke and bench test what
# patches/ holds: make the tree when it is missing, apply again when patches/
# changed since it was applied.
# usage: tree-fresh.sh [ensure]   check, and apply (scripts/apply.sh) when needed
#        tree-fresh.sh stamp [N]  record in $KSRC/.patches.sum that patches/ as it is now
#                                 was just applied (N: only up to patch N); apply.sh's last step
#        tree-fresh.sh sum        the checksum of patches/BASE, series and the patches it lists
# ensure decides by content, then by the stamp:
#   the tree's commits base..HEAD have the patch ids of the series    -> fresh
#   patches/ unchanged since the stamp (the tree was edited by hand)  -> warn, use the tree
#   patches/ changed, the tree still at the stamped HEAD              -> apply again
#   both changed, or no stamp                                         -> stop: make apply or make export
# env:   PATCHES (default $TOP/patches/$BASE)
set -eu
. "$(dirname "$0")/lib.sh"

STAMP=$KSRC/.patches.sum

series() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' -e '/^0000-cover-letter\.patch$/d' "$PATCHES/series"
}

patches_sum() {
	# shellcheck disable=SC2046 # one file per series entry
	(cd "$PATCHES" && cat BASE series $(series)) | sha256sum | cut -c1-64
}

# Patch ids (content, line numbers ignored) of the series and of base..HEAD, in order.
same_content() {
	git -C "$KSRC" rev-parse -q --verify 'base^{commit}' >/dev/null || return 1
	a=$(for p in $(series); do git patch-id --stable < "$PATCHES/$p" | cut -d' ' -f1; done)
	b=$(git -C "$KSRC" log -p --reverse -M -U3 --no-color --no-ext-diff --format='commit %H' base..HEAD |
		git patch-id --stable | cut -d' ' -f1)
	[ "$a" = "$b" ]
}

stamp() {
	printf 'sum %s%s head %s\n' "$(patches_sum)" "${1:+-upto$1}" "$(git -C "$KSRC" rev-parse HEAD)" > "$STAMP"
}

apply() {
	UPTO='' sh "$TOP/scripts/apply.sh"
	stamp
}

ensure() {
	if [ ! -f "$KSRC/Makefile" ]; then
		stage "tree: no kernel tree in $KSRC yet: applying patches/"
		apply
		return
	fi
	now=$(patches_sum)
	s_sum='' s_head=''
	[ ! -f "$STAMP" ] || read -r _ s_sum _ s_head < "$STAMP" || true
	head=$(git -C "$KSRC" rev-parse HEAD)
	if same_content; then
		[ "$s_sum $s_head" = "$now $head" ] || stamp
		stage "tree: $KSRC holds patches/ ($(series | wc -l) patches)"
		if [ -n "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ]; then
			stage "tree: WARNING: uncommitted edits in $KSRC are part of this build"
		fi
	elif [ "$s_sum" = "$now" ]; then
		stage "tree: WARNING: testing $KSRC, which differs from patches/: it was changed after make apply (make export keeps the changes)"
	elif [ -n "$s_sum" ] && [ "$s_head" = "$head" ]; then
		stage "tree: patches/ changed since $KSRC was applied (or it holds part of them): applying again"
		apply
	elif [ -n "$s_sum" ]; then
		die "tree: patches/ and $KSRC both changed since make apply: make export (keep the tree's commits) or make apply (take patches/; the tree's tip is kept under refs/backup/)"
	else
		die "tree: $KSRC differs from patches/ and has no record of the last apply ($STAMP): make apply (patches/ is newer) or make export (the tree is newer)"
	fi
}

case ${1:-ensure} in
ensure) ensure ;;
stamp) stamp "${2:-}" ;;
sum) patches_sum ;;
*) die "usage: tree-fresh.sh [ensure] | stamp [N] | sum" ;;
esac
