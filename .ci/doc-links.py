#!/usr/bin/env python3
"""Checks the relative links of the documentation: every [text](target) in README.md, CONTRIBUTING.md and
docs/**/*.md whose target is not a URL must name a file or directory of the repository, and its #anchor, if any,
a heading of that markdown file (GitHub's rule: lowercase, punctuation dropped, spaces to '-', a repeated heading
gets -1, -2, ...). Code blocks and code spans are skipped. Prints each broken link and exits 1; prints nothing and
exits 0 when all resolve.

usage: doc-links.py [ROOT]   (default: the repository this script is in)
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))


def pages():
    for name in ("README.md", "CONTRIBUTING.md"):
        if os.path.isfile(os.path.join(root, name)):
            yield os.path.join(root, name)
    for folder, dirs, files in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.join(folder, f)


def prose(text):
    """The lines outside fenced code blocks, with their numbers, code spans blanked out."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        marker = re.match(r"(```+|~~~+)", stripped)
        if fence:
            if marker and stripped.startswith(fence):
                fence = None
            continue
        if marker:
            fence = marker.group(1)
            continue
        yield number, re.sub(r"(`+)(.+?)\1", lambda m: "`" + " " * len(m.group(2)) + "`", line)


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # a link in a heading counts by its text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return "".join(c for c in text if c.isalnum() or c in " -_").replace(" ", "-")


anchors_of = {}


def anchors(path):
    if path not in anchors_of:
        found, seen = set(), {}
        text = open(path, encoding="utf-8").read()
        fence = None
        for line in text.split("\n"):       # headings with their code spans kept (they count in the anchor)
            stripped = line.lstrip()
            marker = re.match(r"(```+|~~~+)", stripped)
            if fence:
                if marker and stripped.startswith(fence):
                    fence = None
                continue
            if marker:
                fence = marker.group(1)
                continue
            m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                base = slug(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            for m in re.finditer(r"<a\s+(?:id|name)=\"([^\"]+)\"", line):
                found.add(m.group(1))
        anchors_of[path] = found
    return anchors_of[path]


broken = []
for page in pages():
    text = open(page, encoding="utf-8").read()
    for number, line in prose(text):
        for m in re.finditer(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", line):
            target = m.group(1)
            if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target):   # http:, https:, mailto:, ...
                continue
            path, _, anchor = target.partition("#")
            where = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            problem = None
            if not os.path.exists(where):
                problem = "no such file"
            elif anchor and where.endswith(".md") and anchor not in anchors(where):
                problem = "no heading #" + anchor
            if problem:
                broken.append(f"{os.path.relpath(page, root)}:{number}: ({target}) {problem}")

for b in broken:
    print(b)
if broken:
    print(f"doc-links: {len(broken)} broken link(s)", file=sys.stderr)
    sys.exit(1)
