#!/usr/bin/env python3
"""DuckDB peer of trendstore-benchmarks: loads the same CSV, answers Q1 (weekday average), Q2
(today's curve), Q3 (heatmap) and Q4 (all seven weekday averages over all time) in SQL over the
hour and day buckets the harness passes in, and prints timings and answers as JSON.
Needs `pip install duckdb`."""
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
               f"FROM read_csv('{spec['csv']}', header=true, types={{'series': 'VARCHAR', 'start_epoch_ms': 'BIGINT', "
               f"'end_epoch_ms': 'BIGINT', 'value': 'DOUBLE', 'unit': 'VARCHAR'}})")  # and `kind` when there
    load = time.perf_counter() - start
    rows = db.execute("SELECT count(*) FROM samples").fetchone()[0]
    for table in ("spans", "today_spans", "all_spans"):
        db.execute(f"CREATE TABLE {table}(day INTEGER, hour INTEGER, b0 BIGINT, b1 BIGINT)")
    db.executemany("INSERT INTO spans VALUES (?, ?, ?, ?)", spec["spans"])
    db.executemany("INSERT INTO today_spans VALUES (?, ?, ?, ?)", spec["todaySpans"])
    db.executemany("INSERT INTO all_spans VALUES (?, ?, ?, ?)", spec["allSpans"])
    db.execute("CREATE TABLE days(day INTEGER, d0 BIGINT, d1 BIGINT)")
    db.executemany("INSERT INTO days VALUES (?, ?, ?)", spec["days"])

    def hourly(table):
        return db.execute(f"""
            SELECT sp.day, sp.hour, sum(CASE WHEN x.e = x.s THEN x.v
                   ELSE x.v * (least(x.e, sp.b1) - greatest(x.s, sp.b0)) / (x.e - x.s) END)
            FROM {table} sp JOIN samples x ON x.series = ? AND x.s >= sp.b0 - ? AND x.s < sp.b1
            WHERE x.e > sp.b0 OR (x.e = x.s AND x.s >= sp.b0)
            GROUP BY sp.day, sp.hour""", [spec["series"], spec["maximumDuration"]]).fetchall()

    def q1():
        return hourly("spans")

    def q2():
        rows = hourly("today_spans")
        latest = db.execute("""
            SELECT max(e) FROM samples WHERE series = ? AND s >= ? - ? AND s <= ?
              AND ((e > ? AND s < ?) OR (e = s AND s >= ?))""",
                            [spec["series"], spec["dayStart"], spec["maximumDuration"], spec["now"],
                             spec["dayStart"], spec["now"], spec["dayStart"]]).fetchone()[0]
        return rows, latest

    def q4():
        return hourly("all_spans")

    def q3():
        return db.execute("""
            SELECT d.day, x.series, count(*), sum(x.v) FROM days d JOIN samples x
              ON x.series IN (SELECT unnest(?)) AND x.s >= d.d0 AND x.s < d.d1 GROUP BY d.day, x.series""",
                          [spec["heatmapSeries"]]).fetchall()

    def pattern(rows, days_wanted=None):
        days = {}
        for day, hour, value in rows:
            if days_wanted is None or day in days_wanted:
                days.setdefault(day, [0.0] * 24)[hour] += value
        sums = [0.0] * 24
        for hourly_values in days.values():
            running = 0.0
            for hour in range(24):
                running += hourly_values[hour]
                sums[hour] += running
        return [value / len(days) for value in sums] if days else None

    q1_time, q1_rows = timed(spec["runs"], q1)
    q2_time, (q2_rows, latest) = timed(spec["runs"], q2)
    q3_time, q3_rows = timed(spec["runs"], q3)
    q4_time, q4_rows = timed(max(3, spec["runs"] // 5), q4)
    curve = [0.0] * 24
    for _, hour, value in q2_rows:
        curve[hour] += value
    for hour in range(1, 24):
        curve[hour] += curve[hour - 1]
    weekdays = spec["allWeekdays"]
    q4_patterns = [pattern(q4_rows, {day for day, weekday in enumerate(weekdays) if weekday == w}) for w in range(1, 8)]
    heatmap = {f"{day}/{series}": [count, total] for day, series, count, total in q3_rows}
    print(json.dumps({"load_seconds": load, "rows": rows, "q1_us": q1_time, "q1_pattern": pattern(q1_rows),
                      "q2_us": q2_time, "q2_curve": curve, "q2_latest": latest,
                      "q3_us": q3_time, "q3": heatmap, "q4_us": q4_time, "q4_patterns": q4_patterns}))


if __name__ == "__main__":
    main()
