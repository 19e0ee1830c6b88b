/* SPDX-License-Identifier: MIT */
/* The built-in I/O engine (placeholder). */
#include "fioscope/common.h"
