#!/usr/bin/env python3
"""The sources merge checked from outside: random trials through the `trendstore` tool, each
compared with a slow reference written from the documented rule alone (DocC "Sources") in
`sources_reference.py`, with none of the package's code.

A trial draws a zone, a day of 2012-2026, 2-4 sources (commas, quotes, an emoji, a decomposed
accent, the default source ''), a priority order (maybe naming a source never written) set
before, between or after two imports (or never), energy samples over today and the 70 days
before (instants, minutes, hours, overlaps within and across sources, values of 0-4 decimals)
and heart rate readings today. The files put `source` in a random column beside one the
importer does not read (its warning is checked); the second is sometimes one source's rows
without the column, imported with `--source`. A quarter of the trials write everything as an
Apple Health export instead: each source a `sourceName` with a device of one model (its
address differing from record to record) or none, listed as `name (model)`.

Checked, merged and one source alone (`--source`): today's curve and its latest sample, the
71-day heatmap, the weekday average, 1h statistics of energy (merged) and of heart rate
(discrete: every reading counts); then export in CSV and NDJSON imported into a new store
answering the same bytes. Any mismatch prints the trial and exits 1.

    python3 Tools/sources-check.py --tool .build/debug/trendstore --trials 25 --seed 1
"""
import argparse, csv, datetime, json, os, random, shutil, subprocess, sys, tempfile
from xml.sax.saxutils import escape as xml_escape
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sources_reference import (  # noqa: E402
    HOUR, close, curve, effective, local, midnight, nfc, ranked, sum_in)

ZONES = ["America/Los_Angeles", "Europe/Berlin", "Asia/Kathmandu", "Australia/Lord_Howe",
         "America/St_Johns", "Pacific/Chatham", "UTC", "Asia/Tehran", "America/Santiago",
         "Europe/London", "Australia/Adelaide", "America/Havana"]
NAMES = ["Apple Watch", "iPhone", "Oura, ring", 'Quote "Q"', "\U0001F3C3 Strava",
         "Cafe\u0301", "Garmin", "", "My iPhone 15", "Watch Ultra"]
UNWRITTEN = "Never Written"


