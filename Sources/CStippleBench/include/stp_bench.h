#ifndef STP_BENCH_H
#define STP_BENCH_H
#include <stddef.h>
#include "stp_types.h"

// A C baseline for `stipple bench`: the GL call sequence of Stipple's immediate path
// (Renderer.drawImmediate + drawRuns), issued straight from C, so the Swift layer's cost
// is a measured ratio.
typedef struct stp_bench_scene {
    const char *vertex_source, *fragment_source;   // the shader text, #defines already applied by the caller
    const stp_sketch_point *stamps; int count;
    int per_draw;            // stamps per glDrawArrays (count, or <= 0, for one draw a frame)
    int width, height;       // canvas (an RGBA8 texture FBO, cleared each frame to transparent)
    int guard_band;          // pixels of framebuffer around the canvas, as Stipple's Framebuffer
    const unsigned char *brush; int brush_width, brush_height;  // coverage bytes, uploaded as GL_ALPHA
    float max_age, dissolve_distance, point_scale, age_offset;
    int upload_every_frame;  // 1: glBufferSubData all stamps each frame (as Stipple's immediate path); 0: upload once
} stp_bench_scene;

// On a thread whose GL context is current: makes its own program, buffer, texture and FBO; runs `warmup`
// untimed frames then `reps` timed ones, each timed from before its first GL call to after glFinish
// (CLOCK_MONOTONIC); writes seconds into out_seconds[reps]; deletes what it made. 0 ok, -1 + message.
// The GL state it leaves: FBO 0, program 0, array buffer 0, texture 0 bound; blending on.
// On a Renderer's context, call it through Renderer.runForeignGL, which then forgets what
// Stipple's GL state cache believed (it would otherwise skip binds it needs); or give it a
// context of its own (GLContext + RenderThread, as CBenchTests does).
int stp_bench_gl(const stp_bench_scene *scene, int warmup, int reps, double *out_seconds, char *err, size_t errlen);

// Seconds on CLOCK_MONOTONIC (for callers that time their own frames the same way).
double stp_bench_now(void);

#endif
