#ifndef PIPER_CQRENCODE_SHIM_H
#define PIPER_CQRENCODE_SHIM_H
/* libqrencode, opened on first use (loader.c; see CDynamicLibrary). The QRcode_* functions
 * Piper calls are stubs of the same names that forward to the library. */
#include <qrencode.h>
/* Opens libqrencode (once per process): NULL when it is usable, else why not. */
const char *piper_qrencode_load(void);
#endif
