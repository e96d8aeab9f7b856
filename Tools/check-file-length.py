#!/usr/bin/env python3
"""Checks that no Swift source file of the package is over 400 lines (STYLE.md: small files
with one job each). Prints each file over the limit and exits 1 if there is any.

    python3 Tools/check-file-length.py
"""
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LIMIT = 400
FOLDERS = ["Sources", "Tools", "Tests", "Examples"]


def main():
    too_long = []
    count = 0
    for top in FOLDERS:
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            if "/.build" in folder:
                continue
            for name in sorted(names):
                if name.endswith(".swift"):
                    path = os.path.join(folder, name)
                    count += 1
                    with open(path, encoding="utf-8") as file:
                        lines = sum(1 for _ in file)
                    if lines > LIMIT:
                        too_long.append((os.path.relpath(path, ROOT), lines))
    for path, lines in too_long:
        print(f"{path}: {lines} lines, over the limit of {LIMIT}")
    print(f"file length: {len(too_long)} of {count} Swift files over {LIMIT} lines")
    return 1 if too_long else 0


if __name__ == "__main__":
    sys.exit(main())
