#!/usr/bin/env python3
"""The damage harness: damaged copies of a real store, read by the CLI, every outcome classified.

Builds a store with `trendstore generate` (minute energy, activities, heart rate), records what
`verify`, `export`, `info` and three queries print for it, then writes damaged copies of its
`data.mdb` and runs the same commands on each, with a time limit:

- random damage: bytes overwritten at random offsets (1, 4 or 16 of them), a page zeroed;
- LMDB-structure-aware damage: a page header's flags, lower or upper bound, a node's offset,
  size, flags or child page number in a branch or leaf page, an overflow page's count, a meta
  page's root, last page or transaction id (the newest's cleared, or the older's raised above
  it: an older root);
- misplaced pages, as a device that writes a page to the wrong place leaves them: a page
  overwritten with another page's bytes, two pages swapped, a leaf or branch page overwritten
  with a page from inside an overflow run (each with its page number fixed, so only the
  contents are wrong);
- a lost write: a page holding its version from before the store's last commit;
- a free-list entry naming a live page (the next write reuses it);
- truncation: the file cut at a page boundary or inside a page.

After the read commands, `import` writes a few days of samples into the same copy.

Each run is one of: `crash` (killed by a signal), `hang` (past the time limit), `silent` (exit 0
with output other than the undamaged store's: a wrong answer), `limit` (such a wrong answer on
damage of the kinds `LIMITS` names, which no check short of page checksums can see),
`reported` (a non-zero exit, or for verify exit 3), `same` (exit 0, the undamaged output; for
import, a write that succeeded). verify is `silent` (or `limit`) when it exits 0 while export
gives other samples than the undamaged store's.

    python3 Tools/damage.py --tool .build/release/trendstore --variants 300 [--seed 1] [--json out.json]

With --encrypted the store is encrypted under a new key and every command opens it with it.

With --strict verify,export the exit status is 1 when any run of those commands crashed, hung
or answered silently wrong outside the limits (CI runs a fixed slice so).
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

PAGE = 4096
P_BRANCH, P_LEAF, P_OVERFLOW, P_META = 0x01, 0x02, 0x04, 0x08
NOW = "2026-03-20T12:00:00-07:00"


def commands(tool, store, extra, key):
    """The commands run on every copy, in order: name → argument list. The write comes last.
    With `key` (a key file), every command opens the encrypted store with it."""
    common = ["--store", store] + (["--key-file", key] if key else [])
    return {
        "verify": [tool, "verify"] + common,
        "export": [tool, "export", "--series", "activeEnergy,heartRate,Run,Ride,Walk,Swim,Hike"]
        + common,
        "info": [tool, "info", "--json"] + common,
        "weekday-average": [tool, "query", "weekday-average", "--series", "activeEnergy",
                            "--weekday", "monday", "--all-time", "--now", NOW, "--json"] + common,
        "heatmap": [tool, "query", "heatmap", "--series", "Run,Ride,Walk", "--from", "2025-12-01",
                    "--to", "2026-03-20", "--json"] + common,
        "stats": [tool, "query", "stats", "--series", "heartRate", "--from", "2026-01-01",
                  "--to", "2026-03-20", "--interval", "1d", "--json"] + common,
        "import": [tool, "import", extra] + common,
    }


def comparable(name, output, store):
    """The output of `name` without what differs between copies of one store: its path, and
    for info the file's size."""
    output = output.replace(store.encode(), b"<store>")
    if name == "info":
        try:
            info = json.loads(output)
        except ValueError:
            return output
        info.pop("bytesOnDisk", None)
        info.pop("footprint", None)
        return json.dumps(info, sort_keys=True).encode()
    return output


def run(name, arguments, store, timeout):
    """(status, digest of standard output); status is 'hang' or -signal where it applies."""
    try:
        done = subprocess.run(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, env=dict(os.environ, SWIFT_BACKTRACE="enable=no"))
    except subprocess.TimeoutExpired:
        return "hang", None
    status = done.returncode
    # A shell-style 128+N exit is how a child that re-raised a signal may report it.
    return status, hashlib.sha256(comparable(name, done.stdout, store)).hexdigest()


