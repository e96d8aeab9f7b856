#!/usr/bin/env python3
"""DuckDB peer of the ingest benchmark: loads a CSV into a new database file, as a user
would (CREATE TABLE ... AS SELECT * FROM read_csv(...)), on the given threads, and prints
the load's seconds and rows as JSON: `seconds` times the load alone, `creating_seconds` the
load with the creation of the database file before it (`connect`), the part of DuckDB's work
that matches TrendStore's creating its store. Needs `pip install duckdb`.

    python3 duckdb_load.py data.csv target.duckdb 2
"""
import json
import os
import sys
import time

import duckdb


def main():
    csv, database, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if os.path.exists(database):
        os.remove(database)
    creating = time.perf_counter()
    connection = duckdb.connect(database)
    connection.execute(f"SET threads = {threads}")
    start = time.perf_counter()
    connection.execute(f"CREATE TABLE samples AS SELECT * FROM read_csv('{csv}', header = true)")
    connection.close()  # the load is done when the file is written and closed
    end = time.perf_counter()
    seconds, creating_seconds = end - start, end - creating
    rows = duckdb.connect(database, read_only=True).execute("SELECT count(*) FROM samples").fetchone()[0]
    print(json.dumps({"seconds": seconds, "creating_seconds": creating_seconds, "rows": rows,
                      "version": duckdb.__version__}))


if __name__ == "__main__":
    main()
