#ifndef PIPER_CMICROHTTPD_SHIM_H
#define PIPER_CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdarg.h>
#include <string.h>
#include <microhttpd.h>

/* libmicrohttpd, opened on first use (loader.c; see CDynamicLibrary). The MHD_* functions Piper
   calls are stubs of the same names that forward to the library. */

/* Typed wrappers for libmicrohttpd's variadic calls (Swift cannot call C varargs). */

/* Opens libmicrohttpd (once per process): NULL when it is usable, else why not. */
const char *piper_mhd_load(void);

/* Starts a daemon with its own epoll thread pool of `threads` threads, bound to the numeric
   address `host` (IPv4 or IPv6) and `port` (0 = any free port). Returns NULL on failure
   (bad address, port in use). In loader.c: MHD_start_daemon is variadic. */
struct MHD_Daemon *piper_mhd_start(const char *host, uint16_t port, unsigned int threads,
                                   unsigned int connection_limit, unsigned int timeout_seconds,
                                   size_t memory_limit,
                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                   MHD_AcceptPolicyCallback accept, MHD_NotifyConnectionCallback notify,
                                   void *guard_cls);

/* The request head's size as Piper's limits count it (each header's name and value, plus 4),
   or -1 when the request has query arguments or may carry a body (Content-Length,
   Transfer-Encoding) or a header name that is no token: such requests take the general path.
   In loader.c. */
long piper_mhd_plain_head_bytes(struct MHD_Connection *connection);
/* The bytes of what was sent on TCP socket `fd` that its peer has acknowledged (TCP_INFO's
   tcpi_bytes_acked, Linux 4.1 and later), or -1. In loader.c (linux/tcp.h clashes with the
   netinet/tcp.h Swift's Glibc module brings). */
long long piper_socket_bytes_acked(int fd);
/* The port the daemon listens on (the real one when started with port 0); 0 if unknown. */
static inline uint16_t piper_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* Writes a socket address's numeric host into `buffer` (NUL-terminated); returns 0 on success. */
static inline int piper_format_address(const struct sockaddr *sa, char *buffer, socklen_t size) {
    const char *ok = NULL;
    if (sa == NULL || size == 0) return -1;
    if (sa->sa_family == AF_INET) {
        ok = inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buffer, size);
    } else if (sa->sa_family == AF_INET6) {
        ok = inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buffer, size);
    }
    return ok ? 0 : -1;
}

/* Writes the client's numeric address into `buffer` (NUL-terminated); returns 0 on success. */
static inline int piper_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL) return -1;
    return piper_format_address(info->client_addr, buffer, size);
}

/* The connection's socket, or -1. */
static inline int piper_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* What the connection-notification callback stored for the connection (its socket context). */
static inline void *piper_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* Sends `answer` without blocking (what does not fit is dropped), then shuts the socket down
   both ways so the connection's worker thread sees the end and closes it. */
static inline void piper_answer_and_shut(int fd, const char *answer, size_t length) {
    if (length > 0) (void)send(fd, answer, length, MSG_DONTWAIT | MSG_NOSIGNAL);
    (void)shutdown(fd, SHUT_RDWR);
}
/* Makes the coming close of socket `fd` a reset that drops what is still unsent (SO_LINGER of 0),
   then shuts it down both ways so the connection's worker thread sees the end and closes it. */
static inline void piper_reset_and_shut(int fd) {
    struct linger now = { 1, 0 };
    (void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &now, sizeof now);
    (void)shutdown(fd, SHUT_RDWR);
}
#endif
