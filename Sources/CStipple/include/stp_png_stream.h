#ifndef STP_PNG_STREAM_H
#define STP_PNG_STREAM_H
#include <stddef.h>

// A PNG written row by row into an open file descriptor: an image far larger than memory
// is encoded band by band as its rows become known. Rows are 8-bit straight RGBA, top to
// bottom, width * 4 bytes each; `level` as stp_png_encode's.
typedef struct stp_png_stream stp_png_stream;

// Starts the PNG (signature and header) on a copy of fd (the caller still owns fd).
// Returns NULL with one line in err on failure.
stp_png_stream *stp_png_stream_open(int fd, int width, int height, int level, char *err, size_t errlen);

// Writes `count` more rows, `rgba` holding them back to back. 0 on success, -1 with err.
// After a failure only stp_png_stream_close may be called. A NULL stream is refused (-1).
int stp_png_stream_write_rows(stp_png_stream *s, const unsigned char *rgba, int count, char *err, size_t errlen);

// Ends the PNG when every row was written (`finish`), flushes the bytes into fd and frees
// the stream. With finish 0 (a failed or abandoned image) it only frees. 0 on success.
// A NULL stream: 0 with finish 0 (nothing to free), -1 with finish (no PNG to end).
int stp_png_stream_close(stp_png_stream *s, int finish, char *err, size_t errlen);

#endif
