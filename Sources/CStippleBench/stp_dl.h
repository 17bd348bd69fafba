#ifndef STP_DL_H
#define STP_DL_H
#include <stddef.h>

// A library the benchmark loads at run time, so that the package does not depend on it at
// build time. Private to CStippleBench.

// A function the library must have, and the function pointer it is stored into (dlsym hands
// back an object pointer; POSIX guarantees it converts to a function pointer).
typedef struct {
    const char *name;
    void *slot;
} stp_dl_function;

// dlopen(soname), then every one of `functions` resolved into its slot: the library, or NULL
// with one line in `error` ("SONAME not found; HINT" or "SONAME has no NAME (too old?); HINT").
// The library stays loaded for the life of the process; one that fails is closed again (the
// slots it filled are then not to be called).
void *stp_dl_load(const char *soname, const char *hint, const stp_dl_function *functions, size_t count,
                  char *error, size_t errlen);

#endif
