// Libraries loaded at run time (see stp_dl.h).
#include "stp_dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void *stp_dl_open(const char *soname, const char *hint, char *error, size_t errlen) {
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) snprintf(error, errlen, "%s not found; %s", soname, hint);
    return lib;
}

int stp_dl_symbol(void *lib, const char *soname, const char *name, void *slot, const char *hint, char *error,
                  size_t errlen) {
    void *f = dlsym(lib, name);
    if (!f) {
        snprintf(error, errlen, "%s has no %s (too old?); %s", soname, name, hint);
        return -1;
    }
    memcpy(slot, &f, sizeof f);
    return 0;
}
