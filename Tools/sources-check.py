#!/usr/bin/env python3
"""The sources merge checked from outside: random trials through the `trendstore` tool, each
compared with a slow reference written here from the documented rule alone (DocC "Sources"),
with none of the package's code: wall-clock hours from Python's zoneinfo, a quarter-hour at a
time, every sample's uncovered time from the samples of the sources ranked above it.

A trial draws a zone, a day of 2012-2026, 2-4 sources (commas, quotes, an emoji, a decomposed
accent, the default source ''), a priority order (maybe naming a source never written) set
before, between or after two imports (or never), and samples over today and the 70 days
before (instants, minutes, hours, overlaps within and across sources, values of 0-4 decimals).
The files put `source` in a random column beside one the importer does not read (its warning is
checked); the second is sometimes one source's rows without the column, imported with
`--source`. Checked: today's curve, the 71-day heatmap, the weekday average and 1h statistics
of today, merged and one source alone (`--source`), and export in CSV and NDJSON imported into a
new store answering the same bytes. Any mismatch prints the trial and exits 1.

    python3 Tools/sources-check.py --tool .build/debug/trendstore --trials 25 --seed 1
"""
import argparse, csv, datetime, json, os, random, shutil, subprocess, sys, tempfile
import unicodedata
from zoneinfo import ZoneInfo

ZONES = ["America/Los_Angeles", "Europe/Berlin", "Asia/Kathmandu", "Australia/Lord_Howe",
         "America/St_Johns", "Pacific/Chatham", "UTC", "Asia/Tehran", "America/Santiago",
         "Europe/London", "Australia/Adelaide", "America/Havana"]
NAMES = ["Apple Watch", "iPhone", "Oura, ring", 'Quote "Q"', "\U0001F3C3 Strava",
         "Cafe\u0301", "Garmin", "", "My iPhone 15", "Watch Ultra"]
UNWRITTEN = "Never Written"
QUARTER, HOUR = 900_000, 3_600_000


def nfc(text):
    return unicodedata.normalize("NFC", text)


def local(ms, zone):
    """The local date and hour of the instant `ms`."""
    moment = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)
    moment = moment.astimezone(zone)
    return moment.date(), moment.hour


def midnight(date, zone):
    return int(datetime.datetime.combine(date, datetime.time(0), tzinfo=zone).timestamp() * 1000)


def ranked(sources, priority):
    """Every source, highest first: the order's names, then the documented rule for the rest."""
    named = [nfc(name) for name in priority]
    rest = sorted((s for s in sources if s not in named), key=lambda s: (
        3 if s == "" else 0 if "Watch" in s else 1 if "iPhone" in s else 2, [ord(c) for c in s]))
    return named + rest


