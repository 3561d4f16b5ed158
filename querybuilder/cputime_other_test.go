//go:build !linux

package querybuilder

import "time"

// threadCPU is unavailable here; CPU ratios then read as zero.
func threadCPU() time.Duration { return 0 }
