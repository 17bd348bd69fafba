// What the frame planner asks of every batch of stamps each frame (are they all live? may
// they all be drawn as points?), read in one pass at memory speed.
#ifndef STP_STAMPS_H
#define STP_STAMPS_H

#include <stddef.h>
#include "stp_types.h"

// The extent of `count` stamps: for each of the fields x, y, radius and age, the least and
// the greatest value with NaN left out (+inf and -inf where every value is NaN or there
// are none), and whether some age is NaN. Equal values of either sign of zero may come
// back as either.
typedef struct stp_stamp_extent {
    float min[4];
    float max[4];
    int nan_age;
} stp_stamp_extent;

void stp_stamp_extent_of(const stp_sketch_point *stamps, size_t count, stp_stamp_extent *out);

#endif
