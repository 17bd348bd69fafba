// CStipple: the C shim under Stipple. EGL bring-up, GL error names, PNG on libpng, the
// video compositor's and the stroke layers' inner loops in AVX2, line-buffered stdout for
// the command line, a thread's scheduling priority, and the frame planner's pass over a
// batch's stamps.
// (The benchmark's C peers live in CStippleBench, which no application links.)
// Small, flat C, one concern a file; every function is prefixed stp_.
#ifndef CSTIPPLE_H
#define CSTIPPLE_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include "stp_types.h"
#include "stp_egl.h"
#include "stp_gl.h"
#include "stp_png.h"
#include "stp_png_stream.h"
#include "stp_png_segment.h"
#include "stp_blend.h"
#include "stp_layers.h"
#include "stp_coverage.h"
#include "stp_tile_codecs.h"
#include "stp_stdio.h"
#include "stp_thread.h"
#include "stp_heap.h"
#include "stp_stamps.h"

#endif
