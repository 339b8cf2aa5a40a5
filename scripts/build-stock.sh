#!/bin/sh
# Build the unpatched reference kernel for the benchmark: $KSRC at tag `base` (the
# untouched Debian tree), checked out in $STOCK_KSRC ($BUILD/linux-stock, a
# `git clone --shared` of $KSRC: the clone reads $KSRC's objects and never writes to
# $KSRC), built by scripts/build.sh as variant `stock` with the normal variant's
# fragment (config/base.config) into $BUILD/obj-stock. Incremental (the checkout only
# rewrites files that differ from base) and ccache'd like every build.
# usage: build-stock.sh      env: STOCK_KSRC, and build.sh's (JOBS, CCACHE_DIR, ...)
set -eu
. "$(dirname "$0")/lib.sh"

STOCK=${STOCK_KSRC:-$BUILD/linux-stock}
[ -d "$KSRC/.git" ] || die "build-stock: $KSRC is not a git tree (run 'make base' or 'make apply')"

if [ ! -d "$STOCK/.git" ]; then
	stage "build-stock: git clone --shared $KSRC $STOCK"
	rm -rf "$STOCK"
	git clone -q --shared --no-checkout "$KSRC" "$STOCK"
fi
# The tag is re-read from $KSRC every time: `make base` may have recreated it.
git -C "$STOCK" fetch -q --force --no-tags origin "refs/tags/base:refs/tags/base"
want=$(git -C "$STOCK" rev-parse 'refs/tags/base^{commit}')
have=$(git -C "$STOCK" rev-parse -q --verify 'HEAD^{commit}' 2>/dev/null || true)
if [ "$want" != "$have" ] || ! git -C "$STOCK" diff --quiet HEAD -- 2>/dev/null; then
	stage "build-stock: checking out base ($want) in $STOCK"
	git -C "$STOCK" -c advice.detachedHead=false checkout -q --force --detach "$want"
fi
[ ! -e "$STOCK/.config" ] || die "build-stock: $STOCK has a .config (in-tree build): O= builds refuse it (make -C $STOCK mrproper)"

KSRC=$STOCK FRAGMENTS="$TOP/config/base.config" sh "$TOP/scripts/build.sh" stock

# Same fragment, so the configs differ only where the series adds options.
if [ -f "$BUILD/obj-normal/.config" ]; then
	diff=$(diff "$BUILD/obj-normal/.config" "$BUILD/obj-stock/.config" | sed -n 's/^\([<>]\) \(CONFIG_.*\)/\1 \2/p' || true)
	if [ -n "$diff" ]; then
		stage "build-stock: .config differences (< obj-normal, > obj-stock):"
		printf '%s\n' "$diff" | sed 's/^/    /' >&2
	else
		stage "build-stock: .config identical to obj-normal's"
	fi
fi
