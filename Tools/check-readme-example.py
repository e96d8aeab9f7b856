#!/usr/bin/env python3
"""Checks that the README's Swift example is the code of Examples/HostApp/main.swift that CI
compiles and runs: the lines between `// README:begin` and `// README:end` (dedented), after
`import TrendStore`, and followed by the `await store.close()` the example runs later. Every
other Swift block of the README, ARCHITECTURE.md, docs/*.md and the DocC articles must be lines
of one of the example programs CI runs (Examples/*/main.swift), in order, so none can rot.

    python3 Tools/check-readme-example.py
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
source = open(os.path.join(ROOT, "Examples/HostApp/main.swift"), encoding="utf-8").read()
region = re.search(r"\n    // README:begin\n(.*?)\n    // README:end", source, re.S)
if not region:
    sys.exit("Examples/HostApp/main.swift: no README:begin / README:end markers")
lines = [line[4:] if line.startswith("    ") else line for line in region.group(1).split("\n")]
expected = "import TrendStore\n\n" + "\n".join(lines) + "\nawait store.close()\n"
readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
block = re.search(r"## Using it from Swift.*?```swift\n(.*?)```", readme, re.S)
if not block or block.group(1) != expected:
    sys.exit("README.md: the example under 'Using it from Swift' differs from "
             "Examples/HostApp/main.swift (copy the lines between the README markers)")
examples = {
    name: [line.strip() for line in
           open(os.path.join(ROOT, "Examples", name, "main.swift"), encoding="utf-8").read().split("\n")]
    for name in sorted(os.listdir(os.path.join(ROOT, "Examples")))
    if os.path.exists(os.path.join(ROOT, "Examples", name, "main.swift"))}
docc = os.path.join(ROOT, "Sources/TrendStore/TrendStore.docc")
# The README's other Swift blocks are excerpts too.
documents = [("README.md", readme[block.end():])] + [
    (name, open(os.path.join(ROOT, name), encoding="utf-8").read())
    for name in ["ARCHITECTURE.md"] + [os.path.join("docs", n) for n in sorted(os.listdir(os.path.join(ROOT, "docs")))
                                      if n.endswith(".md")]] + [
    (f"TrendStore.docc/{name}", open(os.path.join(docc, name), encoding="utf-8").read())
    for name in sorted(os.listdir(docc)) if name.endswith(".md")]
for name, text in documents:
    for snippet in re.findall(r"```swift\n(.*?)```", text, re.S):
        lines = [line.strip() for line in snippet.split("\n") if line.strip()]

        def quotes(example):
            position = 0
            for line in lines:
                try:
                    position = example.index(line, position) + 1
                except ValueError:
                    return line
            return None

        misses = [quotes(example) for example in examples.values()]
        if all(misses):
            sys.exit(f"{name}: `{misses[0]}` is not a line of Examples/HostApp/main.swift "
                     "(snippets are excerpts of the example programs, Examples/*/main.swift, in order)")
print("README and DocC examples: excerpts of " + ", ".join(
    f"Examples/{name}/main.swift" for name in examples))
