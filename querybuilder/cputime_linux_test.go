package querybuilder

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the CPU time the calling OS thread has used. With the
// goroutine locked to its thread, the difference over a run is that run's
// CPU cost, which other processes on a shared machine do not inflate the
// way they inflate wall time (GC work on other threads is not in it).
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
