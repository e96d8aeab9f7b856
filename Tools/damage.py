#!/usr/bin/env python3
"""The damage harness: damaged copies of a real store, read by the CLI, every outcome classified.

Builds a store with `trendstore generate` (minute energy, activities, heart rate), records what
`verify`, `export`, `info` and three queries print for it, then writes damaged copies of its
`data.mdb` and runs the same commands on each, with a time limit:

- random damage: bytes overwritten at random offsets (1, 4 or 16 of them), a page zeroed;
- LMDB-structure-aware damage: a page header's flags, lower or upper bound, a node's offset,
  size or child page number in a branch or leaf page, an overflow page's count, a meta
  page's root, last page or transaction id (both metas, or the newest only: an older root);
- truncation: the file cut at a page boundary or inside a page.

Each run is one of: `crash` (killed by a signal), `hang` (past the time limit), `silent` (exit 0
with output other than the undamaged store's: a wrong answer), `reported` (a non-zero exit, or
for verify exit 3), `same` (exit 0, the undamaged output). verify is `silent` when it exits 0
while export gives other samples than the undamaged store's.

    python3 Tools/damage.py --tool .build/release/trendstore --variants 300 [--seed 1] [--json out.json]

With --strict verify,export the exit status is 1 when any run of those commands crashed, hung
or answered silently wrong (CI runs a fixed slice so).
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


def commands(tool, store):
    """The commands run on every copy: name → argument list."""
    common = ["--store", store]
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
    """(page number, flags) of every page whose header is readable."""
    found = []
    for number in range(len(data) // PAGE):
        flags = struct.unpack_from("<H", data, number * PAGE + 10)[0]
        found.append((number, flags))
    return found


def damage(data, rng):
    """A damaged copy of `data` and what was done to it."""
    data = bytearray(data)
    headers = pages(data)
    kinds = ["bytes", "zero-page", "header", "node", "overflow", "meta", "old-meta", "truncate"]
    kind = rng.choice(kinds)
    def page_of(mask):
        chosen = [n for n, f in headers if f & mask and n > 1]
        return rng.choice(chosen) if chosen else rng.randrange(2, max(3, len(headers)))
    if kind == "bytes":
        count = rng.choice([1, 4, 16])
        for _ in range(count):
            data[rng.randrange(2 * PAGE, len(data))] = rng.randrange(256)
        return bytes(data), f"{count} random bytes"
    if kind == "zero-page":
        number = rng.randrange(2, len(headers))
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
        what = rng.choice(["slot", "size", "child", "key-size"])
        if what == "slot" or not (16 <= offset < PAGE - 8):
            struct.pack_into("<H", data, base + 16 + 2 * slot, rng.randrange(65536))
            return bytes(data), f"page {number} node slot {slot}"
        node = base + offset
        if what == "size":  # mn_lo/mn_hi: the data size (leaf) or low bits of the child (branch)
            struct.pack_into("<H", data, node, rng.randrange(65536))
        elif what == "child":
            struct.pack_into("<H", data, node + 2, rng.randrange(65536))
        else:
            struct.pack_into("<H", data, node + 6, rng.randrange(65536))
        return bytes(data), f"page {number} node {slot} {what}"
    if kind == "overflow":
        number = page_of(P_OVERFLOW)
        struct.pack_into("<I", data, number * PAGE + 12, rng.randrange(1, 1 << 20))
        return bytes(data), f"overflow page {number} count"
    if kind in ("meta", "old-meta"):
        # The meta pages: magic(4) version(4) address(8) mapsize(8), two database records of
        # 48 bytes (free pages, main), last page (8), transaction id (8).
        txnids = [struct.unpack_from("<Q", data, n * PAGE + 16 + 128)[0] for n in (0, 1)]
        newest = 0 if txnids[0] > txnids[1] else 1
        if kind == "old-meta":
            # The newest meta page's checksum-free fields cleared: LMDB falls back to the older root.
            struct.pack_into("<Q", data, newest * PAGE + 16 + 128, 0)
            return bytes(data), "newest meta page's transaction id zeroed (an older root)"
        field = rng.choice([(16 + 24 + 48 + 40, "main root"), (16 + 120, "last page"),
                            (16 + 24 + 40, "free-list root")])
        struct.pack_into("<Q", data, newest * PAGE + field[0], rng.randrange(1 << 32))
        return bytes(data), f"meta {newest} {field[1]}"
    cut = rng.choice([rng.randrange(2, len(headers)) * PAGE, rng.randrange(PAGE, len(data))])
    return bytes(data[:cut]), f"truncated to {cut} bytes"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tool", required=True)
    parser.add_argument("--variants", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--json")
    parser.add_argument("--strict", default="",
                        help="comma-separated commands: exit 1 when any of their runs crashed, "
                        "hung or answered silently wrong")
    arguments = parser.parse_args()
    tool = os.path.abspath(arguments.tool)
    work = tempfile.mkdtemp(prefix="trendstore-damage-")
    try:
        base = os.path.join(work, "base")
        subprocess.run([tool, "generate", "--days", str(arguments.days), "--seed", "7", "--tz",
                        "America/Los_Angeles", "--end", "2026-03-20", "--heart-rate",
                        "--store", base], check=True, stdout=subprocess.DEVNULL)
        baseline = {name: run(name, command, base, arguments.timeout)
                    for name, command in commands(tool, base).items()}
        for name, (status, _) in baseline.items():
            if status != 0:
                sys.exit(f"the undamaged store fails {name}: {status}")
        original = open(os.path.join(base, "data.mdb"), "rb").read()
        rng = random.Random(arguments.seed)
        tally = {name: {} for name in baseline}
        findings = []
        copy = os.path.join(work, "copy")
        for variant in range(arguments.variants):
            damaged, what = damage(original, rng)
            shutil.rmtree(copy, ignore_errors=True)
            os.makedirs(copy)
            with open(os.path.join(copy, "data.mdb"), "wb") as file:
                file.write(damaged)
            outcomes = {name: run(name, command, copy, arguments.timeout)
                        for name, command in commands(tool, copy).items()}
            export_differs = outcomes["export"][1] != baseline["export"][1]
            for name, (status, digest) in outcomes.items():
                if status == "hang":
                    verdict = "hang"
                elif status < 0 or status >= 128:
                    verdict = "crash"
                elif status == 0 and digest == baseline[name][1]:
                    verdict = "same"
                elif status == 0 and name == "verify":
                    verdict = "silent" if export_differs else "same"
                elif status == 0:
                    verdict = "silent"
                else:
                    verdict = "reported"
                tally[name][verdict] = tally[name].get(verdict, 0) + 1
                if verdict in ("crash", "hang", "silent"):
                    findings.append({"variant": variant, "damage": what, "command": name,
                                     "verdict": verdict, "status": status})
        print(f"{arguments.variants} damaged copies of a {len(original)}-byte store "
              f"(seed {arguments.seed}), {os.path.basename(tool)}")
        print("| command | crash | hang | silent | reported | same |")
        print("|---|---|---|---|---|---|")
        for name, counts in tally.items():
            print(f"| {name} | " + " | ".join(str(counts.get(v, 0)) for v in
                                             ("crash", "hang", "silent", "reported", "same")) + " |")
        for finding in findings[:40]:
            print(f"  variant {finding['variant']}: {finding['damage']}: {finding['command']} "
                  f"{finding['verdict']} ({finding['status']})")
        if arguments.json:
            with open(arguments.json, "w") as file:
                json.dump({"tally": tally, "findings": findings}, file, indent=1)
        strict = set(filter(None, arguments.strict.split(",")))
        if any(finding["command"] in strict for finding in findings):
            sys.exit(1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
