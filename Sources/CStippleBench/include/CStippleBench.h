// CStippleBench: the benchmark's C peers, apart from the library every user links:
// the GL baseline (Stipple's immediate path as plain GL calls) and Cairo, loaded at run time.
#ifndef CSTIPPLEBENCH_H
#define CSTIPPLEBENCH_H

#include "stp_bench.h"
#include "stp_cairo.h"

#endif
