// The C baseline of `stipple bench`: Stipple's immediate path as plain GL calls.
//
// Per frame, in Renderer's order (prepareCanvas, the upload in drawImmediate, drawRuns):
//   glBindFramebuffer, glViewport, glClearColor(0,0,0,0), glClear
//   glBindBuffer + glBufferData (growing) or glBufferSubData   [upload_every_frame]
//   glDisable DITHER/DEPTH_TEST/SCISSOR_TEST, glEnable BLEND, glBlendFunc(ONE, ONE_MINUS_SRC_ALPHA)
//   glUseProgram, the six uniforms
//   per run: glBindTexture (brush); first run: glUseProgram, glBindBuffer, five attribute
//            pointers, aCorner off, aRotation off with constant 0; glDrawArrays(GL_POINTS)
//   glFinish (the end of the timed span)
// Every call is made every frame: Stipple's state cache skips re-binds of what is already
// bound, which on Mesa costs next to nothing either way.
#define _POSIX_C_SOURCE 199309L
#include "../CStipple/stp_say.h"  // internal to the package: not in CStipple's public headers
#include "stp_bench.h"
#include "stp_gl.h"

#include <GLES2/gl2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


double stp_bench_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// What one run makes, so one function can delete it whatever failed.
typedef struct bench_gl {
    GLuint program, buffer, brush, target, fbo;
    GLint u_target, u_view, u_origin, u_max_age, u_dissolve, u_scale, u_age_offset, u_brush;
    size_t capacity;  // bytes the buffer holds (glBufferData when an upload needs more)
} bench_gl;

static void release(bench_gl *g) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
    if (g->fbo) glDeleteFramebuffers(1, &g->fbo);
    if (g->target) glDeleteTextures(1, &g->target);
    if (g->brush) glDeleteTextures(1, &g->brush);
    if (g->buffer) glDeleteBuffers(1, &g->buffer);
    if (g->program) glDeleteProgram(g->program);
}

static GLuint compile(GLenum type, const char *source, const char *what, char *err, size_t errlen) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        for (char *p = log; *p; p++) if (*p == '\n') *p = ' ';
        stp_say(err, errlen, "the %s shader does not compile: %s", what, log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

// ShaderProgram.Attribute: the locations every Stipple program binds before linking.
static const char *const attribute_names[] = {
    "aPosition", "aRadius", "aAge", "aDissolveAngle", "aColor", "aCorner", "aRotation",
};

static int make_program(bench_gl *g, const stp_bench_scene *s, char *err, size_t errlen) {
    GLuint vs = compile(GL_VERTEX_SHADER, s->vertex_source, "vertex", err, errlen);
    if (!vs) return -1;
    GLuint fs = compile(GL_FRAGMENT_SHADER, s->fragment_source, "fragment", err, errlen);
    if (!fs) { glDeleteShader(vs); return -1; }
    g->program = glCreateProgram();
    glAttachShader(g->program, vs);
    glAttachShader(g->program, fs);
    for (GLuint i = 0; i < sizeof attribute_names / sizeof attribute_names[0]; i++)
        glBindAttribLocation(g->program, i, attribute_names[i]);
    glLinkProgram(g->program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(g->program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetProgramInfoLog(g->program, sizeof log, NULL, log);
        for (char *p = log; *p; p++) if (*p == '\n') *p = ' ';
        stp_say(err, errlen, "the shaders do not link: %s", log);
        return -1;
    }
    g->u_target = glGetUniformLocation(g->program, "uTargetSize");
    g->u_view = glGetUniformLocation(g->program, "uViewSize");
    g->u_origin = glGetUniformLocation(g->program, "uOrigin");
    g->u_max_age = glGetUniformLocation(g->program, "uMaxAge");
    g->u_dissolve = glGetUniformLocation(g->program, "uDissolveDistance");
    g->u_scale = glGetUniformLocation(g->program, "uPointScale");
    g->u_age_offset = glGetUniformLocation(g->program, "uAgeOffset");
    g->u_brush = glGetUniformLocation(g->program, "uBrush");
    return 0;
}

// BrushTexture: coverage in the alpha of an RGBA texture (colour white), row 0 first,
// bilinear, clamped to its edge.
static int make_brush(bench_gl *g, const stp_bench_scene *s, char *err, size_t errlen) {
    size_t n = (size_t)s->brush_width * (size_t)s->brush_height;
    unsigned char *rgba = malloc(n * 4);
    if (!rgba) {
        stp_say(err, errlen, "no memory for a %dx%d brush", s->brush_width, s->brush_height);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = 255;
        rgba[4 * i + 3] = s->brush[i];
    }
    glGenTextures(1, &g->brush);
    glBindTexture(GL_TEXTURE_2D, g->brush);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, s->brush_width, s->brush_height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    free(rgba);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return 0;
}

// Framebuffer: an RGBA8 texture, nearest, behind an FBO.
static int make_target(bench_gl *g, const stp_bench_scene *s, char *err, size_t errlen) {
    glGenTextures(1, &g->target);
    glBindTexture(GL_TEXTURE_2D, g->target);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, s->width + 2 * s->guard_band, s->height + 2 * s->guard_band, 0,
                 GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &g->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g->target, 0);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        stp_say(err, errlen, "a %dx%d RGBA8 framebuffer is incomplete (status 0x%x)", s->width, s->height,
            (unsigned)status);
        return -1;
    }
    return 0;
}

