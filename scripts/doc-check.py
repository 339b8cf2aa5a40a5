#!/usr/bin/env python3
"""Check the documentation against the tree: links, patch names and counts.

usage: doc-check.py [ROOT]   (ROOT: the repository, default: this script's parent)

Documents: README.md, doc/**/*.md and the cover letters: patches/<base>/0000-cover-letter.patch,
or patches/<base>/<series>/0000-cover-letter.patch for a base with several series
(patches/bases names the bases; the first is the default).
Fails (exit 1, one line per finding: FILE:LINE: what) when
- README.md is longer than 120 lines: it is the front page, the rest belongs in doc/;
- README.md or a file under doc/ (but doc/results/history.md, the one place for
  earlier versions) names a series version other than the current one, the vN of the
  cover letters' "Subject: [PATCH vN 00/M]" (all must say the same vN): in its text ("v11", "bench-v6.md",
  "doc/results/v10/") or in its own path (doc/results/v11/...);
- a relative Markdown link ([text](target), ![alt](target), [id]: target) outside
  code points to a file that does not exist, or to a #heading the target lacks;
- a repository path (doc/, scripts/, guest/, tests/, config/, patches/, .ci/)
  written in backticks in README.md or doc/*.md, or anywhere in the cover letter,
  does not exist (paths with <, *, $ or { are patterns, and a path after "commit:"
  as in `git show 1a2b3c4:doc/results/bench.md` is pinned to that commit: skipped;
  the cover letter may name an earlier version's doc/results/vN/ that git history
  holds);
- a patch file name (0NNN-words..., with or without .patch) in the current documents
  is not the start of a file in patches/;
- a cover letter counts patches ("17 patches", "seventeen patches", "17-patch series")
  other than its series has, or README.md a number that is neither a series' nor a
  base's count;
- the current documents claim a KUnit case count ("10 KUnit cases", "KUnit (one
  suite, 10 cases)", "10/10" next to "KUnit", "pass:10" on a line that names KUnit
  or blk-poll:) other than the KUNIT_CASE( lines the base's patches add (added less
  removed; the default base's outside the cover letters);
- README.md's "N suite boots" is not 1 (smoke.sh) + the entries of the Makefile's
  TEST_SCRIPTS (its default: `make print-TEST_SCRIPTS` with no override), or README.md
  has no such sentence;
- README.md's "make bench ... N boots" is not the default BENCH_BOOTS of
  scripts/bench.sh plus its hybrid and jobs boots.
The counts and patch names are checked in README.md, doc/*.md and the cover letter;
doc/results/** reports measurements of the builds it names, so in it only links,
paths and version names are checked. Prints "doc-check: ok (...)" and exits 0 when all agree.
"""
import glob
import os
import re
import subprocess
import sys

NUMBERS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}
NUM = r"(?<![\w.-])(\d+|" + "|".join(NUMBERS) + r")"
# [text](target "title"), ![alt](target); text may hold one level of brackets.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]+(?:\([^()\s]*\)[^()\s<>]*)*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
PATH = re.compile(r"(?<![\w/.:-])((?:doc|scripts|guest|tests|config|patches|\.ci)/[^\s`'\"()\[\],;]*)")
PATCHNAME = re.compile(r"(?<![\w.-])(0\d{3}-[A-Za-z][\w.-]*)")
PATCHCOUNT = re.compile(r"\b" + NUM + r"(?:\s+patches\b|-patch\b)", re.I)
KUNIT_CLAIMS = [
    re.compile(r"\b" + NUM + r"\s+KUnit\s+(?:test\s+)?cases\b", re.I),
    re.compile(r"\bKUnit\b[^.\n]{0,40}?\b" + NUM + r"\s+(?:test\s+)?cases\b", re.I),
]
KUNIT_FRACTION = [
    re.compile(r"\bKUnit\b[^.;\n]{0,30}?\b(\d+)/(\d+)\b"),
    re.compile(r"\b(\d+)/(\d+)\b[^.;\n]{0,30}?\bKUnit\b"),
]
KUNIT_PASS = re.compile(r"\bpass:(\d+)")
README_MAX_LINES = 120
# A series version: v12, bench-v6.md, results/v10/; not v1.0 nor a word such as "dev2".
VERSION = re.compile(r"(?<![A-Za-z0-9_])v(\d+)(?!\d)(?!\.\d)")
RESULTS_DIR = re.compile(r"^doc/results/v(\d+)(?:/|$)")
# Versions of other things that a document may name: cgroup v2 (io.max).
NOT_SERIES = ("cgroup ", "cgroup-")
SUITE_BOOTS = re.compile(r"\b" + NUM + r"\s+suite\s+boots?\b", re.I)
BENCH_BOOTS = re.compile(r"make bench`?[^.\n]{0,60}?\b" + NUM + r"\s+boots\b", re.I)


