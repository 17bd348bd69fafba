// Internal to CStipple: finding a DRM render node for the GBM platform.
#ifndef STP_DRM_H
#define STP_DRM_H
#include <stddef.h>

// Opens the first /dev/dri/renderD* that opens (read-write, close-on-exec) and writes its
// path into path_out; returns the descriptor, or -1 when there is none.
int stp_drm_open_render_node(char *path_out, size_t path_len);

// 1 when some /dev/dri/renderD* exists (whether or not it opens), else 0.
int stp_drm_render_node_exists(void);

#endif
