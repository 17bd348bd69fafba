// Libraries loaded at run time (see stp_dl.h).
#include "stp_dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void *stp_dl_load(const char *soname, const char *hint, const stp_dl_function *functions, size_t count,
                  char *error, size_t errlen) {
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(error, errlen, "%s not found; %s", soname, hint);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        void *f = dlsym(lib, functions[i].name);
        if (!f) {
            snprintf(error, errlen, "%s has no %s (too old?); %s", soname, functions[i].name, hint);
            dlclose(lib);
            return NULL;
        }
        memcpy(functions[i].slot, &f, sizeof f);
    }
    return lib;
}
