#!/usr/bin/env python3
"""DuckDB peer of trendstore-benchmarks' statistics suite: loads the same CSV into a database
file, answers each case's buckets in SQL (the buckets' bounds as a table joined to the samples
and grouped, as the SQLite peer does) and prints timings and answers as JSON.
Needs `pip install duckdb`."""
import json
import os
import statistics
import sys
import time

import duckdb

DISCRETE = """
    SELECT k, count(x.v), sum(x.v), avg(x.v), min(x.v), max(x.v) FROM bounds
    LEFT JOIN samples x ON x.series = ? AND x.s >= b0 AND x.s < b1
    GROUP BY k ORDER BY k"""

CUMULATIVE = """
    SELECT k, sum(CASE WHEN x.s >= b0 THEN 1 ELSE 0 END),
           sum(CASE WHEN x.e = x.s THEN x.v
                    ELSE x.v * (least(x.e, b1) - greatest(x.s, b0)) / (x.e - x.s) END),
           NULL, NULL, NULL FROM bounds
    LEFT JOIN samples x ON x.series = ? AND x.s >= b0 - ? AND x.s < b1
        AND (x.e > b0 OR (x.e = x.s AND x.s >= b0))
    GROUP BY k ORDER BY k"""


def main():
    spec = json.load(open(sys.argv[1]))
    if os.path.exists(spec["database"]):
        os.remove(spec["database"])
    db = duckdb.connect(spec["database"])
    db.execute(f"SET threads TO {int(spec['threads'])}")
    start = time.perf_counter()
    db.execute(f"CREATE TABLE samples AS SELECT series, start_epoch_ms AS s, end_epoch_ms AS e, value AS v "
               f"FROM read_csv('{spec['csv']}', header=true, columns={{'series': 'VARCHAR', "
               f"'start_epoch_ms': 'BIGINT', 'end_epoch_ms': 'BIGINT', 'value': 'DOUBLE', 'unit': 'VARCHAR', "
               f"'kind': 'VARCHAR'}})")
    load = time.perf_counter() - start
    rows = db.execute("SELECT count(*) FROM samples").fetchone()[0]
    cases = []
    for case in spec["cases"]:
        starts = [bucket[0] for bucket in case["buckets"]]
        ends = [bucket[1] for bucket in case["buckets"]]
        db.execute("CREATE OR REPLACE TEMP TABLE bounds AS SELECT unnest(range(?)) AS k, "
                   "unnest(?::BIGINT[]) AS b0, unnest(?::BIGINT[]) AS b1", [len(starts), starts, ends])
        if case["discrete"]:
            def query():
                return db.execute(DISCRETE, [case["series"]]).fetchall()
        else:
            def query():
                return db.execute(CUMULATIVE, [case["series"], case["longest"]]).fetchall()
        times = []
        answer = None
        for _ in range(spec["runs"]):
            begin = time.perf_counter()
            answer = query()
            times.append((time.perf_counter() - begin) * 1e6)
        cases.append({"us": statistics.median(times),
                      "answers": [[count or 0, total or 0.0, average, minimum, maximum]
                                  for _, count, total, average, minimum, maximum in answer]})
    print(json.dumps({"load_seconds": load, "rows": rows, "cases": cases}))


if __name__ == "__main__":
    main()
