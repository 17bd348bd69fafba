#ifndef STP_GL_H
#define STP_GL_H
#include <GLES2/gl2.h>

// Name of a GL error code, e.g. "GL_INVALID_OPERATION".
const char *stp_gl_error_name(GLenum code);

#endif
