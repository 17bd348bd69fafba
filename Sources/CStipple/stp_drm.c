// DRM probing, apart from EGL (kmscube's drm-common.c): which render node the GBM
// platform can open. No node means no GPU here, and the GBM platform is not tried.
#include "stp_drm.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

// The first /dev/dri/renderD* that opens, or -1.
int stp_drm_open_render_node(char *path_out, size_t path_len) {
    DIR *dir = opendir("/dev/dri");
    if (!dir) return -1;
    struct dirent *e;
    int fd = -1;
    while ((e = readdir(dir)) != NULL) {
        if (strncmp(e->d_name, "renderD", 7) != 0) continue;
        snprintf(path_out, path_len, "/dev/dri/%s", e->d_name);
        fd = open(path_out, O_RDWR | O_CLOEXEC);
        if (fd >= 0) break;
    }
    closedir(dir);
    return fd;
}

int stp_drm_render_node_exists(void) {
    DIR *dir = opendir("/dev/dri");
    if (!dir) return 0;
    struct dirent *e;
    int found = 0;
    while ((e = readdir(dir)) != NULL) {
        if (strncmp(e->d_name, "renderD", 7) == 0) { found = 1; break; }
    }
    closedir(dir);
    return found;
}
