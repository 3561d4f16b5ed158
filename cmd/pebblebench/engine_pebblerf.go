// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	pebblerf "github.com/pebblerf/pebble"
)

// openPebbleRF opens dir with pebblerf's Open, the drop-in a user switches to
// by changing one import path.
func openPebbleRF(dir string, opts *pebblerf.Options) (engine, error) {
	db, err := pebblerf.Open(dir, opts)
	if err != nil {
		return nil, err
	}
	return &adapter[*pebblerf.DB, *pebblerf.Iterator, *pebblerf.Batch]{name: enginePebbleRF, db: db}, nil
}
