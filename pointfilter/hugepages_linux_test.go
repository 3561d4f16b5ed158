// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import "golang.org/x/sys/unix"

// pointHugePages returns n bytes of anonymous memory advised for
// transparent huge pages, and whether the kernel took the advice (it
// refuses where they are disabled). The memory is never unmapped: benchmarks
// only.
func pointHugePages(n int) ([]byte, bool) {
	const huge = 2 << 20
	region, err := unix.Mmap(-1, 0, n+huge, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, false
	}
	if err := unix.Madvise(region, unix.MADV_HUGEPAGE); err != nil {
		_ = unix.Munmap(region)
		return nil, false
	}
	return region[:n:n], true
}
