#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "pool_wipe.h"

/* libmicrohttpd 0.9.75 wipes freed memory-pool space with memset: the whole per-connection pool
 * (MHD_OPTION_CONNECTION_MEMORY_LIMIT, 64 KB here) before every request on a kept-alive
 * connection (MHD_pool_reset: "technically not needed, but safer to zero out"), and the freed
 * part of a block it shrinks or moves (MHD_pool_reallocate). Those are the library's only memset
 * calls; nothing reads the wiped bytes back as zeros (a pool of 32 KB or less is plain malloc'd
 * memory that is never wiped at all). The 64 KB wipe per request was about 12 % of a cached
 * GET's CPU, and the pool cannot be smaller: a 40 KB request head must still reach the handler
 * to get Piper's own 431.
 *
 * So the library's one memset import (its GOT slot) is pointed at a function that leaves areas
 * of `PIPER_MHD_WIPE_THRESHOLD` bytes or more as they are and zeroes smaller ones as memset
 * does. Applied only to the version this was checked against (the caller checks), only when
 * the slot holds libc's memset, and never with PIPER_MHD_POOL_WIPE=1 in the environment. */
#define PIPER_MHD_WIPE_THRESHOLD 4096

static void *piper_pool_memset(void *destination, int value, size_t count) {
    if (count >= PIPER_MHD_WIPE_THRESHOLD && value == 0) return destination;
    return memset(destination, value, count);
}

#if defined(__x86_64__)
#define PIPER_JUMP_SLOT R_X86_64_JUMP_SLOT
#elif defined(__aarch64__)
#define PIPER_JUMP_SLOT R_AARCH64_JUMP_SLOT
#endif

struct relro_search {
    ElfW(Addr) base;
    ElfW(Addr) start;
    ElfW(Addr) end;
};

static int find_relro(struct dl_phdr_info *info, size_t size, void *data) {
    struct relro_search *search = data;
    (void)size;
    if (info->dlpi_addr != search->base) return 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_GNU_RELRO) continue;
        search->start = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        search->end = search->start + info->dlpi_phdr[i].p_memsz;
    }
    return 1;
}

int piper_mhd_skip_pool_wipes(void *function_in_library) {
#ifndef PIPER_JUMP_SLOT
    (void)function_in_library;
    return -1;
#else
    Dl_info info;
    struct link_map *map = NULL;
    if (dladdr1(function_in_library, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL) return -1;
    const ElfW(Addr) base = map->l_addr;
    const ElfW(Sym) *symbols = NULL;
    const char *strings = NULL;
    const ElfW(Rela) *relocations = NULL;
    size_t relocation_bytes = 0;
    /* glibc relocates these dynamic entries in place on x86-64; a value below the load base is
     * still an offset into the file. */
#define PIPER_ADDRESS(value) ((value) < base ? (value) + base : (value))
    for (const ElfW(Dyn) *entry = map->l_ld; entry->d_tag != DT_NULL; entry++) {
        switch (entry->d_tag) {
        case DT_SYMTAB: symbols = (const ElfW(Sym) *)PIPER_ADDRESS(entry->d_un.d_ptr); break;
        case DT_STRTAB: strings = (const char *)PIPER_ADDRESS(entry->d_un.d_ptr); break;
        case DT_JMPREL: relocations = (const ElfW(Rela) *)PIPER_ADDRESS(entry->d_un.d_ptr); break;
        case DT_PLTRELSZ: relocation_bytes = entry->d_un.d_val; break;
        case DT_PLTREL: if (entry->d_un.d_val != DT_RELA) return -1; break;
        default: break;
        }
    }
#undef PIPER_ADDRESS
    if (symbols == NULL || strings == NULL || relocations == NULL) return -1;
    void **slot = NULL;
    for (size_t i = 0; i < relocation_bytes / sizeof *relocations; i++) {
        if (ELF64_R_TYPE(relocations[i].r_info) != PIPER_JUMP_SLOT) continue;
        if (strcmp(strings + symbols[ELF64_R_SYM(relocations[i].r_info)].st_name, "memset") != 0) continue;
        slot = (void **)(base + relocations[i].r_offset);
        break;
    }
    if (slot == NULL || *slot != dlsym(RTLD_DEFAULT, "memset")) return -1;

    struct relro_search relro = { base, 0, 0 };
    dl_iterate_phdr(find_relro, &relro);
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    void *start = (void *)((uintptr_t)slot & ~(page - 1));
    /* The loader made the whole pages of the RELRO segment read-only (BIND_NOW libraries keep
     * their GOT there); a slot outside them is writable as it is. */
    const uintptr_t first = relro.start & ~(page - 1), last = relro.end & ~(page - 1);
    const int protected = (uintptr_t)start >= first && (uintptr_t)start + page <= last;
    if (protected && mprotect(start, page, PROT_READ | PROT_WRITE) != 0) return -1;
    __atomic_store_n(slot, (void *)piper_pool_memset, __ATOMIC_RELEASE);
    if (protected) (void)mprotect(start, page, PROT_READ);
    return 0;
#endif
}