// VertexBuffer.upload: glBufferData when the stamps outgrow the buffer, else glBufferSubData.
static void upload(bench_gl *g, const stp_bench_scene *s) {
    size_t bytes = (size_t)s->count * sizeof(stp_sketch_point);
    glBindBuffer(GL_ARRAY_BUFFER, g->buffer);
    if (bytes == 0) return;
    if (bytes > g->capacity) {
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, s->stamps, GL_DYNAMIC_DRAW);
        g->capacity = bytes;
    } else {
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, s->stamps);
    }
}

// Renderer.bindAttributes for a buffer of SketchPoints with no rotations.
static void bind_attributes(const bench_gl *g) {
    static const struct { GLuint index; GLint size; size_t offset; } layout[] = {
        {0, 2, 0}, {1, 1, 8}, {2, 1, 12}, {3, 1, 16}, {4, 4, 20},
    };
    glBindBuffer(GL_ARRAY_BUFFER, g->buffer);
    for (size_t i = 0; i < sizeof layout / sizeof layout[0]; i++) {
        glEnableVertexAttribArray(layout[i].index);
        glVertexAttribPointer(layout[i].index, layout[i].size, GL_FLOAT, GL_FALSE, (GLsizei)sizeof(stp_sketch_point),
                              (const void *)layout[i].offset);
    }
    glDisableVertexAttribArray(5);  // aCorner: the quads' only
    glDisableVertexAttribArray(6);  // aRotation: upright
    glVertexAttrib1f(6, 0.0f);
}

// Framebuffer.viewWidth: the smallest power of two at least n.
static int power_of_two(int n) {
    int p = 1;
    while (p < n) p *= 2;
    return p;
}

static void frame(bench_gl *g, const stp_bench_scene *s, int per_draw) {
    const int tw = s->width + 2 * s->guard_band, th = s->height + 2 * s->guard_band;
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glViewport(0, 0, power_of_two(tw), power_of_two(th));
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (s->upload_every_frame) upload(g, s);
    if (s->count <= 0) return;  // Stipple draws nothing when no run is left

    glDisable(GL_DITHER);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_SCISSOR_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(g->program);
    glUniform2f(g->u_target, (GLfloat)tw, (GLfloat)th);
    glUniform2f(g->u_view, (GLfloat)power_of_two(tw), (GLfloat)power_of_two(th));
    glUniform2f(g->u_origin, (GLfloat)-s->guard_band, (GLfloat)-s->guard_band);
    glUniform1f(g->u_max_age, s->max_age);
    glUniform1f(g->u_dissolve, s->dissolve_distance);
    glUniform1f(g->u_scale, s->point_scale);
    glUniform1f(g->u_age_offset, s->age_offset);
    glUniform1i(g->u_brush, 0);

    for (int first = 0; first < s->count; first += per_draw) {
        int n = s->count - first < per_draw ? s->count - first : per_draw;
        glBindTexture(GL_TEXTURE_2D, g->brush);
        if (first == 0) {
            glUseProgram(g->program);
            bind_attributes(g);
        }
        glDrawArrays(GL_POINTS, first, n);
    }
}

int stp_bench_gl(const stp_bench_scene *scene, int warmup, int reps, double *out_seconds, char *err, size_t errlen) {
    const stp_bench_scene *s = scene;
    if (!s || !s->vertex_source || !s->fragment_source || (s->count > 0 && !s->stamps) || s->count < 0 ||
        s->width < 1 || s->height < 1 || !s->brush || s->brush_width < 1 || s->brush_height < 1 ||
        warmup < 0 || reps < 0 || (reps > 0 && !out_seconds)) {
        stp_say(err, errlen, "stp_bench_gl: a scene with shaders, stamps, a canvas and a brush is needed");
        return -1;
    }
    while (glGetError() != GL_NO_ERROR) {}  // errors of earlier work are not this run's

    bench_gl g;
    memset(&g, 0, sizeof g);
    int per_draw = s->per_draw > 0 ? s->per_draw : (s->count > 0 ? s->count : 1);
    int rc = make_program(&g, s, err, errlen);
    if (rc == 0) rc = make_brush(&g, s, err, errlen);
    if (rc == 0) rc = make_target(&g, s, err, errlen);
    if (rc == 0) {
        glGenBuffers(1, &g.buffer);
        if (!s->upload_every_frame) upload(&g, s);
        GLenum e = glGetError();
        if (e != GL_NO_ERROR) {
            stp_say(err, errlen, "setting up the benchmark (%dx%d canvas, %d stamps) raised %s", s->width, s->height,
                s->count, stp_gl_error_name(e));
            rc = -1;
        }
    }
    if (rc == 0) {
        for (int i = 0; i < warmup; i++) frame(&g, s, per_draw);
        glFinish();
        for (int i = 0; i < reps; i++) {
            double t0 = stp_bench_now();
            frame(&g, s, per_draw);
            glFinish();
            out_seconds[i] = stp_bench_now() - t0;
        }
        GLenum e = glGetError();
        if (e != GL_NO_ERROR) {
            stp_say(err, errlen, "drawing %d stamps in runs of %d raised %s", s->count, per_draw, stp_gl_error_name(e));
            rc = -1;
        }
    }
    release(&g);
    return rc;
}
