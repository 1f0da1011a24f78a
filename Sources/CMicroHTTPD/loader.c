#include "shim.h"
#include "piper_library.h"
#include <pthread.h>
#include <stdlib.h>
#include <strings.h>
#include <stddef.h>
#include <linux/tcp.h>

#define FUNCTIONS(X) X(MHD_start_daemon) X(MHD_quiesce_daemon) X(MHD_stop_daemon) X(MHD_get_daemon_info) \
    X(MHD_get_connection_info) X(MHD_get_connection_values) X(MHD_queue_response) X(MHD_suspend_connection) \
    X(MHD_resume_connection) X(MHD_create_response_from_buffer) X(MHD_create_response_from_fd_at_offset64) \
    X(MHD_add_response_header) X(MHD_destroy_response) X(MHD_get_version)

PIPER_LIBRARY_DEFINE(mhd, "libmicrohttpd", "libmicrohttpd.so.12", "PIPER_LIBRARY_MICROHTTPD", "libmicrohttpd12");
#define CALL(name) PIPER_LIBRARY_CALL(mhd, name)

const char *piper_mhd_load(void) { return piper_library_load(&mhd); }

PIPER_STUB MHD_socket MHD_quiesce_daemon(struct MHD_Daemon *d) { return CALL(MHD_quiesce_daemon)(d); }
PIPER_STUB void MHD_stop_daemon(struct MHD_Daemon *d) { CALL(MHD_stop_daemon)(d); }
/* The two info calls are variadic; Piper asks only for items that take no further argument. */
PIPER_STUB const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *d, enum MHD_DaemonInfoType type, ...) {
    return CALL(MHD_get_daemon_info)(d, type);
}
PIPER_STUB const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *c, enum MHD_ConnectionInfoType type, ...) {
    return CALL(MHD_get_connection_info)(c, type);
}
PIPER_STUB int MHD_get_connection_values(struct MHD_Connection *c, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *context) {
    return CALL(MHD_get_connection_values)(c, kind, iterator, context);
}
PIPER_STUB enum MHD_Result MHD_queue_response(struct MHD_Connection *c, unsigned int status, struct MHD_Response *r) {
    return CALL(MHD_queue_response)(c, status, r);
}
PIPER_STUB void MHD_suspend_connection(struct MHD_Connection *c) { CALL(MHD_suspend_connection)(c); }
PIPER_STUB void MHD_resume_connection(struct MHD_Connection *c) { CALL(MHD_resume_connection)(c); }
PIPER_STUB struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return CALL(MHD_create_response_from_buffer)(size, buffer, mode);
}
PIPER_STUB struct MHD_Response *MHD_create_response_from_fd_at_offset64(uint64_t size, int fd, uint64_t offset) {
    return CALL(MHD_create_response_from_fd_at_offset64)(size, fd, offset);
}
PIPER_STUB enum MHD_Result MHD_add_response_header(struct MHD_Response *r, const char *header, const char *content) {
    return CALL(MHD_add_response_header)(r, header, content);
}
PIPER_STUB void MHD_destroy_response(struct MHD_Response *r) { CALL(MHD_destroy_response)(r); }
PIPER_STUB const char *MHD_get_version(void) { return CALL(MHD_get_version)(); }

/* Whether a header name is an RFC 9110 token (printable ASCII but for the separators). A head
   with any other name takes the general path, which refuses it (HeadFraming.swift). */
static int is_token(const char *name) {
    if (name[0] == '\0') return 0;
    for (const unsigned char *byte = (const unsigned char *)name; *byte != 0; byte++) {
        if (*byte <= 0x20 || *byte >= 0x7f || strchr("\"(),/:;<=>?@[\\]{}", *byte) != NULL) return 0;
    }
    return 1;
}

struct head_scan {
    long bytes;
    int plain;
};

static enum MHD_Result scan_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    struct head_scan *scan = cls;
    (void)kind;
    if (key == NULL) return MHD_YES;
    scan->bytes += (long)strlen(key) + (value == NULL ? 0 : (long)strlen(value)) + 4;
    if (strcasecmp(key, "content-length") == 0 || strcasecmp(key, "transfer-encoding") == 0) scan->plain = 0;
    if (!is_token(key)) scan->plain = 0;
    return MHD_YES;
}

static enum MHD_Result any_argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind; (void)key; (void)value;
    ((struct head_scan *)cls)->plain = 0;
    return MHD_NO;
}

long piper_mhd_plain_head_bytes(struct MHD_Connection *connection) {
    struct head_scan scan = { 0, 1 };
    (void)MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, any_argument, &scan);
    if (scan.plain) (void)MHD_get_connection_values(connection, MHD_HEADER_KIND, scan_header, &scan);
    return scan.plain ? scan.bytes : -1;
}

long long piper_socket_bytes_acked(int fd) {
    struct tcp_info info;
    socklen_t size = sizeof info;
    memset(&info, 0, sizeof info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return -1;
    if (size < offsetof(struct tcp_info, tcpi_bytes_acked) + sizeof info.tcpi_bytes_acked) return -1;
    return (long long)info.tcpi_bytes_acked;
}

struct MHD_Daemon *piper_mhd_start(const char *host, uint16_t port, unsigned int threads,
                                   unsigned int connection_limit, unsigned int timeout_seconds,
                                   size_t memory_limit,
                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                   MHD_AcceptPolicyCallback accept, MHD_NotifyConnectionCallback notify,
                                   void *guard_cls) {

    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_USE_ERROR_LOG
                        | MHD_ALLOW_SUSPEND_RESUME;
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *addr;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        addr = (struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        addr = (struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        return NULL;
    }
    return CALL(MHD_start_daemon)(flags, port, accept, guard_cls, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, addr,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, guard_cls,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_END);
}

