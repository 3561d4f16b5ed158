// Copyright 2026 The pebblerf Authors. All rights reserved.

package filterbench

import (
	"bytes"
	"os"
	"unsafe"

	"github.com/cockroachdb/errors"
	"golang.org/x/sys/unix"
)

// hugePageMemory returns n bytes of anonymous memory, aligned to a huge
// page and advised for transparent huge pages, and a function that unmaps
// it. It fails with ErrNoHugePages where the kernel has transparent huge
// pages disabled (madvise alone succeeds even then); where they are
// enabled, the kernel still gives them only as it can, which it does not
// report here.
func hugePageMemory(n int) ([]byte, func(), error) {
	const huge = 2 << 20
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return nil, nil, errors.Mark(errors.Wrap(err, "filterbench: reading the huge-page setting"), ErrNoHugePages)
	}
	if !bytes.Contains(mode, []byte("[always]")) && !bytes.Contains(mode, []byte("[madvise]")) {
		return nil, nil, errors.Mark(errors.Newf("filterbench: transparent huge pages are disabled (%q)", bytes.TrimSpace(mode)), ErrNoHugePages)
	}
	// Map a huge page more than asked, and start at the first boundary
	// within, so that the copies begin on one.
	region, err := unix.Mmap(-1, 0, n+huge, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, errors.Wrap(err, "filterbench: mapping memory for huge pages")
	}
	release := func() { _ = unix.Munmap(region) }
	if err := unix.Madvise(region, unix.MADV_HUGEPAGE); err != nil {
		release()
		return nil, nil, errors.Wrap(err, "filterbench: advising huge pages")
	}
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(region)))
	off := int((huge - addr%huge) % huge)
	return region[off : off+n : off+n], release, nil
}
