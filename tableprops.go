// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import "github.com/pebblerf/pebble/internal/tableprops"

// TablePropertyCollector collects table-level properties while an sstable
// is written, as Pebble v1's TablePropertyCollector did: Add sees every
// point key of every kind, in order (never range deletions nor range keys),
// and Finish fills the table's property map. Pebble v2 removed the
// interface; pebblerf stores the map as the table property of a
// block-property collector of the same Name, so Name must be unique among
// Options.BlockPropertyCollectors and stable across versions. Install
// collectors with Plugins.TableProperties, one instance per table written.
type TablePropertyCollector = tableprops.Collector

// DecodeTableProperties decodes the properties a TablePropertyCollector
// stored for one table, given the table's user properties as
// DB.SSTables(WithProperties()) reports them and the collector's Name. ok is
// false when the table has none from that collector (tables written before
// it was installed, or by upstream Pebble).
func DecodeTableProperties(userProps map[string]string, name string) (props map[string]string, ok bool, err error) {
	prop, ok := userProps[name]
	// Pebble stores each block property after a one-byte short ID.
	if !ok || len(prop) < 1 {
		return nil, false, nil
	}
	props, err = tableprops.Decode([]byte(prop[1:]))
	if err != nil {
		return nil, false, err
	}
	return props, true, nil
}
