// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !unix

package engineproc

import "syscall"

// sysProcAttr leaves an engine's process as the system starts it.
func sysProcAttr() *syscall.SysProcAttr { return nil }
