#ifndef TRENDSTORE_CSQLITE_SHIM_H
#define TRENDSTORE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift calls this instead.
static inline sqlite3_destructor_type trendstore_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
