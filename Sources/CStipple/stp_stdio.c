#include "stp_stdio.h"

#include <stdio.h>

void stp_stdout_line_buffered(void) { setvbuf(stdout, NULL, _IOLBF, 0); }
