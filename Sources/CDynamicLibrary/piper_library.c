#include "piper_library.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

static int open_and_resolve(piper_library *library) {
    const char *override = getenv(library->environment);
    const char *file = (override != NULL && override[0] != '\0') ? override : library->soname;
    /* RTLD_LOCAL: the library's symbols serve only this table, never another library's
     * lookups. RTLD_LAZY: the calls between the library and its dependencies are bound when
     * first made, not all at once here (libcurl brings ~30 objects; binding each one's every
     * import took a sixth of the load). A function missing from Piper's table still shows
     * here: every name is looked up with dlsym below. */
    void *handle = dlopen(file, RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        if (override != NULL && override[0] != '\0') {
            snprintf(library->message, sizeof library->message, "%s could not be loaded from %s (set by %s): %s",
                     library->label, file, library->environment, why ? why : "unknown error");
        } else {
            snprintf(library->message, sizeof library->message,
                     "%s could not be loaded: %s (install the Debian package %s, or set %s to the library's path)",
                     library->label, why ? why : "unknown error", library->package, library->environment);
        }
        return -1;
    }
    for (size_t i = 0; i < library->count; i++) {
        dlerror();
        void *address = dlsym(handle, library->names[i]);
        if (address == NULL) {
            snprintf(library->message, sizeof library->message, "%s (%s) has no function %s: it is older than Piper needs",
                     library->label, file, library->names[i]);
            dlclose(handle);
            return -1;
        }
        library->table[i] = address;
    }
    return 1;
}

const char *piper_library_load(piper_library *library) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&loading);
        if (library->state == 0) __atomic_store_n(&library->state, open_and_resolve(library), __ATOMIC_RELEASE);
        state = library->state;
        pthread_mutex_unlock(&loading);
    }
    return state == 1 ? NULL : library->message;
}

void *piper_library_function(piper_library *library, size_t index) {
    if (__atomic_load_n(&library->state, __ATOMIC_ACQUIRE) != 1) {
        const char *failure = piper_library_load(library);
        if (failure != NULL) {
            fprintf(stderr, "piper: %s\n", failure);
            abort();
        }
    }
    return library->table[index];
}