def pages(data):
    """(headed, inner): (page number, flags) of every page that starts with a header, and the
    numbers of the pages inside overflow runs (a value's bytes, no header)."""
    headed, inner = [], []
    number, count = 0, len(data) // PAGE
    while number < count:
        flags = struct.unpack_from("<H", data, number * PAGE + 10)[0]
        headed.append((number, flags))
        run = 1
        if number > 1 and flags & P_OVERFLOW:
            run = max(1, struct.unpack_from("<I", data, number * PAGE + 12)[0])
            inner.extend(range(number + 1, min(count, number + run)))
        number += run
    return headed, inner


def newest_meta(data):
    """The meta page (0 or 1) with the larger transaction id."""
    txnids = [struct.unpack_from("<Q", data, n * PAGE + 16 + 128)[0] for n in (0, 1)]
    return 0 if txnids[0] > txnids[1] else 1


def place(data, number, page):
    """`page`'s bytes written over page `number`, its page number fixed to `number`."""
    data[number * PAGE:(number + 1) * PAGE] = page
    struct.pack_into("<Q", data, number * PAGE, number)


def free_list_naming_live_page(data, headed, rng):
    """The first free-list entry's page numbers with one replaced by a live leaf page, or None
    when the free list is empty or not a single leaf."""
    root = struct.unpack_from("<Q", data, newest_meta(data) * PAGE + 16 + 24 + 40)[0]
    if root >= len(data) // PAGE or root < 2:
        return None
    base = root * PAGE
    if not struct.unpack_from("<H", data, base + 10)[0] & P_LEAF:
        return None
    node = base + struct.unpack_from("<H", data, base + 16)[0]
    key_size = struct.unpack_from("<H", data, node + 6)[0]
    ids = node + 8 + key_size
    if struct.unpack_from("<H", data, node + 4)[0] & 0x01:  # the list in an overflow run
        ids = struct.unpack_from("<Q", data, ids)[0] * PAGE + 16
    if ids + 16 > len(data):
        return None
    count = struct.unpack_from("<Q", data, ids)[0]
    live = [n for n, f in headed if f & P_LEAF and n > 1]
    if not (0 < count < PAGE) or not live or ids + 8 * (count + 1) > len(data):
        return None
    entries = list(struct.unpack_from(f"<{count}Q", data, ids + 8))
    victim = rng.choice(live)
    entries[rng.randrange(count)] = victim
    entries = sorted(set(entries), reverse=True)  # LMDB keeps the list sorted, descending
    struct.pack_into(f"<Q{len(entries)}Q", data, ids, len(entries), *entries)
    return victim


KINDS = ["bytes", "zero-page", "header", "node", "overflow", "meta", "old-meta",
         "old-meta-raised", "page-copy", "page-swap", "overflow-into-tree", "lost-write",
         "free-live", "truncate"]
# Damage that leaves every page well formed and a B-tree LMDB walks without complaint, which
# no check short of page checksums can see (RELIABILITY.md's limits): a wrong answer on these
# is tallied as `limit`, not `silent`.
LIMITS = {"page-copy", "page-swap", "lost-write", "free-live"}


def damage(data, older, rng):
    """(damaged copy of `data`, what was done, its kind); `older` is the file before its last
    commit."""
    kind = rng.choice(KINDS)
    damaged, what = damage_of_kind(data, older, rng, kind)
    return damaged, what, kind


