// Internal to CStipple: the one way its functions write their one-line error message.
#ifndef STP_SAY_H
#define STP_SAY_H
#include <stddef.h>

// printf into the caller's buffer (nothing when err is NULL or errlen is 0).
void stp_say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
