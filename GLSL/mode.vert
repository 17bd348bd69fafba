#version 100
// Brush-mode passes: one triangle pair over the whole target; the scissor box keeps each
// pass to the region a stroke can touch.
attribute vec2 aPosition;
void main() { gl_Position = vec4(aPosition, 0.0, 1.0); }
