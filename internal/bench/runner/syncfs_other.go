// Copyright 2026 The pebblerf Authors. All rights reserved.

//go:build !unix

package runner

// syncFilesystems has nothing to ask for where there is no sync(2).
func syncFilesystems() {}
