/*
 * The floor under a one-sync commit (issue 35, point 5): LMDB alone, with MDB_NOMETASYNC
 * (TrendStore's `.normal`), committing one 100-byte put into each of 1 to 4 named databases
 * per transaction, beside SQLite in WAL mode with synchronous=FULL committing one row, in
 * the same run, rounds alternating. No TrendStore code runs: it measures what the storage
 * engines cost on this disk, so a TrendStore figure can be read against it.
 *
 *     cc -O2 Tools/Benchmarks/commit_floor.c -llmdb -lsqlite3 -o /tmp/commit_floor
 *     /tmp/commit_floor /tmp/commit-floor-work
 *
 * Prints the median and p90 microseconds of each, over 5 rounds of 200 commits.
 */
#include <lmdb.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum { rounds = 5, commitsPerRound = 200, preloaded = 20000, maxTrees = 4 };

static double microseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void fail(const char *what, int code) {
    fprintf(stderr, "commit_floor: %s failed (%d)\n", what, code);
    exit(1);
}

/* An LMDB environment in `path` whose transactions put into `trees` named databases. */
struct Store {
    MDB_env *env;
    MDB_dbi dbi[maxTrees];
    int trees;
    unsigned next;
};

static void put(struct Store *store, MDB_txn *txn, unsigned key) {
    static char value[100];
    unsigned bigEndian = __builtin_bswap32(key);
    for (int tree = 0; tree < store->trees; tree++) {
        MDB_val k = {sizeof bigEndian, &bigEndian}, v = {sizeof value, value};
        int rc = mdb_put(txn, store->dbi[tree], &k, &v, 0);
        if (rc) fail("mdb_put", rc);
    }
}

static void openStore(struct Store *store, const char *path, int trees) {
    mkdir(path, 0755);
    int rc = mdb_env_create(&store->env);
    if (!rc) rc = mdb_env_set_maxdbs(store->env, maxTrees);
    if (!rc) rc = mdb_env_set_mapsize(store->env, (size_t)1 << 30);
    if (!rc) rc = mdb_env_open(store->env, path, MDB_NOMETASYNC, 0644);
    if (rc) fail("mdb_env_open", rc);
    store->trees = trees;
    MDB_txn *txn;
    if ((rc = mdb_txn_begin(store->env, NULL, 0, &txn))) fail("mdb_txn_begin", rc);
    for (int tree = 0; tree < trees; tree++) {
        char name[8];
        snprintf(name, sizeof name, "t%d", tree);
        if ((rc = mdb_dbi_open(txn, name, MDB_CREATE, &store->dbi[tree]))) fail("mdb_dbi_open", rc);
    }
    for (unsigned key = 0; key < preloaded; key++) put(store, txn, key);
    if ((rc = mdb_txn_commit(txn))) fail("mdb_txn_commit", rc);
    store->next = preloaded;
}

static double commitStore(struct Store *store) {
    double start = microseconds();
    MDB_txn *txn;
    int rc = mdb_txn_begin(store->env, NULL, 0, &txn);
    if (rc) fail("mdb_txn_begin", rc);
    put(store, txn, store->next++);
    if ((rc = mdb_txn_commit(txn))) fail("mdb_txn_commit", rc);
    return microseconds() - start;
}

static void exec(sqlite3 *db, const char *sql) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) != SQLITE_OK) {
        fprintf(stderr, "commit_floor: %s: %s\n", sql, message ? message : "?");
        exit(1);
    }
}

static double commitSQLite(sqlite3 *db, sqlite3_stmt *insert, int key) {
    double start = microseconds();
    exec(db, "BEGIN");
    sqlite3_reset(insert);
    sqlite3_bind_int(insert, 1, key);
    if (sqlite3_step(insert) != SQLITE_DONE) fail("sqlite3_step", 0);
    exec(db, "COMMIT");
    return microseconds() - start;
}

static void report(const char *label, double *timings, int count) {
    qsort(timings, count, sizeof *timings, ascending);
    printf("%-42s median %6.0f us   p90 %6.0f us\n", label, timings[count / 2],
           timings[count * 9 / 10]);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: commit_floor <empty work directory>\n");
        return 2;
    }
    mkdir(argv[1], 0755);
    char path[4096];
    struct Store stores[maxTrees];
    for (int trees = 1; trees <= maxTrees; trees++) {
        snprintf(path, sizeof path, "%s/lmdb-%d", argv[1], trees);
        openStore(&stores[trees - 1], path, trees);
    }
    snprintf(path, sizeof path, "%s/wal.sqlite", argv[1]);
    remove(path);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) fail("sqlite3_open", 0);
    exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
             "CREATE TABLE t(k INTEGER PRIMARY KEY, v BLOB);"
             "BEGIN; WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19999)"
             " INSERT INTO t SELECT i, zeroblob(100) FROM n; COMMIT;");
    sqlite3_stmt *insert;
    if (sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?1, zeroblob(100))", -1, &insert, NULL))
        fail("sqlite3_prepare_v2", 0);

    static double lmdb[maxTrees][rounds * commitsPerRound], wal[rounds * commitsPerRound];
    int key = preloaded;
    for (int round = 0; round < rounds; round++) {
        for (int commit = 0; commit < commitsPerRound; commit++) {
            int slot = round * commitsPerRound + commit;
            for (int trees = 0; trees < maxTrees; trees++) lmdb[trees][slot] = commitStore(&stores[trees]);
            wal[slot] = commitSQLite(db, insert, key++);
        }
    }
    char label[64];
    for (int trees = 1; trees <= maxTrees; trees++) {
        snprintf(label, sizeof label, "LMDB NOMETASYNC, %d database%s a commit", trees,
                 trees == 1 ? "" : "s");
        report(label, lmdb[trees - 1], rounds * commitsPerRound);
    }
    report("SQLite WAL, synchronous=FULL", wal, rounds * commitsPerRound);
    sqlite3_finalize(insert);
    sqlite3_close(db);
    for (int trees = 0; trees < maxTrees; trees++) mdb_env_close(stores[trees].env);
    return 0;
}
