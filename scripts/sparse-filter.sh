#!/bin/sh
# kbuild's CHECK for check-patches.sh's bisect: run sparse on a source only when it
# is one of SPARSE_FILES (paths in the tree, space separated). C=1 checks every file
# make recompiles, so a patch to blkdev.h would have sparse check each of its
# includers, whose warnings the bisect check does not count (only those in the
# files the patch touches): the time went to checks nobody read.
# usage: make C=1 CHECK="sh sparse-filter.sh" ...   (kbuild appends the source last)
# env:   SPARSE_FILES, SPARSE (the checker; default sparse)
set -eu
for src; do :; done
for f in ${SPARSE_FILES:-}; do
	case ${src:-} in
	"$f" | */"$f") exec "${SPARSE:-sparse}" "$@" ;;
	esac
done