class Trial:
    def __init__(self, tool, number, seed, directory):
        self.tool, self.random = tool, random.Random(seed * 100_003 + number)
        self.directory, self.store = directory, os.path.join(directory, "store")
        self.where = f"trial {number} of seed {seed}"
        self.E, self.HR = "e", "hr"

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
            for series, source, start, end, value in rows:
                row = {"series": series, "start": start, "end": end, "value": repr(value),
                       "kind": "discrete" if series == "hr" else "cumulative",
                       "source": source, "note": "left out"}
                writer.writerow([row[c] for c in columns])

    def draw(self):
        rnd = self.random
        self.zone_name = rnd.choice(ZONES)
        self.zone = ZoneInfo(self.zone_name)
        self.today = datetime.date(rnd.randint(2012, 2026), rnd.choice([1, 3, 4, 9, 10, 11, 12]),
                                   rnd.randint(1, 28))
        start = midnight(self.today, self.zone)
        tomorrow = midnight(self.today + datetime.timedelta(days=1), self.zone)
        self.now = rnd.randrange(start, tomorrow)
        self.sources = rnd.sample(NAMES, rnd.randint(2, 4))
        samples = []
        offsets = [0] + [-7 * k for k in range(1, 11)] + [-rnd.randint(1, 69) for _ in range(3)]
        for offset in offsets:
            base = midnight(self.today + datetime.timedelta(days=offset), self.zone)
            for _ in range(rnd.randint(0, 25)):
                begin = base + rnd.randint(-HOUR, 25 * HOUR)
                if rnd.random() < 0.2:
                    begin -= begin % 60_000
                length = rnd.choice([0, 60_000, rnd.randint(1, HOUR), rnd.randint(1, 2 * HOUR)])
                samples.append(("e", rnd.choice(self.sources), begin, begin + length,
                                round(rnd.uniform(0, 50), rnd.randint(0, 4))))
        # Heart rate today, a discrete series: readings (some lasting a while) of every source.
        base = midnight(self.today, self.zone)
        for _ in range(rnd.randint(0, 40)):
            begin = base + rnd.randint(-HOUR, 25 * HOUR)
            if rnd.random() < 0.3:
                begin -= begin % 60_000
            samples.append(("hr", rnd.choice(self.sources), begin,
                            begin + rnd.choice([0, 0, 60_000, rnd.randint(1, 600_000)]),
                            float(rnd.randint(40, 180))))
        rnd.shuffle(samples)
        self.samples = samples
        self.priority = rnd.sample(self.sources + [UNWRITTEN], rnd.randint(0, len(self.sources)))
        self.when = rnd.choice(["before", "between", "after", "never"])

    def load(self):
        if self.random.random() < 0.25:
            return self.load_apple_health()
        rnd = self.random
        split = rnd.randint(1, len(self.samples) - 1)
        first, second = self.samples[:split], self.samples[split:]
        columns = ["series", "start", "end", "value", "kind", "source", "note"]
        rnd.shuffle(columns)
        paths = [os.path.join(self.directory, f"part{i}.csv") for i in (0, 1)]
        self.write(paths[0], first, columns)
        second_args = []
        if rnd.random() < 0.3:
            # One source's rows without the column, named by --source.
            alone = second[0][1]
            second = [(s[0], alone, s[2], s[3], s[4]) for s in second]
            self.write(paths[1], second, [c for c in columns if c != "source"])
            second_args = ["--source", alone]
        else:
            self.write(paths[1], second, columns)
        order = ["sources", "priority", self.E, *self.priority, "--store", self.store]
        summary = self.run("import", paths[0], "--store", self.store, "--tz", self.zone_name)
        if 'column "note" is not one the importer reads' not in summary.stdout + summary.stderr:
            raise SystemExit(f"{self.where}: the import did not name the unknown column")
        if self.when == "before" and self.priority:
            self.run(*order)
        self.run("import", paths[1], "--store", self.store, *second_args)
        if self.when in ("between", "after") and self.priority:
            self.run(*order)
        self.keep(first + second)

    def load_apple_health(self):
        """All the samples as an Apple Health export: each source a `sourceName`, with a
        device of one model (its address differing from record to record) or none."""
        rnd = self.random
        self.E, self.HR = "activeEnergy", "heartRate"
        models = {name: rnd.choice([None, "Watch", "iPhone", "Ring"]) for name in self.sources}
        stored = {name: name if models[name] is None or name == "" else f"{name} ({models[name]})"
                  for name in self.sources}
        types = {"e": "ActiveEnergyBurned", "hr": "HeartRate"}
        units = {"e": "kcal", "hr": "count/min"}
        path = os.path.join(self.directory, "export.xml")

        def stamp(ms):
            moment = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)
            return moment.strftime("%Y-%m-%d %H:%M:%S +0000")

        rows = []
        with open(path, "w") as file:
            file.write('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n')
            for series, source, start, end, value in self.samples:
                start, end = start - start % 1000, end - end % 1000
                rows.append((series, stored[source], start, end, value))
                attributes = [f'type="HKQuantityTypeIdentifier{types[series]}"']
                if source:
                    attributes.append(f'sourceName="{escape(source)}"')
                if source and models[source]:
                    device = (f"<<HKDevice: 0x{rnd.randrange(1 << 40):x}>, name:{source}, "
                              f"manufacturer:Apple Inc., model:{models[source]}, software:1>")
                    attributes.append(f'device="{escape(device)}"')
                attributes += [f'unit="{units[series]}"', f'startDate="{stamp(start)}"',
                               f'endDate="{stamp(end)}"', f'value="{value!r}"']
                file.write(" <Record " + " ".join(attributes) + "/>\n")
            file.write("</HealthData>\n")
        self.priority = [stored.get(name, name) for name in self.priority]
        order = ["sources", "priority", self.E, *self.priority, "--store", self.store]
        if self.when == "before":
            self.when = "after"  # one import: an order comes after it
        self.run("import", path, "--store", self.store, "--tz", self.zone_name)
        if self.when in ("between", "after") and self.priority:
            self.run(*order)
        self.keep(rows)
        listed = {entry["series"]: [source["name"] for source in entry["sources"]]
                  for entry in self.json("sources")}
        for series, samples in ((self.E, self.final), (self.HR, self.heart)):
            want = sorted({s[0] for s in samples})
            if samples and sorted(listed.get(series, [])) != want:
                fail(self.where, f"Apple Health sources of {series}", listed.get(series), want)

    def keep(self, rows):
        """What the store holds after `rows` (in file order): the last of each identity."""
        latest = {}
        for series, source, start, end, value in rows:
            latest[(series, nfc(source), start, end)] = value
        self.final = [(s, a, b, v) for (series, s, a, b), v in latest.items() if series == "e"]
        self.heart = [(s, a, b, v) for (series, s, a, b), v in latest.items() if series == "hr"]

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
            self.check_latest(chosen, alone, label)
        for source in [None, self.random.choice(sorted({s[0] for s in self.heart} or {""}))]:
            chosen = [s for s in self.heart if source is None or s[0] == source]
            if self.heart:
                named = "every source" if source is None else repr(source)
                self.check_heart(chosen, [] if source is None else ["--source", source],
                                 f"{where}, heart rate of {named}")
        self.check_round_trip(where)

    def check_latest(self, chosen, alone, label):
        """The latest end of every sample (covered or not) starting by now that overlaps today."""
        got = self.json("query", "today", "--series", self.E, "--now", str(self.now), *alone)
        start = midnight(self.today, self.zone)
        ends = [b for _, a, b, _ in chosen
                if a <= self.now and (b > start if a < b else a >= start)]
        want = max(ends) if ends else None
        stamp = got.get("latestSampleTimestamp")
        if stamp is not None:
            moment = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
            stamp = round(moment.timestamp() * 1000)
        if stamp != want:
            fail(label, "latest sample", got.get("latestSampleTimestamp"), want)

    def check_heart(self, chosen, alone, label):
        """Discrete statistics merge nothing: every reading of every source counts."""
        tomorrow = self.today + datetime.timedelta(days=1)
        got = self.json("query", "stats", "--series", self.HR, "--from", str(self.today), "--to",
                        str(tomorrow), "--interval", "1h", *alone)
        for bucket in got["buckets"]:
            members = [s for s in chosen if bucket["start"] <= s[1] < bucket["end"]]
            if not members:
                if bucket["count"] is not None or bucket["average"] is not None:
                    fail(label, f"heart rate bucket at {bucket['start']}", bucket, "empty")
                continue
            values = [s[3] for s in members]
            newest = max((s[1], s[2]) for s in members)
            newest_values = [s[3] for s in members if (s[1], s[2]) == newest]
            recent = bucket["mostRecent"] or {}
            if (bucket["count"] != len(values) or not close(bucket["sum"], sum(values))
                    or not close(bucket["average"], sum(values) / len(values))
                    or bucket["minimum"] != min(values) or bucket["maximum"] != max(values)
                    or (recent.get("start"), recent.get("end")) != newest
                    or recent.get("value") not in newest_values):
                fail(label, f"heart rate bucket at {bucket['start']}", bucket, members)

    def check_today(self, samples, alone, label):
        got = self.json("query", "today", "--series", self.E, "--now", str(self.now), *alone)
        if got["date"] != str(self.today):
            fail(label, "today's date", got["date"], str(self.today))
        want = curve([e for e in samples if e[0] <= self.now], self.today, self.zone, self.now)
        if not all(close(a, b) for a, b in zip(got["curve"], want)):
            fail(label, "today's curve", got["curve"], want)

    def check_heatmap(self, samples, alone, label):
        first = self.today - datetime.timedelta(days=70)
        got = self.json("query", "heatmap", "--series", self.E, "--from", str(first), "--to",
                        str(self.today), *alone)
        for day in got["days"]:
            date = datetime.date.fromisoformat(day["date"])
            members = [e for e in samples if local(e[0], self.zone)[0] == date]
            count = sum(1 for e in members if e[5])
            total = sum(e[2] * e[4] for e in members)
            if day["count"] != count or not close(day["total"], total):
                fail(label, f"heatmap day {date}", day, (count, total))

    def check_weekday(self, chosen, samples, alone, label):
        got = self.json("query", "weekday-average", "--series", self.E, "--now", str(self.now),
                        *alone)
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
        got = self.json("query", "stats", "--series", self.E, "--from", str(self.today), "--to",
                        str(tomorrow), "--interval", "1h", *alone)
        buckets = got["buckets"] if isinstance(got, dict) else got
        start, end = midnight(self.today, self.zone), midnight(tomorrow, self.zone)
        # Whole buckets: the last holds the instant before the range's end (a 25-hour day's
        # 25th hour, or a Lord Howe day's half hour, lasts a full hour).
        if [(b["start"], b["end"]) for b in buckets] != [
                (low, low + HOUR) for low in range(start, end, HOUR)]:
            fail(label, "statistics buckets", [(b["start"], b["end"]) for b in buckets],
                 (start, end))
        for index, bucket in enumerate(buckets):
            low, high = bucket["start"], bucket["end"]
            count = sum(1 for e in samples if low <= e[0] < high and e[5])
            total = sum_in(samples, low, high)
            if (bucket.get("count") or 0) != count or not close(bucket.get("sum") or 0.0, total):
                fail(label, f"statistics bucket {index}", bucket, (total, count))

    def check_round_trip(self, where):
        first = str(self.today - datetime.timedelta(days=70))
        queries = [["query", "today", "--series", self.E, "--now", str(self.now)],
                   ["query", "heatmap", "--series", self.E, "--from", first, "--to",
                    str(self.today)],
                   ["sources"]]
        if self.heart:
            queries.append(["query", "stats", "--series", self.HR, "--from", str(self.today),
                            "--to", str(self.today + datetime.timedelta(days=1)),
                            "--interval", "1h"])
        for form in ("csv", "ndjson"):
            path = os.path.join(self.directory, f"export.{form}")
            copy = os.path.join(self.directory, f"copy-{form}")
            self.run("export", "--series", f"{self.E},{self.HR}" if self.heart else self.E,
                     "--format", form,
                     "--out", path,
                     "--store", self.store)
            self.run("import", path, "--store", copy, "--tz", self.zone_name)
            for query in queries:
                mine, theirs = self.json(*query), self.json(*query, store=copy)
                if query == ["sources"]:
                    # An order's names of sources that hold no sample are not exported.
                    for entry in mine:
                        holding = {source["name"] for source in entry["sources"]}
                        entry["priority"] = [p for p in entry["priority"] if p in holding]
                if mine != theirs:
                    fail(f"{where}, {form} round trip", " ".join(query), theirs, mine)


def escape(text):
    return xml_escape(text, {'"': "&quot;"})


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
            if len(trial.samples) < 2 or all(s[0] != "e" for s in trial.samples):
                continue
            trial.load()
            trial.check()
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    print(f"sources check: {options.trials} trials of seed {options.seed}, every figure as the "
          "reference's")


if __name__ == "__main__":
    main()
