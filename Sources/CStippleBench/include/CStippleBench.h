// CStippleBench: the benchmark's C peers, apart from the library every user links:
// the GL baseline (Stipple's immediate path as plain GL calls), and Cairo and libdeflate,
// loaded at run time.
#ifndef CSTIPPLEBENCH_H
#define CSTIPPLEBENCH_H

#include "stp_bench.h"
#include "stp_cairo.h"
#include "stp_libdeflate.h"

#endif
