#!/usr/bin/env python3
"""Checks that data flows one way through TrendStore's layers (ARCHITECTURE.md).

Modules: each module may import only the modules below it (and the system's).
Folders of Sources/TrendStore, lowest first: a file may name only types declared in its own
folder or in a lower one. Types are found by their declarations; names are matched as words
outside comments.

One door to LMDB: inside TrendStore only Storage/Tables/ calls LMDB's transaction and
cursor API (begins a transaction: `environment.read`, `environment.write`, `lend`; a method
of a transaction, `txn` or `transaction` by the house convention, or of a cursor;
`openDatabase`; `mdb_` functions) or names its `Database`, `Cursor` and
`DatabaseStatistics` types or the folder's `RawTable`; every other file goes through the
typed tables. Prints each violation and exits 1 if there is any.

    python3 Tools/check-layers.py
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SYSTEM = {"Foundation", "FoundationEssentials", "Synchronization", "Observation", "Dispatch", "Glibc", "Darwin",
          "Musl", "Testing", "XCTest"}
# Each module and what it may import.
MODULES = {
    "CLMDB": set(),
    "CZlibSystem": set(),
    "CCRC32C": set(),
    "LMDB": {"CLMDB"},
    "TrendStore": {"LMDB", "CZlibSystem", "CCRC32C", "Crypto", "_CryptoExtras"},
    "TrendStoreImport": {"TrendStore", "ZIPFoundation"},
    "TrendStoreGenerator": {"TrendStore"},
    "TrendStoreTesting": {"TrendStore"},
}
# The folders of the TrendStore module, lowest layer first.
FOLDERS = ["Model", "Storage", "Aggregation", "Caching", "Schema", "Store", "KeyValues"]

# Top-level declarations only (outside every brace, at any indent, so those inside an `#if`
# count): a member type alias such as an AsyncSequence's `Element` is no layer's type.
DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|final|"
    r"nonisolated|indirect)\s+)*(?:struct|enum|class|actor|protocol|typealias)\s+(\w+)")
# A string literal, whose braces are no scope.
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(\w+)", re.M)
# The folder of TrendStore that alone calls LMDB's transaction and cursor API.
DOOR = os.path.join("Storage", "Tables")
LMDB_CALL = re.compile(
    r"\b(?:txn|transaction|\$0)\.(?:put|withValue|value|delete|withCursor|statistics|removeAll|lend)\("
    r"|\bcursor\.\w+\(|\bopenDatabase\(|\bmdb_\w+\(|\benvironment\.(?:read|write)\b|\b(?:txn|transaction)\.lend\b")
LMDB_TYPE = re.compile(r"\b(?:Database|Cursor|DatabaseStatistics|RawTable)\b")


def swift_files(directory):
    for folder, _, names in os.walk(directory):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(folder, name)


def code(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def declarations(text):
    """The names of the types `text` declares at its top level."""
    names = []
    depth = 0
    for line in text.split("\n"):
        if depth == 0:
            match = DECLARATION.match(line)
            if match:
                names.append(match.group(1))
        bare = STRING.sub("", line)
        depth += bare.count("{") - bare.count("}")
    return names


def main():
    problems = []
    for module, allowed in MODULES.items():
        for path in swift_files(os.path.join(ROOT, "Sources", module)):
            for imported in IMPORT.findall(code(path)):
                if imported not in allowed and imported not in SYSTEM:
                    problems.append(f"{os.path.relpath(path, ROOT)}: imports {imported}, "
                                    f"which {module} may not")
    base = os.path.join(ROOT, "Sources", "TrendStore")
    owner = {}
    files = {folder: list(swift_files(os.path.join(base, folder))) for folder in FOLDERS}
    for folder in os.listdir(base):
        if (os.path.isdir(os.path.join(base, folder)) and folder not in FOLDERS
                and not folder.endswith(".docc")):
            problems.append(f"Sources/TrendStore/{folder}: a folder that is no layer in FOLDERS")
    for folder, paths in files.items():
        for path in paths:
            for name in declarations(code(path)):
                owner.setdefault(name, folder)
    rank = {folder: index for index, folder in enumerate(FOLDERS)}
    for folder, paths in files.items():
        for path in paths:
            text = code(path)
            for name, declared_in in owner.items():
                if rank[declared_in] > rank[folder] and re.search(rf"\b{name}\b", text):
                    problems.append(f"{os.path.relpath(path, ROOT)}: names {name}, "
                                    f"declared in {declared_in}/, a higher layer than {folder}/")
    door_calls = 0
    for path in swift_files(base):
        relative = os.path.relpath(path, base)
        text = code(path)
        if relative.startswith(DOOR + os.sep):
            door_calls += len(LMDB_CALL.findall(text))
            continue
        for match in LMDB_CALL.finditer(text):
            problems.append(f"{os.path.relpath(path, ROOT)}: calls LMDB ({match.group(0)}) "
                            f"outside Sources/TrendStore/{DOOR}/, the one door to LMDB")
        for match in set(LMDB_TYPE.findall(text)):
            problems.append(f"{os.path.relpath(path, ROOT)}: names {match} "
                            f"outside Sources/TrendStore/{DOOR}/, the one door to LMDB")
    if door_calls == 0:
        problems.append(f"Sources/TrendStore/{DOOR}/: no LMDB call found: the rule checks nothing")
    for problem in problems:
        print(problem)
    print(f"layers: {len(problems)} violations in {sum(map(len, files.values()))} files"
          f" of TrendStore's {len(FOLDERS)} layers and {len(MODULES)} modules")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
