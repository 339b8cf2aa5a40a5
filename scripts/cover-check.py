#!/usr/bin/env python3
"""Check the cover letter against the patches it introduces.

usage: cover-check.py [--shortstat STAT] [--series NAME] [DIR]   (DIR: a base's patches directory)

With --series, only the patches DIR/series lists as NAME/..., and NAME's own cover
letter, DIR/NAME/0000-cover-letter.patch: one of the series of a base that has several.

The subject must say "[PATCH vN 00/M]" with M the number of patches in DIR/series,
and the shortlog must list each patch's subject, in series order, under
"<author> (M):". With --shortstat (git diff --shortstat of the applied series, which
export-check has), a line of the cover letter must be exactly STAT. Prints what
disagrees and exits 1; exits 0 when all agree.
"""
import argparse
import email.parser
import email.policy
import os
import re
import sys


def headers(path):
    with open(path, encoding="utf-8") as f:
        return email.parser.Parser(policy=email.policy.default).parse(f, headersonly=True)


def subject(path):
    return re.sub(r"^\[PATCH[^]]*\]\s*", "", str(headers(path)["Subject"]))


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--shortstat")
    ap.add_argument("--series")
    ap.add_argument("dir", nargs="?", default="patches")
    args = ap.parse_args()
    d = args.dir
    with open(os.path.join(d, "series"), encoding="utf-8") as f:
        series = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    cover = os.path.join(d, "0000-cover-letter.patch")
    if args.series:
        series = [p for p in series if p.startswith(args.series + "/")]
        cover = os.path.join(d, args.series, "0000-cover-letter.patch")
    errors = []
    cover_subject = str(headers(cover)["Subject"])
    m = re.match(r"\[PATCH v\d+ 0+/(\d+)\]", cover_subject)
    if not m or int(m.group(1)) != len(series):
        errors.append(f"cover subject does not say 00/{len(series)}: {cover_subject}")
    with open(cover, encoding="utf-8") as f:
        body = f.read()
    m = re.search(rf"^\S.* \({len(series)}\):\n((?:      .*\n)+)", body, re.M)
    listed = [line.strip() for line in m.group(1).splitlines()] if m else []
    if not m:
        errors.append(f"no shortlog of {len(series)} patches in the cover letter")
    wanted = [subject(os.path.join(d, p)) for p in series]
    for i, want in enumerate(wanted):
        got = listed[i] if i < len(listed) else "(missing)"
        if got != want:
            errors.append(f"shortlog line {i + 1}: '{got}', patch {series[i]} says '{want}'")
    if args.shortstat and args.shortstat not in body.splitlines():
        errors.append(f"the cover letter's diffstat is not the series' ({args.shortstat})")
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