def union(intervals):
    merged = []
    for start, end in sorted(i for i in intervals if i[0] < i[1]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def uncovered(start, end, cover):
    parts, at = [], start
    for low, high in cover:
        if high <= at or low >= end:
            continue
        if low > at:
            parts.append((at, min(low, end)))
        at = max(at, high)
        if at >= end:
            break
    if at < end:
        parts.append((at, end))
    return parts


def effective(samples, rank, merged):
    """Per sample: (start, end, value, its uncovered parts, its uncovered share, counted)."""
    out = []
    for source, start, end, value in samples:
        higher = union([(s[1], s[2]) for s in samples if rank[s[0]] < rank[source]]) if merged else []
        if start == end:
            free = not any(low <= start < high for low, high in higher)
            out.append((start, end, value, [(start, start)] if free else [], 1.0 if free else 0.0, free))
        else:
            parts = uncovered(start, end, higher)
            share = sum(high - low for low, high in parts) / (end - start)
            out.append((start, end, value, parts, share, share > 0.5))
    return out


def sum_in(effective_samples, low, high):
    """The prorated sum of the instants [low, high)."""
    total = 0.0
    for start, end, value, parts, _, _ in effective_samples:
        if start == end:
            total += value if parts and low <= start < high else 0.0
            continue
        for a, b in parts:
            x, y = max(a, low), min(b, high)
            if y > x:
                total += value * (y - x) / (end - start)
    return total


def curve(effective_samples, date, zone, until=None):
    """The cumulative hourly curve of `date`, of the instants up to and including `until`."""
    buckets = [0.0] * 24
    first = midnight(date - datetime.timedelta(days=1), zone)
    last = midnight(date + datetime.timedelta(days=2), zone)
    for quarter in range(first - first % QUARTER, last, QUARTER):
        day, hour = local(quarter, zone)
        if day != date:
            continue
        high = quarter + QUARTER if until is None else min(quarter + QUARTER, until)
        buckets[hour] += sum_in(effective_samples, quarter, max(quarter, high))
        if until is not None and quarter <= until < quarter + QUARTER:
            buckets[hour] += sum(e[2] for e in effective_samples
                                 if e[0] == e[1] == until and e[3])
    out, running = [], 0.0
    for value in buckets:
        running += value
        out.append(running)
    return out


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


class Trial:
    def __init__(self, tool, number, seed, directory):
        self.tool, self.random = tool, random.Random(seed * 100_003 + number)
        self.directory, self.store = directory, os.path.join(directory, "store")
        self.where = f"trial {number} of seed {seed}"

    def run(self, *args):
        done = subprocess.run([self.tool, *args], capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{self.where}: {' '.join(args)}: exit {done.returncode}: "
                             f"{done.stderr.strip()}")
        return done

    def json(self, *args, store=None):
        return json.loads(self.run(*args, "--store", store or self.store, "--json").stdout)

    def write(self, path, rows, columns):
        with open(path, "w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(columns)
            for source, start, end, value in rows:
                row = {"series": "e", "start": start, "end": end, "value": repr(value),
                       "source": source, "note": "left out"}
                writer.writerow([row[c] for c in columns])

    def draw(self):
        rnd = self.random
        self.zone_name = rnd.choice(ZONES)
        self.zone = ZoneInfo(self.zone_name)
        self.today = datetime.date(rnd.randint(2012, 2026), rnd.choice([1, 3, 4, 9, 10, 11, 12]),
                                   rnd.randint(1, 28))
        start = midnight(self.today, self.zone)
        self.now = rnd.randrange(start, midnight(self.today + datetime.timedelta(days=1), self.zone))
        self.sources = rnd.sample(NAMES, rnd.randint(2, 4))
        samples = []
        for offset in [0] + [-7 * k for k in range(1, 11)] + [-rnd.randint(1, 69) for _ in range(3)]:
            base = midnight(self.today + datetime.timedelta(days=offset), self.zone)
            for _ in range(rnd.randint(0, 25)):
                begin = base + rnd.randint(-HOUR, 25 * HOUR)
                if rnd.random() < 0.2:
                    begin -= begin % 60_000
                length = rnd.choice([0, 60_000, rnd.randint(1, HOUR), rnd.randint(1, 2 * HOUR)])
                samples.append((rnd.choice(self.sources), begin, begin + length,
                                round(rnd.uniform(0, 50), rnd.randint(0, 4))))
        rnd.shuffle(samples)
        self.samples = samples
        self.priority = rnd.sample(self.sources + [UNWRITTEN], rnd.randint(0, len(self.sources)))
        self.when = rnd.choice(["before", "between", "after", "never"])

    def load(self):
        rnd = self.random
        split = rnd.randint(1, len(self.samples) - 1)
        first, second = self.samples[:split], self.samples[split:]
        columns = ["series", "start", "end", "value", "source", "note"]
        rnd.shuffle(columns)
        paths = [os.path.join(self.directory, f"part{i}.csv") for i in (0, 1)]
        self.write(paths[0], first, columns)
        second_args = []
        if rnd.random() < 0.3:
            # One source's rows without the column, named by --source.
            alone = second[0][0]
            second = [(alone, s[1], s[2], s[3]) for s in second]
            self.write(paths[1], second, [c for c in columns if c != "source"])
            second_args = ["--source", alone]
        else:
            self.write(paths[1], second, columns)
        order = ["sources", "priority", "e", *self.priority, "--store", self.store]
        summary = self.run("import", paths[0], "--store", self.store, "--tz", self.zone_name)
        if 'column "note" is not one the importer reads' not in summary.stdout + summary.stderr:
            raise SystemExit(f"{self.where}: the import did not name the unknown column")
        if self.when == "before" and self.priority:
            self.run(*order)
        self.run("import", paths[1], "--store", self.store, *second_args)
        if self.when in ("between", "after") and self.priority:
            self.run(*order)
        latest = {}
        for source, start, end, value in first + second:
            latest[(nfc(source), start, end)] = value
        self.final = [(s, a, b, v) for (s, a, b), v in latest.items()]

    def check(self):
        written = sorted({s[0] for s in self.final})
        order = ranked(written, self.priority if self.when != "never" else [])
        rank = {source: index for index, source in enumerate(order)}
        where = (f"{self.where}: zone {self.zone_name}, today {self.today}, now {self.now}, "
                 f"sources {self.sources}, priority {self.priority} ({self.when})")
        for source in [None, self.random.choice(written)]:
            chosen = self.final if source is None else [s for s in self.final if s[0] == source]
            samples = effective(chosen, rank, merged=source is None)
            alone = [] if source is None else ["--source", source]
            label = f"{where}, {'merged' if source is None else 'source ' + repr(source)}"
            self.check_today(samples, alone, label)
            self.check_heatmap(samples, alone, label)
            self.check_weekday(chosen, samples, alone, label)
            self.check_statistics(samples, alone, label)
        self.check_round_trip(where)

    def check_today(self, samples, alone, label):
        got = self.json("query", "today", "--series", "e", "--now", str(self.now), *alone)
        if got["date"] != str(self.today):
            fail(label, "today's date", got["date"], str(self.today))
        want = curve([e for e in samples if e[0] <= self.now], self.today, self.zone, self.now)
        if not all(close(a, b) for a, b in zip(got["curve"], want)):
            fail(label, "today's curve", got["curve"], want)

    def check_heatmap(self, samples, alone, label):
        first = self.today - datetime.timedelta(days=70)
        got = self.json("query", "heatmap", "--series", "e", "--from", str(first), "--to",
                        str(self.today), *alone)
        for day in got["days"]:
            date = datetime.date.fromisoformat(day["date"])
            members = [e for e in samples if local(e[0], self.zone)[0] == date]
            count = sum(1 for e in members if e[5])
            total = sum(e[2] * e[4] for e in members)
            if day["count"] != count or not close(day["total"], total):
                fail(label, f"heatmap day {date}", day, (count, total))

    def check_weekday(self, chosen, samples, alone, label):
        got = self.json("query", "weekday-average", "--series", "e", "--now", str(self.now), *alone)
        curves = []
        for k in range(1, 11):
            date = self.today - datetime.timedelta(days=7 * k)
            low = midnight(date, self.zone)
            high = midnight(date + datetime.timedelta(days=1), self.zone)
            if any((low <= s[1] < high) if s[1] == s[2] else (s[1] < high and s[2] > low)
                   for s in chosen):
                curves.append(curve(samples, date, self.zone))
        pattern = got.get("averageHourlyPattern")
        if not curves:
            if pattern:
                fail(label, "weekday average (no day)", pattern, None)
            return
        want = [sum(c[h] for c in curves) / len(curves) for h in range(24)]
        if (pattern is None or got.get("dayCount") != len(curves)
                or not all(close(a, b) for a, b in zip(pattern, want))):
            fail(label, "weekday average", got, (want, len(curves)))

    def check_statistics(self, samples, alone, label):
        tomorrow = self.today + datetime.timedelta(days=1)
        got = self.json("query", "stats", "--series", "e", "--from", str(self.today), "--to",
                        str(tomorrow), "--interval", "1h", *alone)
        buckets = got["buckets"] if isinstance(got, dict) else got
        start, end = midnight(self.today, self.zone), midnight(tomorrow, self.zone)
        for index, bucket in enumerate(buckets):
            low = start + index * HOUR
            high = min(low + HOUR, end)
            count = sum(1 for e in samples if low <= e[0] < high and e[5])
            total = sum_in(samples, low, high)
            if (bucket.get("count") or 0) != count or not close(bucket.get("sum") or 0.0, total):
                fail(label, f"statistics bucket {index}", bucket, (total, count))

    def check_round_trip(self, where):
        first = str(self.today - datetime.timedelta(days=70))
        queries = [["query", "today", "--series", "e", "--now", str(self.now)],
                   ["query", "heatmap", "--series", "e", "--from", first, "--to", str(self.today)],
                   ["sources"]]
        for form in ("csv", "ndjson"):
            path = os.path.join(self.directory, f"export.{form}")
            copy = os.path.join(self.directory, f"copy-{form}")
            self.run("export", "--series", "e", "--format", form, "--out", path,
                     "--store", self.store)
            self.run("import", path, "--store", copy, "--tz", self.zone_name)
            for query in queries:
                mine, theirs = self.json(*query), self.json(*query, store=copy)
                if query == ["sources"]:
                    # An order's names of sources that hold no sample are not exported.
                    for entry in mine:
                        entry["priority"] = [p for p in entry["priority"] if p != UNWRITTEN]
                if mine != theirs:
                    fail(f"{where}, {form} round trip", " ".join(query), theirs, mine)


def fail(label, figure, got, want):
    print(f"MISMATCH {label}: {figure}: the tool gave {got}, the reference {want}")
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", default=".build/debug/trendstore")
    parser.add_argument("--trials", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    tool = os.path.abspath(options.tool)
    for number in range(options.trials):
        directory = tempfile.mkdtemp(prefix="sources-check-")
        try:
            trial = Trial(tool, number, options.seed, directory)
            trial.draw()
            if len(trial.samples) < 2:
                continue
            trial.load()
            trial.check()
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    print(f"sources check: {options.trials} trials of seed {options.seed}, every figure as the "
          "reference's")


if __name__ == "__main__":
    main()
