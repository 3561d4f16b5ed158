// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import "fmt"

// humanBytes formats a byte count with a binary unit, as Pebble's metrics do.
func humanBytes(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
