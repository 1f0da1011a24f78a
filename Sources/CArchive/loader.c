#include "shim.h"
#include "piper_library.h"

#define FUNCTIONS(X) X(archive_read_new) X(archive_read_support_format_zip) X(archive_read_open_filename) \
    X(archive_read_next_header) X(archive_read_data) X(archive_read_data_skip) X(archive_read_free) \
    X(archive_error_string) X(archive_entry_filetype) X(archive_entry_hardlink) X(archive_entry_pathname) \
    X(archive_entry_pathname_utf8)

PIPER_LIBRARY_DEFINE(archive, "libarchive", "libarchive.so.13", "PIPER_LIBRARY_ARCHIVE", "libarchive13");
#define CALL(name) PIPER_LIBRARY_CALL(archive, name)

const char *piper_archive_load(void) { return piper_library_load(&archive); }

PIPER_STUB struct archive *archive_read_new(void) { return CALL(archive_read_new)(); }
PIPER_STUB int archive_read_support_format_zip(struct archive *a) { return CALL(archive_read_support_format_zip)(a); }
PIPER_STUB int archive_read_open_filename(struct archive *a, const char *file, size_t block) { return CALL(archive_read_open_filename)(a, file, block); }
PIPER_STUB int archive_read_next_header(struct archive *a, struct archive_entry **entry) { return CALL(archive_read_next_header)(a, entry); }
PIPER_STUB la_ssize_t archive_read_data(struct archive *a, void *buffer, size_t size) { return CALL(archive_read_data)(a, buffer, size); }
PIPER_STUB int archive_read_data_skip(struct archive *a) { return CALL(archive_read_data_skip)(a); }
PIPER_STUB int archive_read_free(struct archive *a) { return CALL(archive_read_free)(a); }
PIPER_STUB const char *archive_error_string(struct archive *a) { return CALL(archive_error_string)(a); }
PIPER_STUB __LA_MODE_T archive_entry_filetype(struct archive_entry *e) { return CALL(archive_entry_filetype)(e); }
PIPER_STUB const char *archive_entry_hardlink(struct archive_entry *e) { return CALL(archive_entry_hardlink)(e); }
PIPER_STUB const char *archive_entry_pathname(struct archive_entry *e) { return CALL(archive_entry_pathname)(e); }
PIPER_STUB const char *archive_entry_pathname_utf8(struct archive_entry *e) { return CALL(archive_entry_pathname_utf8)(e); }
