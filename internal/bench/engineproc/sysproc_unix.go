// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build unix

package engineproc

import "syscall"

// sysProcAttr puts an engine's process in a process group of its own, so
// that a terminal's SIGINT reaches it only as its parent forwards it: once
// per SIGINT of the parent, not twice.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
