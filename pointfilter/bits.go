// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import "encoding/binary"

func pointLE64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func pointPutLE64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }
