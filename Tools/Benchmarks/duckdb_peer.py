#!/usr/bin/env python3
"""DuckDB peer of trendstore-benchmarks: loads the same CSV, answers Q1 (weekday average) and
Q3 (heatmap) in SQL over the hour and day buckets the harness passes in, and prints timings and
answers as JSON. Needs `pip install duckdb`."""
import json
import statistics
import sys
import time

import duckdb


def timed(runs, query):
    times = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = query()
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times), result


def main():
    spec = json.load(open(sys.argv[1]))
    db = duckdb.connect()
    start = time.perf_counter()
    db.execute(f"CREATE TABLE samples AS SELECT series, start_epoch_ms AS s, end_epoch_ms AS e, value AS v "
               f"FROM read_csv('{spec['csv']}', header=true, columns={{'series': 'VARCHAR', 'start_epoch_ms': 'BIGINT', "
               f"'end_epoch_ms': 'BIGINT', 'value': 'DOUBLE', 'unit': 'VARCHAR'}})")
    load = time.perf_counter() - start
    rows = db.execute("SELECT count(*) FROM samples").fetchone()[0]
    db.execute("CREATE TABLE spans(day INTEGER, hour INTEGER, b0 BIGINT, b1 BIGINT)")
    db.executemany("INSERT INTO spans VALUES (?, ?, ?, ?)", spec["spans"])
    db.execute("CREATE TABLE days(day INTEGER, d0 BIGINT, d1 BIGINT)")
    db.executemany("INSERT INTO days VALUES (?, ?, ?)", spec["days"])

    def q1():
        return db.execute("""
            SELECT sp.day, sp.hour, sum(CASE WHEN x.e = x.s THEN x.v
                   ELSE x.v * (least(x.e, sp.b1) - greatest(x.s, sp.b0)) / (x.e - x.s) END)
            FROM spans sp JOIN samples x ON x.series = ? AND x.s >= sp.b0 - ? AND x.s < sp.b1
            WHERE x.e > sp.b0 OR (x.e = x.s AND x.s >= sp.b0)
            GROUP BY sp.day, sp.hour""", [spec["series"], spec["maximumDuration"]]).fetchall()

    def q3():
        return db.execute("""
            SELECT d.day, x.series, count(*), sum(x.v) FROM days d JOIN samples x
              ON x.series IN (SELECT unnest(?)) AND x.s >= d.d0 AND x.s < d.d1 GROUP BY d.day, x.series""",
                          [spec["heatmapSeries"]]).fetchall()

    q1_time, q1_rows = timed(spec["runs"], q1)
    q3_time, q3_rows = timed(spec["runs"], q3)
    days = {}
    for day, hour, value in q1_rows:
        days.setdefault(day, [0.0] * 24)[hour] += value
    sums = [0.0] * 24
    for hourly in days.values():
        running = 0.0
        for hour in range(24):
            running += hourly[hour]
            sums[hour] += running
    pattern = [value / len(days) for value in sums] if days else None
    heatmap = {f"{day}/{series}": [count, total] for day, series, count, total in q3_rows}
    print(json.dumps({"load_seconds": load, "rows": rows, "q1_us": q1_time, "q1_pattern": pattern,
                      "q3_us": q3_time, "q3": heatmap}))


if __name__ == "__main__":
    main()
