#ifndef PIPER_CARCHIVE_SHIM_H
#define PIPER_CARCHIVE_SHIM_H
/* libarchive, opened on first use (loader.c; see CDynamicLibrary). The archive_* functions
 * Piper calls are stubs of the same names that forward to the library. */
#include <archive.h>
#include <archive_entry.h>
/* Opens libarchive (once per process): NULL when it is usable, else why not. */
const char *piper_archive_load(void);
#endif
