/* SPDX-License-Identifier: MIT */
/* Tables (placeholder until the emit module lands). */
#include "fioscope/table.h"