def number(word):
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def lineno(text, pos):
    return text.count("\n", 0, pos) + 1


def strip_code(text, markdown):
    """Blank fenced blocks, indented code blocks and `code spans`, keeping offsets."""
    if not markdown:
        return text
    out, fence = [], None
    prev_blank = True
    for line in text.split("\n"):
        m = re.match(r"^ {0,3}(`{3,}|~{3,})", line)
        if fence:
            out.append(" " * len(line))
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            out.append(" " * len(line))
            continue
        if prev_blank and re.match(r"^(    |\t)", line) and not re.match(r"^\s*([-*+]|\d+\.)\s", line):
            out.append(" " * len(line))  # indented code block (blank line before it)
            continue
        prev_blank = not line.strip()
        out.append(re.sub(r"`[^`\n]*`", lambda s: " " * len(s.group(0)), line))
    return "\n".join(out)


def join_lines(text):
    """text with each line break inside a paragraph made a space, and for each
    character of the result its offset in text."""
    out, origin, last = [], [], 0
    for m in re.finditer(r"[ \t]*\n[ \t]*(?!\n)", text):
        out.append(text[last:m.start()])
        origin.extend(range(last, m.start()))
        out.append(" ")
        origin.append(m.start())
        last = m.end()
    out.append(text[last:])
    origin.extend(range(last, len(text) + 1))
    return "".join(out), origin


def code_spans(text):
    """(offset, content) of each `code span` and each line of a code block."""
    for m in re.finditer(r"`([^`\n]+)`", text):
        yield m.start(1), m.group(1)


def test_scripts(root):
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES", "MAKELEVEL", "TEST_SCRIPTS")}
    r = subprocess.run(["make", "-s", "--no-print-directory", "-C", root, "-f", "Makefile",
                        "print-TEST_SCRIPTS"], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"doc-check: make print-TEST_SCRIPTS failed: {r.stderr.strip()}")
    return r.stdout.split()


def bench_boots(root):
    with open(os.path.join(root, "scripts/bench.sh"), encoding="utf-8") as f:
        src = f.read()
    boots = re.search(r"^BOOTS=\$\{BENCH_BOOTS:-([^}]*)\}", src, re.M)
    extra = sum(1 for v in ("HYBRID_NSEC", "JOB_COUNTS") if re.search("^" + v + r"=\$\{BENCH_\w+-[^}]+\}", src, re.M))
    return len(boots.group(1).split()) + extra if boots else None


def cover_letters(root):
    """[(cover path relative to root, base, [series entries])], the default base first."""
    covers = []
    with open(os.path.join(root, "patches/bases"), encoding="utf-8") as f:
        bases = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
    for b in bases:
        with open(os.path.join(root, "patches", b, "series"), encoding="utf-8") as f:
            series = [s.strip() for s in f if s.strip() and not s.startswith("#")]
        subs = list(dict.fromkeys(s.split("/")[0] for s in series if "/" in s))
        if not subs:
            covers.append((f"patches/{b}/0000-cover-letter.patch", b, series))
        for sub in subs:
            covers.append((f"patches/{b}/{sub}/0000-cover-letter.patch", b,
                           [s for s in series if s.startswith(sub + "/")]))
    return covers


def current_version(root, cover):
    """N of the cover letter's "Subject: [PATCH vN 00/M]", or None."""
    with open(os.path.join(root, cover), encoding="utf-8", errors="replace") as f:
        m = re.search(r"^Subject: \[PATCH v(\d+) ", f.read(), re.M)
    return int(m.group(1)) if m else None


def in_history(root, path, cache={}):
    """Whether a commit of the repository held path (ROOT's, else this script's)."""
    if path not in cache:
        cache[path] = False
        for repo in (root, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")):
            r = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%h", "--", path],
                               capture_output=True, text=True)
            if r.returncode == 0:
                cache[path] = bool(r.stdout.strip())
                break
    return cache[path]


def slug(heading):
    """The anchor GitHub gives a Markdown heading."""
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")


def anchors(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = strip_code(f.read(), True)
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M)}


def version_names(root, current):
    """Findings for README.md and doc/ (but results/history.md) naming another version."""
    found = []
    files = ["README.md"] + sorted(os.path.relpath(p, root) for p in
                                   glob.glob(os.path.join(root, "doc/**/*"), recursive=True)
                                   if os.path.isfile(p))
    for rel in files:
        if rel == "doc/results/history.md":
            continue
        for m in VERSION.finditer(rel):
            if int(m.group(1)) != current:
                found.append(f"{rel}: the file's name names v{m.group(1)}, the series is v{current}: "
                             "an earlier version's results are in git history and a line of doc/results/history.md")
                break
        with open(os.path.join(root, rel), "rb") as f:
            data = f.read()
        if b"\0" in data:
            continue  # a plot
        for i, line in enumerate(data.decode("utf-8", "replace").split("\n")):
            for m in VERSION.finditer(line):
                if line[:m.start()].lower().endswith(NOT_SERIES):
                    continue
                if int(m.group(1)) != current:
                    found.append(f"{rel}:{i + 1}: names v{m.group(1)} ('{line.strip()[:60]}'), the series is "
                                 f"v{current}: earlier versions belong in doc/results/history.md")
    return found


def kunit_cases(root, base, series):
    n = 0
    for p in series:
        with open(os.path.join(root, "patches", base, p), encoding="utf-8", errors="replace") as f:
            for line in f:
                if "KUNIT_CASE(" not in line:
                    continue
                if line.startswith("+") and not line.startswith("+++"):
                    n += 1
                elif line.startswith("-") and not line.startswith("---"):
                    n -= 1
    return n


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    covers = cover_letters(root)
    cover_series = {c: series for c, _, series in covers}
    cover_base = {c: b for c, b, _ in covers}
    base_series = {}
    for _, b, series in covers:
        base_series.setdefault(b, []).extend(series)
    default = covers[0][1]
    series = base_series[default]
    counts = {len(v) for v in cover_series.values()} | {len(v) for v in base_series.values()}
    patch_files = sorted(os.path.basename(p) for p in
                         glob.glob(os.path.join(root, "patches/**/*.patch"), recursive=True))
    ncases_of = {b: kunit_cases(root, b, v) for b, v in base_series.items()}
    ncases = ncases_of[default]
    scripts = test_scripts(root)
    nboots = 1 + len(scripts)
    nbench = bench_boots(root)
    versions = {c: current_version(root, c) if os.path.exists(os.path.join(root, c)) else None
                for c in cover_series}
    version = versions[covers[0][0]]
    docs = ["README.md"] + sorted(os.path.relpath(p, root) for p in
                                  glob.glob(os.path.join(root, "doc/**/*.md"), recursive=True)) + list(cover_series)
    errors = []

    def err(rel, text, pos, msg):
        errors.append(f"{rel}:{lineno(text, pos)}: {msg}")

    for c, v in versions.items():
        if v is None:
            errors.append(f"{c}: no 'Subject: [PATCH vN 00/M]' line: the current version is unknown")
        elif v != version:
            errors.append(f"{c}: says v{v}, {covers[0][0]} v{version}: the series are one version")
    if version is not None:
        errors.extend(version_names(root, version))
    readme = os.path.join(root, "README.md")
    if os.path.exists(readme):
        with open(readme, encoding="utf-8") as f:
            nlines = len(f.read().splitlines())
        if nlines > README_MAX_LINES:
            errors.append(f"README.md: {nlines} lines, the front page has at most {README_MAX_LINES}: "
                          "move the rest to doc/")

    for rel in docs:
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            errors.append(f"{rel}: missing")
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        markdown = rel.endswith(".md")
        cover = rel if rel in cover_series else None
        current = rel == "README.md" or cover or (rel.startswith("doc/") and rel.count("/") == 1)
        ncases = ncases_of[cover_base[cover]] if cover else ncases_of[default]
        prose = strip_code(text, markdown)
        base = os.path.dirname(path)
        # Markdown links, outside code.
        if markdown:
            targets = [(m.start(1), m.group(1)) for m in LINK.finditer(prose)]
            targets += [(m.start(1), m.group(1)) for m in REFDEF.finditer(prose)]
            for pos, t in targets:
                if SCHEME.match(t):
                    continue
                t, _, frag = t.partition("#")
                target = os.path.join(base, t) if t else path
                if t.startswith("/"):
                    err(rel, text, pos, f"link to an absolute path: {t}")
                elif not os.path.exists(target):
                    err(rel, text, pos, f"broken link: {t} (no {os.path.relpath(target, root)})")
                elif frag and target.endswith(".md") and frag not in anchors(target):
                    err(rel, text, pos, f"broken link: {t}#{frag} (no heading '{frag}' in {os.path.relpath(target, root)})")
        # Repository paths: in code spans of Markdown, anywhere in the cover letter.
        spans = code_spans(text) if markdown else [(0, text)]
        for off, s in spans:
            for m in PATH.finditer(s):
                p = m.group(1).rstrip(".:")
                if re.search(r"[<>*${}?]", p):
                    continue
                if not os.path.exists(os.path.join(root, p)):
                    old = RESULTS_DIR.match(p)
                    if rel == cover and old and int(old.group(1)) != version and in_history(root, p):
                        continue  # an earlier version's results, kept in git history
                    err(rel, text, off + m.start(1), f"no such file in the repository: {p}")
        if not current:
            continue
        # Patch file names.
        for m in PATCHNAME.finditer(text):
            name = m.group(1).rstrip(".")
            stem = name[:-len(".patch")] if name.endswith(".patch") else name
            if not any(pf == name or pf.startswith(stem) for pf in patch_files):
                err(rel, text, m.start(1), f"no patch file {name} in patches/")
        # Counts are read with wrapped lines joined; where() maps back to a line. The
        # cover letter's changelog entries of earlier versions keep their own counts.
        counted = text
        if rel == cover:
            v = re.search(r"^Subject: \[PATCH v(\d+)", text, re.M)
            old = v and next((m for m in re.finditer(r"^v(\d+):", text, re.M)
                              if int(m.group(1)) < int(v.group(1))), None)
            if old:
                counted = text[:old.start()]
        joined, origin = join_lines(counted)

        def where(m):
            return origin[m.start()]

        if cover:
            for m in PATCHCOUNT.finditer(joined):
                if number(m.group(1)) != len(cover_series[cover]):
                    err(rel, text, where(m), f"says '{m.group(0)}', its series has {len(cover_series[cover])}")
        elif rel == "README.md":
            for m in PATCHCOUNT.finditer(joined):
                if number(m.group(1)) not in counts:
                    err(rel, text, where(m), f"says '{m.group(0)}', the series have {sorted(counts)}")
        for rx in KUNIT_CLAIMS:
            for m in rx.finditer(joined):
                if number(m.group(1)) != ncases:
                    err(rel, text, where(m), f"says '{m.group(0)}', the patches add {ncases} KUNIT_CASE()s")
        for rx in KUNIT_FRACTION:
            for m in rx.finditer(joined):
                if {int(m.group(1)), int(m.group(2))} != {ncases}:
                    err(rel, text, where(m), f"says '{m.group(0)}', the patches add {ncases} KUNIT_CASE()s")
        for i, line in enumerate(counted.split("\n")):
            if not re.search(r"KUnit|blk-poll:", line):
                continue
            for m in KUNIT_PASS.finditer(line):
                if int(m.group(1)) != ncases:
                    errors.append(f"{rel}:{i + 1}: says 'pass:{m.group(1)}', the patches add {ncases} KUNIT_CASE()s")
        if rel == "README.md":
            claims = list(SUITE_BOOTS.finditer(joined))
            if not claims:
                errors.append(f"{rel}: no 'N suite boots' sentence (make test boots {nboots} times)")
            for m in claims:
                if number(m.group(1)) != nboots:
                    err(rel, text, where(m), f"says '{m.group(0)}', make test boots {nboots} times "
                        f"(smoke.sh + {len(scripts)} TEST_SCRIPTS entries in the Makefile)")
            for m in BENCH_BOOTS.finditer(joined):
                if nbench is not None and number(m.group(1)) != nbench:
                    err(rel, text, where(m), f"says '{m.group(0)}', scripts/bench.sh boots {nbench} times by default")
    for e in errors:
        print(e)
    if errors:
        print(f"doc-check: {len(errors)} finding(s)")
        sys.exit(1)
    print(f"doc-check: ok ({len(docs)} documents, series v{version}; {len(series)} patches on {default}, "
          f"{ncases_of[default]} KUnit cases, "
          f"{nboots} suite boots, {nbench} bench boots)")


if __name__ == "__main__":
    main()
