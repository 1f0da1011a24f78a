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
#include <spawn.h>
#include <malloc.h>

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

/* sync_file_range(2) flag: start writing the range's dirty pages back, without waiting. */
#define PIPER_SYNC_FILE_RANGE_WRITE 2u

/* sync_file_range(2): 0, or -1 with errno set. A hint for write-behind; not a durability point
 * (it syncs no metadata): fsync still decides that. */
static inline int piper_sync_file_range(int fd, int64_t offset, int64_t length, unsigned int flags) {
    return (int)syscall(SYS_sync_file_range, fd, (long)offset, (long)length, flags);
}

/* close_range(2) from `lowest` up: 0, or -1 with errno set (ENOSYS before Linux 5.9). The
 * spawner can't use it: posix_spawn runs no code of ours in the child, so it closes inherited
 * descriptors with the file action below instead. */
static inline int piper_close_from(unsigned int lowest) {
#ifdef SYS_close_range
    return (int)syscall(SYS_close_range, lowest, ~0u, 0u);
#else
    errno = ENOSYS;
    return -1;
/* mallopt(M_MMAP_THRESHOLD): blocks of `bytes` and more get their own mapping, returned to the
 * system when freed; setting it also stops glibc raising the threshold after the first such
 * free (which parks later large blocks in the heap, where freeing them keeps them resident).
 * 1 on success. */
static inline int piper_map_blocks_above(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#endif
}

/*
 * posix_spawn_file_actions_addclosefrom_np (glibc 2.34+): a file action that closes every
 * descriptor from `from` up, run in the child after the actions added before it. <spawn.h>
 * declares it only under _GNU_SOURCE, so it is declared again here with glibc's exact
 * prototype; the symbol is in every glibc since 2.34 (Debian 12 ships 2.36). glibc runs it as
 * close_range(2) in the child and falls back to walking /proc/self/fd, so a descriptor another
 * thread opens between our setup and the exec cannot leak, which a list made in the parent
 * cannot promise.
 */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);

/* Adds the close-from action: 0, or an errno value (posix_spawn's convention). */
static inline int piper_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
/* mallopt(M_MMAP_THRESHOLD): blocks of `bytes` and more get their own mapping, returned to the
 * system when freed; setting it also stops glibc raising the threshold after the first such
 * free (which parks later large blocks in the heap, where freeing them keeps them resident).
 * 1 on success. */
static inline int piper_map_blocks_above(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#endif
