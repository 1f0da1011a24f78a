#ifndef PIPER_LIBRARY_H
#define PIPER_LIBRARY_H
/*
 * A C library opened with dlopen on first use instead of at process start. Each lazily loaded
 * shim (CCurl, CSQLite, CPostgres, CArchive, CTagLib, CMicroHTTPD, CQRencode) keeps one
 * `piper_library` with the functions Piper calls; its stubs, named like the library's own
 * functions, call through the resolved table. The dynamic loader then maps none of these
 * libraries (nor their ~45 dependencies) for a command that does not use them.
 */
#include <stddef.h>

typedef struct piper_library {
    const char *label;        /* "libcurl", for messages */
    const char *soname;       /* "libcurl-gnutls.so.4": what dlopen looks for */
    const char *environment;  /* "PIPER_LIBRARY_CURL": a path or name that replaces soname */
    const char *package;      /* "libcurl3-gnutls": the Debian package that ships soname */
    const char *const *names; /* the functions to resolve, in table order */
    size_t count;
    void **table;             /* resolved addresses, `count` of them */
    int state;                /* 0 not tried, 1 loaded, -1 failed (atomic) */
    char message[512];        /* why loading failed */
} piper_library;

#define PIPER_LIBRARY(label, soname, environment, package, names, table) \
    { label, soname, environment, package, names, sizeof(names) / sizeof((names)[0]), table, 0, {0} }

/* Opens the library and resolves every name, once per process (thread-safe). NULL when the
 * library is usable, else a sentence saying which file or function is missing and what to
 * install; later calls answer the same. */
const char *piper_library_load(piper_library *library);

/* The address of function `index`, loading the library first if no caller has. A stub called
 * when loading fails prints the reason and aborts: adapters call piper_library_load (through
 * their shim's piper_*_load) first and turn a failure into their own error. */
void *piper_library_function(piper_library *library, size_t index);

/* Helpers for a shim's table: list its functions once as X(name) ... and expand
 * `enum { LIST(PIPER_LIBRARY_INDEX) count }` and `{ LIST(PIPER_LIBRARY_NAME) }`; a stub calls
 * PIPER_LIBRARY_CALL(library, name)(arguments), typed by the library's own declaration. Stubs
 * are hidden: the executable never exports them, so a library's calls to its own functions
 * never come back through them. */
#define PIPER_LIBRARY_INDEX(name) piper_index_##name,
#define PIPER_LIBRARY_NAME(name) #name,
#define PIPER_LIBRARY_CALL(library, name) ((__typeof__(&name))piper_library_function(&(library), piper_index_##name))
#define PIPER_STUB __attribute__((visibility("hidden")))

/* A shim's library, from its FUNCTIONS(X) list: the index enum, the name list, the table and the
 * `piper_library` called `variable`. */
#define PIPER_LIBRARY_DEFINE(variable, label, soname, environment, package) \
    enum { FUNCTIONS(PIPER_LIBRARY_INDEX) piper_function_count }; \
    static const char *const piper_function_names[] = { FUNCTIONS(PIPER_LIBRARY_NAME) }; \
    static void *piper_function_table[piper_function_count]; \
    static piper_library variable = PIPER_LIBRARY(label, soname, environment, package, piper_function_names, piper_function_table)

#endif
