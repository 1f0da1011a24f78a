#define CURL_DISABLE_TYPECHECK
#include "shim.h"
#include "piper_library.h"

#define FUNCTIONS(X) X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_perform) \
    X(curl_easy_strerror) X(curl_easy_setopt) X(curl_easy_getinfo) X(curl_multi_setopt) \
    X(curl_slist_append) X(curl_slist_free_all)

/* Debian's GnuTLS build of libcurl (the same API and version as libcurl4's, whose headers Piper
 * compiles against): its dependencies include GnuTLS already (through librtmp), so it maps one
 * library fewer than the OpenSSL build (libssl) and its curl_global_init skips OpenSSL's setup;
 * a share loads it in about a tenth fewer instructions, with half a megabyte less resident. */
PIPER_LIBRARY_DEFINE(curl, "libcurl", "libcurl-gnutls.so.4", "PIPER_LIBRARY_CURL", "libcurl3-gnutls");
#define CALL(name) PIPER_LIBRARY_CALL(curl, name)

const char *piper_curl_load(void) { return piper_library_load(&curl); }

PIPER_STUB CURLcode curl_global_init(long flags) { return CALL(curl_global_init)(flags); }
PIPER_STUB CURL *curl_easy_init(void) { return CALL(curl_easy_init)(); }
PIPER_STUB void curl_easy_cleanup(CURL *h) { CALL(curl_easy_cleanup)(h); }
PIPER_STUB CURLcode curl_easy_perform(CURL *h) { return CALL(curl_easy_perform)(h); }
PIPER_STUB const char *curl_easy_strerror(CURLcode code) { return CALL(curl_easy_strerror)(code); }
PIPER_STUB struct curl_slist *curl_slist_append(struct curl_slist *list, const char *line) { return CALL(curl_slist_append)(list, line); }
PIPER_STUB void curl_slist_free_all(struct curl_slist *list) { CALL(curl_slist_free_all)(list); }

CURLcode piper_curl_setopt_long(CURL *h, CURLoption o, long v) { return CALL(curl_easy_setopt)(h, o, v); }
CURLcode piper_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return CALL(curl_easy_setopt)(h, o, v); }
CURLcode piper_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return CALL(curl_easy_setopt)(h, o, v); }
CURLcode piper_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return CALL(curl_easy_setopt)(h, o, v); }
CURLcode piper_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return CALL(curl_easy_setopt)(h, o, v); }
CURLcode piper_curl_setopt_datacb(CURL *h, CURLoption o, piper_curl_data_cb v) { return CALL(curl_easy_setopt)(h, o, v); }
CURLcode piper_curl_setopt_xferinfo(CURL *h, CURLoption o, piper_curl_xferinfo_cb v) { return CALL(curl_easy_setopt)(h, o, v); }
CURLcode piper_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return CALL(curl_easy_getinfo)(h, i, v); }
CURLcode piper_curl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return CALL(curl_easy_getinfo)(h, i, v); }
CURLcode piper_curl_getinfo_double(CURL *h, CURLINFO i, double *v) { return CALL(curl_easy_getinfo)(h, i, v); }
CURLcode piper_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return CALL(curl_easy_getinfo)(h, i, v); }
CURLMcode piper_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return CALL(curl_multi_setopt)(m, o, v); }
CURLcode piper_curl_setopt_opensocket(CURL *h, piper_curl_opensocket_cb v) { return CALL(curl_easy_setopt)(h, CURLOPT_OPENSOCKETFUNCTION, v); }
