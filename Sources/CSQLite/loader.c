#include "shim.h"
#include "piper_library.h"

#define FUNCTIONS(X) X(sqlite3_open_v2) X(sqlite3_close_v2) X(sqlite3_errmsg) X(sqlite3_exec) X(sqlite3_free) \
    X(sqlite3_extended_result_codes) X(sqlite3_busy_timeout) X(sqlite3_changes) X(sqlite3_get_autocommit) \
    X(sqlite3_last_insert_rowid) X(sqlite3_prepare_v2) X(sqlite3_step) X(sqlite3_reset) X(sqlite3_finalize) \
    X(sqlite3_clear_bindings) X(sqlite3_db_handle) X(sqlite3_bind_blob) X(sqlite3_bind_double) \
    X(sqlite3_bind_int64) X(sqlite3_bind_null) X(sqlite3_bind_text) X(sqlite3_column_blob) \
    X(sqlite3_column_bytes) X(sqlite3_column_count) X(sqlite3_column_double) X(sqlite3_column_int64) \
    X(sqlite3_column_text) X(sqlite3_column_type)

PIPER_LIBRARY_DEFINE(sqlite, "libsqlite3", "libsqlite3.so.0", "PIPER_LIBRARY_SQLITE", "libsqlite3-0");
#define CALL(name) PIPER_LIBRARY_CALL(sqlite, name)

const char *piper_sqlite_load(void) { return piper_library_load(&sqlite); }

PIPER_STUB int sqlite3_open_v2(const char *file, sqlite3 **db, int flags, const char *vfs) { return CALL(sqlite3_open_v2)(file, db, flags, vfs); }
PIPER_STUB int sqlite3_close_v2(sqlite3 *db) { return CALL(sqlite3_close_v2)(db); }
PIPER_STUB const char *sqlite3_errmsg(sqlite3 *db) { return CALL(sqlite3_errmsg)(db); }
PIPER_STUB int sqlite3_exec(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *context, char **error) {
    return CALL(sqlite3_exec)(db, sql, callback, context, error);
}
PIPER_STUB void sqlite3_free(void *p) { CALL(sqlite3_free)(p); }
PIPER_STUB int sqlite3_extended_result_codes(sqlite3 *db, int on) { return CALL(sqlite3_extended_result_codes)(db, on); }
PIPER_STUB int sqlite3_busy_timeout(sqlite3 *db, int ms) { return CALL(sqlite3_busy_timeout)(db, ms); }
PIPER_STUB int sqlite3_changes(sqlite3 *db) { return CALL(sqlite3_changes)(db); }
PIPER_STUB int sqlite3_get_autocommit(sqlite3 *db) { return CALL(sqlite3_get_autocommit)(db); }
PIPER_STUB sqlite3_int64 sqlite3_last_insert_rowid(sqlite3 *db) { return CALL(sqlite3_last_insert_rowid)(db); }
PIPER_STUB int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail) {
    return CALL(sqlite3_prepare_v2)(db, sql, bytes, statement, tail);
}
PIPER_STUB int sqlite3_step(sqlite3_stmt *s) { return CALL(sqlite3_step)(s); }
PIPER_STUB int sqlite3_reset(sqlite3_stmt *s) { return CALL(sqlite3_reset)(s); }
PIPER_STUB int sqlite3_finalize(sqlite3_stmt *s) { return CALL(sqlite3_finalize)(s); }
PIPER_STUB int sqlite3_clear_bindings(sqlite3_stmt *s) { return CALL(sqlite3_clear_bindings)(s); }
PIPER_STUB sqlite3 *sqlite3_db_handle(sqlite3_stmt *s) { return CALL(sqlite3_db_handle)(s); }
PIPER_STUB int sqlite3_bind_blob(sqlite3_stmt *s, int i, const void *v, int n, void (*destructor)(void *)) { return CALL(sqlite3_bind_blob)(s, i, v, n, destructor); }
PIPER_STUB int sqlite3_bind_double(sqlite3_stmt *s, int i, double v) { return CALL(sqlite3_bind_double)(s, i, v); }
PIPER_STUB int sqlite3_bind_int64(sqlite3_stmt *s, int i, sqlite3_int64 v) { return CALL(sqlite3_bind_int64)(s, i, v); }
PIPER_STUB int sqlite3_bind_null(sqlite3_stmt *s, int i) { return CALL(sqlite3_bind_null)(s, i); }
PIPER_STUB int sqlite3_bind_text(sqlite3_stmt *s, int i, const char *v, int n, void (*destructor)(void *)) { return CALL(sqlite3_bind_text)(s, i, v, n, destructor); }
PIPER_STUB const void *sqlite3_column_blob(sqlite3_stmt *s, int i) { return CALL(sqlite3_column_blob)(s, i); }
PIPER_STUB int sqlite3_column_bytes(sqlite3_stmt *s, int i) { return CALL(sqlite3_column_bytes)(s, i); }
PIPER_STUB int sqlite3_column_count(sqlite3_stmt *s) { return CALL(sqlite3_column_count)(s); }
PIPER_STUB double sqlite3_column_double(sqlite3_stmt *s, int i) { return CALL(sqlite3_column_double)(s, i); }
PIPER_STUB sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *s, int i) { return CALL(sqlite3_column_int64)(s, i); }
PIPER_STUB const unsigned char *sqlite3_column_text(sqlite3_stmt *s, int i) { return CALL(sqlite3_column_text)(s, i); }
PIPER_STUB int sqlite3_column_type(sqlite3_stmt *s, int i) { return CALL(sqlite3_column_type)(s, i); }
