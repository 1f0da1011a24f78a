#ifndef PIPER_CCURL_SHIM_H
#define PIPER_CCURL_SHIM_H
/* libcurl, opened on first use (loader.c; see CDynamicLibrary). The curl_* functions Piper
 * calls are stubs of the same names that forward to the library. */
#include <curl/curl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

/* Opens libcurl (once per process): NULL when it is usable, else why not. */
const char *piper_curl_load(void);

/* curl_easy_setopt and curl_easy_getinfo are variadic: one typed wrapper per argument type. */
CURLcode piper_curl_setopt_long(CURL *h, CURLoption o, long v);
CURLcode piper_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v);
CURLcode piper_curl_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode piper_curl_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode piper_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v);
typedef size_t (*piper_curl_data_cb)(char *, size_t, size_t, void *);
CURLcode piper_curl_setopt_datacb(CURL *h, CURLoption o, piper_curl_data_cb v);
typedef int (*piper_curl_xferinfo_cb)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
CURLcode piper_curl_setopt_xferinfo(CURL *h, CURLoption o, piper_curl_xferinfo_cb v);
CURLcode piper_curl_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode piper_curl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v);
CURLcode piper_curl_getinfo_double(CURL *h, CURLINFO i, double *v);
CURLcode piper_curl_getinfo_string(CURL *h, CURLINFO i, char **v);
CURLMcode piper_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v);
typedef curl_socket_t (*piper_curl_opensocket_cb)(void *, curlsocktype, struct curl_sockaddr *);
CURLcode piper_curl_setopt_opensocket(CURL *h, piper_curl_opensocket_cb v);
/* The numeric text of the address libcurl is about to connect to (IPv4 or IPv6); 0 on success. */
static inline int piper_curl_sockaddr_text(const struct curl_sockaddr *a, char *buffer, unsigned int size) {
    if (a->family == AF_INET) return inet_ntop(AF_INET, &((const struct sockaddr_in *)&a->addr)->sin_addr, buffer, size) ? 0 : -1;
    if (a->family == AF_INET6) return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)&a->addr)->sin6_addr, buffer, size) ? 0 : -1;
    return -1;
}
/* The socket libcurl would have opened itself. */
static inline curl_socket_t piper_curl_open_socket(const struct curl_sockaddr *a) { return socket(a->family, a->socktype, a->protocol); }
#endif
