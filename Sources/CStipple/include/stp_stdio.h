// Standard output as a command-line program wants it.
#ifndef STP_STDIO_H
#define STP_STDIO_H

// Makes stdout line-buffered: each line reaches a file or a pipe as it is printed, not a
// block at a time (C's default off a terminal), so a log keeps every line a killed run wrote.
void stp_stdout_line_buffered(void);

#endif
