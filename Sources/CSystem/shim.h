#ifndef PIPER_CSYSTEM_SHIM_H
#define PIPER_CSYSTEM_SHIM_H
/*
 * Linux calls that Swift's Glibc module leaves out because glibc declares them only under
 * _GNU_SOURCE. The module importer ignores a _GNU_SOURCE defined here (the system headers are
 * already built as modules), so each call goes through syscall(2), which <unistd.h> declares
 * by default, with the kernel's own constants. 64-bit Linux: off_t arguments are one register.
 */
#include <sys/syscall.h>
#include <unistd.h>
#include <stdint.h>
#include <errno.h>

/* fallocate(2) mode: reserve blocks without changing the file's size. */
#define PIPER_FALLOC_FL_KEEP_SIZE 0x01
/* renameat2(2) flag: fail with EEXIST instead of replacing the target. */
#define PIPER_RENAME_NOREPLACE 1u
/* posix_spawnattr_setflags: start the child in a new session (glibc's POSIX_SPAWN_SETSID). */
#define PIPER_POSIX_SPAWN_SETSID 0x80
/* AT_FDCWD for renameat2. */
#define PIPER_AT_FDCWD (-100)

/* fallocate(2): 0, or -1 with errno set. */
static inline int piper_fallocate(int fd, int mode, int64_t offset, int64_t length) {
    return (int)syscall(SYS_fallocate, fd, mode, (long)offset, (long)length);
}

/* renameat2(2) relative to the working directory: 0, or -1 with errno set. */
static inline int piper_renameat2(const char *from, const char *to, unsigned int flags) {
    return (int)syscall(SYS_renameat2, PIPER_AT_FDCWD, from, PIPER_AT_FDCWD, to, flags);
}

/* close_range(2) from `lowest` up: 0, or -1 with errno set (ENOSYS before Linux 5.9). */
static inline int piper_close_from(unsigned int lowest) {
#ifdef SYS_close_range
    return (int)syscall(SYS_close_range, lowest, ~0u, 0u);
#else
    errno = ENOSYS;
    return -1;
#endif
}
#endif
