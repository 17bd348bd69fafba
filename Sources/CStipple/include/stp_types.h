#ifndef STP_TYPES_H
#define STP_TYPES_H
#include <stddef.h>

// docs/reference.md §2: nine 32-bit floats, 36 bytes, in this order. Swift's SketchPoint mirrors it
// (a test checks both layouts agree); the vertex attributes point into it.
typedef struct stp_sketch_point {
    float x, y;
    float radius;
    float age;
    float dissolve_angle;
    float red, green, blue, alpha;
} stp_sketch_point;

_Static_assert(sizeof(stp_sketch_point) == 36, "SketchPoint is 36 bytes");
_Static_assert(offsetof(stp_sketch_point, x) == 0, "x at 0");
_Static_assert(offsetof(stp_sketch_point, y) == 4, "y at 4");
_Static_assert(offsetof(stp_sketch_point, radius) == 8, "radius at 8");
_Static_assert(offsetof(stp_sketch_point, age) == 12, "age at 12");
_Static_assert(offsetof(stp_sketch_point, dissolve_angle) == 16, "dissolveAngle at 16");
_Static_assert(offsetof(stp_sketch_point, red) == 20, "red at 20");
_Static_assert(offsetof(stp_sketch_point, alpha) == 32, "alpha at 32");

// One vertex of the quad path: the stamp, the corner this vertex stands for, and the
// brush's rotation (radians, clockwise on the canvas).
typedef struct stp_quad_vertex {
    stp_sketch_point point;
    float corner_x, corner_y;
    float rotation;
} stp_quad_vertex;

_Static_assert(sizeof(stp_quad_vertex) == 48, "quad vertex is 48 bytes");
_Static_assert(offsetof(stp_quad_vertex, corner_x) == 36, "corner at 36");
_Static_assert(offsetof(stp_quad_vertex, rotation) == 44, "rotation at 44");

#endif
