#ifndef TRENDSTORE_CLMDB_SHIM_H
#define TRENDSTORE_CLMDB_SHIM_H
#include <lmdb.h>
#endif
