#ifndef PIPER_CPOSTGRES_SHIM_H
#define PIPER_CPOSTGRES_SHIM_H
/* libpq, opened on first use (loader.c; see CDynamicLibrary). The PQ* functions Piper calls
 * are stubs of the same names that forward to the library. */
#include <postgresql/libpq-fe.h>
/* Opens libpq (once per process): NULL when it is usable, else why not. */
const char *piper_postgres_load(void);
#endif
