#!/usr/bin/env python3
"""Checks that every repository path a contributor or user document names exists, so the
documents cannot point at files that moved: in README.md, ARCHITECTURE.md and docs/*.md, each
`code span` that looks like a path (it holds a '/' or ends in a file extension of the
repository's) must name a file or folder of the repository: from its root, or from
Sources/TrendStore/ (the folders of the TrendStore module, `Storage/Tables/`), or, for a bare
file name, anywhere in the repository. Prints each missing path and exits 1 if there is any.

    python3 Tools/check-doc-paths.py
"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DOCUMENTS = ["README.md", "ARCHITECTURE.md"] + sorted(
    os.path.join("docs", name) for name in os.listdir(os.path.join(ROOT, "docs"))
    if name.endswith(".md"))
EXTENSIONS = (".swift", ".md", ".py", ".sh", ".h", ".c", ".modulemap")
BASES = ["", "Sources/TrendStore/", "Sources/"]
ZONE_AREAS = {"Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe",
              "Indian", "Pacific", "Etc"}

files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True,
                       check=True).stdout.split("\n")
names = {os.path.basename(path) for path in files if path}
folders = {os.path.dirname(path) + "/" for path in files if path}


def exists(path):
    if "/" not in path.rstrip("/"):
        return path.rstrip("/") in names or any(f.endswith("/" + path) for f in folders)
    for base in BASES:
        candidate = base + path
        if candidate in files or candidate.rstrip("/") + "/" in folders:
            return True
    return any(f.endswith("/" + path.rstrip("/") + "/") for f in folders) or any(
        f.endswith("/" + path) for f in files)


problems = []
for document in DOCUMENTS:
    text = open(os.path.join(ROOT, document), encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks are commands, not paths
    for span in re.findall(r"`([^`\n]+)`", text):
        if " " in span or span.startswith(("http", "~", "/", "$", "-")) or "<" in span:
            continue
        if span.split("/")[0] in ZONE_AREAS:  # a time zone, America/Los_Angeles
            continue
        if not (span.endswith(EXTENSIONS) or re.fullmatch(r"[A-Z][A-Za-z]*(/[A-Za-z0-9_.+-]+)+/?", span)):
            continue
        if not exists(span):
            problems.append(f"{document}: `{span}` names no file or folder of the repository")
for problem in problems:
    print(problem)
print(f"document paths: {len(problems)} missing in {len(DOCUMENTS)} documents")
sys.exit(1 if problems else 0)
