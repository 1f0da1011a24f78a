#ifndef PIPER_CTAGLIB_SHIM_H
#define PIPER_CTAGLIB_SHIM_H
/* TagLib's C binding, opened on first use (loader.c; see CDynamicLibrary). The taglib_*
 * functions Piper calls are stubs of the same names that forward to the library. */
#include <taglib/tag_c.h>
/* Opens libtag_c (once per process): NULL when it is usable, else why not. */
const char *piper_taglib_load(void);
#endif
