// Copyright 2026 The pebblerf Authors. All rights reserved.

#include "textflag.h"

// func serialize()
TEXT ·serialize(SB),NOSPLIT,$0-0
	MFENCE
	LFENCE
	RET
