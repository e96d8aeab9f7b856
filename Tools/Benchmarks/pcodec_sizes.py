#!/usr/bin/env python3
"""pcodec size peer of the benchmarks: the bytes pcodec (Loncaric et al.) needs for the same
columns TrendStore's sample blocks store, per series sorted by (start, end): the gap before
each sample (start minus the previous end, the first sample's start kept apart), its
duration, and its value as an integer of 10^-d for the fewest decimals d (0 to 9) that make
every value of the series one, else the values' raw float64. Each column is compressed with
`standalone.simple_compress` at pcodec's default level. Prints JSON. Needs `pip install pcodec`.

    python3 pcodec_sizes.py data.csv
"""
import csv
import json
import sys

import numpy as np
from pcodec import ChunkConfig, standalone


def scaled(values):
    """The values as integers of 10^-d for the fewest decimals d that fit, or None."""
    array = np.array(values, dtype=np.float64)
    for decimals in range(10):
        candidate = np.round(array * 10**decimals)
        if np.all(np.abs(candidate) < 2**53) and np.all(candidate / 10**decimals == array):
            return candidate.astype(np.int64)
    return None


def series_bytes(rows):
    rows.sort()
    starts = np.array([row[0] for row in rows], dtype=np.int64)
    ends = np.array([row[1] for row in rows], dtype=np.int64)
    gaps = starts[1:] - ends[:-1]
    durations = ends - starts
    integers = scaled([row[2] for row in rows])
    values = integers if integers is not None else np.array([row[2] for row in rows])
    total = 8  # the first start
    for column in (gaps, durations, values):
        if len(column):
            total += len(standalone.simple_compress(column, ChunkConfig()))
    return total


def main():
    by_series = {}
    with open(sys.argv[1], newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        series, value = header.index("series"), header.index("value")
        start = header.index("start_epoch_ms" if "start_epoch_ms" in header else "start")
        end = header.index("end_epoch_ms" if "end_epoch_ms" in header else "end")
        for row in reader:
            by_series.setdefault(row[series], []).append(
                (int(row[start]), int(row[end]), float(row[value])))
    sizes = {name: series_bytes(rows) for name, rows in by_series.items()}
    samples = sum(len(rows) for rows in by_series.values())
    print(json.dumps({"bytes": sum(sizes.values()), "samples": samples, "series": sizes}))


if __name__ == "__main__":
    main()