def damage_of_kind(data, older, rng, kind):
    """A copy of `data` with damage of `kind`, and what was done (`older`: the file before its
    last commit)."""
    data = bytearray(data)
    headed, inner = pages(data)
    def page_of(mask):
        chosen = [n for n, f in headed if f & mask and n > 1]
        return rng.choice(chosen) if chosen else rng.randrange(2, max(3, len(headed)))
    def page(number):
        return bytes(data[number * PAGE:(number + 1) * PAGE])
    if kind == "bytes":
        count = rng.choice([1, 4, 16])
        for _ in range(count):
            data[rng.randrange(2 * PAGE, len(data))] = rng.randrange(256)
        return bytes(data), f"{count} random bytes"
    if kind == "zero-page":
        number = rng.randrange(2, len(data) // PAGE)
        data[number * PAGE:(number + 1) * PAGE] = bytes(PAGE)
        return bytes(data), f"page {number} zeroed"
    if kind == "header":
        number = page_of(P_BRANCH | P_LEAF)
        field = rng.choice([(10, "flags"), (12, "lower"), (14, "upper")])
        struct.pack_into("<H", data, number * PAGE + field[0], rng.randrange(65536))
        return bytes(data), f"page {number} header {field[1]}"
    if kind == "node":
        number = page_of(P_BRANCH | P_LEAF)
        base = number * PAGE
        lower = struct.unpack_from("<H", data, base + 12)[0]
        slots = max(1, (lower - 16) // 2) if 16 <= lower < PAGE else 1
        slot = rng.randrange(slots)
        offset = struct.unpack_from("<H", data, base + 16 + 2 * slot)[0]
        what = rng.choice(["slot", "size", "child", "flags", "key-size"])
        if what == "slot" or not (16 <= offset < PAGE - 8):
            struct.pack_into("<H", data, base + 16 + 2 * slot, rng.randrange(65536))
            return bytes(data), f"page {number} node slot {slot}"
        node = base + offset
        if what == "size":  # mn_lo/mn_hi: the data size (leaf) or low bits of the child (branch)
            struct.pack_into("<H", data, node, rng.randrange(65536))
        elif what == "child":
            struct.pack_into("<H", data, node + 2, rng.randrange(65536))
        elif what == "flags":  # big data, sub-database, duplicates
            struct.pack_into("<H", data, node + 4, rng.choice([1, 2, 4, 6, rng.randrange(65536)]))
        else:
            struct.pack_into("<H", data, node + 6, rng.randrange(65536))
        return bytes(data), f"page {number} node {slot} {what}"
    if kind == "overflow":
        number = page_of(P_OVERFLOW)
        struct.pack_into("<I", data, number * PAGE + 12, rng.randrange(1, 1 << 20))
        return bytes(data), f"overflow page {number} count"
    if kind in ("meta", "old-meta", "old-meta-raised"):
        # The meta pages: magic(4) version(4) address(8) mapsize(8), two database records of
        # 48 bytes (free pages, main), last page (8), transaction id (8).
        newest = newest_meta(data)
        txnid = newest * PAGE + 16 + 128
        if kind == "old-meta":
            # The newest meta page's checksum-free fields cleared: LMDB falls back to the older root.
            struct.pack_into("<Q", data, txnid, 0)
            return bytes(data), "newest meta page's transaction id zeroed (an older root)"
        if kind == "old-meta-raised":
            older_id = (1 - newest) * PAGE + 16 + 128
            struct.pack_into("<Q", data, older_id, struct.unpack_from("<Q", data, txnid)[0] + 1)
            return bytes(data), "older meta page's transaction id raised above the newest's"
        field = rng.choice([(16 + 24 + 48 + 40, "main root"), (16 + 120, "last page"),
                            (16 + 24 + 40, "free-list root")])
        struct.pack_into("<Q", data, newest * PAGE + field[0], rng.randrange(1 << 32))
        return bytes(data), f"meta {newest} {field[1]}"
    if kind in ("page-copy", "page-swap"):
        target = page_of(P_BRANCH | P_LEAF)
        source = page_of(rng.choice([P_BRANCH, P_LEAF, P_OVERFLOW]))
        target_bytes = page(target)
        place(data, target, page(source))
        if kind == "page-swap":
            place(data, source, target_bytes)
            return bytes(data), f"pages {target} and {source} swapped"
        return bytes(data), f"page {target} overwritten with page {source}"
    if kind == "overflow-into-tree" and inner:
        target, source = page_of(rng.choice([P_BRANCH, P_LEAF])), rng.choice(inner)
        place(data, target, page(source))
        return bytes(data), f"page {target} overwritten with page {source} of an overflow run"
    if kind == "lost-write":
        changed = [n for n in range(2, min(len(data), len(older)) // PAGE)
                   if page(n) != older[n * PAGE:(n + 1) * PAGE]]
        if changed:
            number = rng.choice(changed)
            data[number * PAGE:(number + 1) * PAGE] = older[number * PAGE:(number + 1) * PAGE]
            return bytes(data), f"page {number} as before the last commit (a lost write)"
    if kind == "free-live":
        victim = free_list_naming_live_page(data, headed, rng)
        if victim is not None:
            return bytes(data), f"free list naming live page {victim}"
    cut = rng.choice([rng.randrange(2, len(data) // PAGE) * PAGE, rng.randrange(PAGE, len(data))])
    return bytes(data[:cut]), f"truncated to {cut} bytes"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tool", required=True)
    parser.add_argument("--variants", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--json")
    parser.add_argument("--encrypted", action="store_true",
                        help="damage an encrypted store (a new key) instead of a plain one")
    parser.add_argument("--strict", default="",
                        help="comma-separated commands: exit 1 when any of their runs crashed, "
                        "hung or answered silently wrong")
    arguments = parser.parse_args()
    tool = os.path.abspath(arguments.tool)
    work = tempfile.mkdtemp(prefix="trendstore-damage-")
    try:
        base = os.path.join(work, "base")
        key = os.path.join(work, "key.hex") if arguments.encrypted else None
        if key:
            subprocess.run([tool, "keygen", "--out", key], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        opens = ["--key-file", key] if key else []
        subprocess.run([tool, "generate", "--days", str(arguments.days), "--seed", "7", "--tz",
                        "America/Los_Angeles", "--end", "2026-03-20", "--heart-rate",
                        "--store", base] + opens, check=True, stdout=subprocess.DEVNULL)
        # The store's last commit (a lost write puts back a page from before it), and the
        # samples the harness's import writes.
        last, extra = os.path.join(work, "last.csv"), os.path.join(work, "extra.csv")
        for path, day in ((last, "2026-03-20"), (extra, "2026-03-21")):
            with open(path, "w") as file:
                file.write("series,start,end,value,unit\n" + "".join(
                    f"activeEnergy,{day}T{hour:02}:00:00Z,{day}T{hour:02}:01:00Z,1.5,kcal\n"
                    for hour in range(0, 24, 3)))
        older = open(os.path.join(base, "data.mdb"), "rb").read()
        subprocess.run([tool, "import", last, "--store", base] + opens, check=True,
                       stdout=subprocess.DEVNULL)
        original = open(os.path.join(base, "data.mdb"), "rb").read()
        copy = os.path.join(work, "copy")
        def outcomes_on(data):
            shutil.rmtree(copy, ignore_errors=True)
            os.makedirs(copy)
            with open(os.path.join(copy, "data.mdb"), "wb") as file:
                file.write(data)
            return {name: run(name, command, copy, arguments.timeout)
                    for name, command in commands(tool, copy, extra, key).items()}
        baseline = outcomes_on(original)
        for name, (status, _) in baseline.items():
            if status != 0:
                sys.exit(f"the undamaged store fails {name}: {status}")
        rng = random.Random(arguments.seed)
        tally = {name: {} for name in baseline}
        findings = []
        for variant in range(arguments.variants):
            damaged, what, kind = damage(original, older, rng)
            outcomes = outcomes_on(damaged)
            export_differs = outcomes["export"][1] != baseline["export"][1]
            for name, (status, digest) in outcomes.items():
                if status == "hang":
                    verdict = "hang"
                elif status < 0 or status >= 128:
                    verdict = "crash"
                elif status == 0 and (digest == baseline[name][1] or name == "import"):
                    verdict = "same"  # for import: the write succeeded (verify judges the store)
                elif status == 0 and name == "verify":
                    verdict = ("limit" if kind in LIMITS else "silent") if export_differs else "same"
                elif status == 0:
                    verdict = "limit" if kind in LIMITS else "silent"
                else:
                    verdict = "reported"
                tally[name][verdict] = tally[name].get(verdict, 0) + 1
                if verdict in ("crash", "hang", "silent", "limit"):
                    findings.append({"variant": variant, "damage": what, "command": name,
                                     "verdict": verdict, "status": status})
        print(f"{arguments.variants} damaged copies of a {len(original)}-byte "
              f"{'encrypted ' if key else ''}store "
              f"(seed {arguments.seed}), {os.path.basename(tool)}")
        print("| command | crash | hang | silent | limit | reported | same |")
        print("|---|---|---|---|---|---|---|")
        for name, counts in tally.items():
            print(f"| {name} | " + " | ".join(str(counts.get(v, 0)) for v in
                                             ("crash", "hang", "silent", "limit", "reported", "same")) + " |")
        for finding in findings[:40]:
            print(f"  variant {finding['variant']}: {finding['damage']}: {finding['command']} "
                  f"{finding['verdict']} ({finding['status']})")
        if arguments.json:
            with open(arguments.json, "w") as file:
                json.dump({"tally": tally, "findings": findings}, file, indent=1)
        strict = set(filter(None, arguments.strict.split(",")))
        if any(finding["command"] in strict and finding["verdict"] != "limit"
               for finding in findings):
            sys.exit(1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
