"""The slow reference of `sources-check.py`, written from the documented sources rule alone:
wall-clock dates and hours from Python's zoneinfo, each sample's uncovered time from the
samples of the sources ranked above it, sums a quarter-hour at a time."""
import datetime
import unicodedata

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
    """The union of `intervals` (start, end), as sorted disjoint intervals."""
    merged = []
    for start, end in sorted(i for i in intervals if i[0] < i[1]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def uncovered(start, end, cover):
    """The parts of [start, end) that `cover` (sorted, disjoint) leaves."""
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
        higher = []
        if merged:
            higher = union([(s[1], s[2]) for s in samples if rank[s[0]] < rank[source]])
        if start == end:
            free = not any(low <= start < high for low, high in higher)
            parts = [(start, start)] if free else []
            out.append((start, end, value, parts, 1.0 if free else 0.0, free))
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
    """The cumulative hourly curve of `date`, of the instants up to and including `until`.

    Each quarter-hour counts in the local hour of its first instant: every offset and change
    of the trials' zones and years (2012-2026) falls on a whole quarter-hour."""
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
