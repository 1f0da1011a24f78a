#ifndef PIPER_CSQLITE_SHIM_H
#define PIPER_CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT is a cast macro that Swift does not import. */
static inline sqlite3_destructor_type piper_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
