#ifndef PIPER_CMICROHTTPD_POOL_WIPE_H
#define PIPER_CMICROHTTPD_POOL_WIPE_H
/* Points the memset import of the library that holds `function_in_library` (libmicrohttpd) at
 * one that skips wipes of 4 KB or more (pool_wipe.c says why). 0 when done, -1 when the library
 * does not look as expected (nothing changed then). */
int piper_mhd_skip_pool_wipes(void *function_in_library);
#endif
