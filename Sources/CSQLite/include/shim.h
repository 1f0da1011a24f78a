#ifndef PIPER_CSQLITE_SHIM_H
#define PIPER_CSQLITE_SHIM_H
/* libsqlite3, opened on first use (loader.c; see CDynamicLibrary). The sqlite3_* functions
 * Piper calls are stubs of the same names that forward to the library. */
#include <sqlite3.h>
/* Opens libsqlite3 (once per process): NULL when it is usable, else why not. */
const char *piper_sqlite_load(void);
/* SQLITE_TRANSIENT is a cast macro that Swift does not import. */
static inline sqlite3_destructor_type piper_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
