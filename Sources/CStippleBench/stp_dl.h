#ifndef STP_DL_H
#define STP_DL_H
#include <stddef.h>

// A library the benchmark loads at run time, so that the package does not depend on it at
// build time. Private to CStippleBench.

// dlopen(soname); NULL with "SONAME not found; HINT" in `error`.
void *stp_dl_open(const char *soname, const char *hint, char *error, size_t errlen);

// `name` from `lib` into the function pointer at `slot` (dlsym hands back an object pointer;
// POSIX guarantees it converts to a function pointer): 0, or -1 with "SONAME has no NAME (too
// old?); HINT" in `error`.
int stp_dl_symbol(void *lib, const char *soname, const char *name, void *slot, const char *hint, char *error,
                  size_t errlen);

#endif
