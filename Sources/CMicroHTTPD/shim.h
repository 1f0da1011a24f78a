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

/* Typed wrappers for libmicrohttpd's variadic calls (Swift cannot call C varargs). */

/* Starts a daemon with its own epoll thread pool of `threads` threads, bound to the numeric
   address `host` (IPv4 or IPv6) and `port` (0 = any free port). Returns NULL on failure
   (bad address, port in use). */
static inline struct MHD_Daemon *piper_mhd_start(const char *host, uint16_t port, unsigned int threads,
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
    return MHD_start_daemon(flags, port, accept, guard_cls, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, addr,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, guard_cls,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_END);
}

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

/* Sends `answer` without blocking (what does not fit is dropped), then shuts the socket down
   both ways so the connection's worker thread sees the end and closes it. */
static inline void piper_answer_and_shut(int fd, const char *answer, size_t length) {
    if (length > 0) (void)send(fd, answer, length, MSG_DONTWAIT | MSG_NOSIGNAL);
    (void)shutdown(fd, SHUT_RDWR);
}
#endif
