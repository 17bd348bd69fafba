#version 100
// Brush-mode passes: makes a pass target's boxes transparent again (drawn with blending
// off), where a stroke drew into it before; the rest of the target is transparent already.
precision mediump float;
void main() { gl_FragColor = vec4(0.0); }
