#version 100
// Brush-mode passes: a triangle pair for each box a pass computes, corners in clip space.
attribute vec2 aPosition;
void main() { gl_Position = vec4(aPosition, 0.0, 1.0); }
