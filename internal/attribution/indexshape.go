// Copyright 2026 The pebblerf Authors. All rights reserved.

package attribution

import "github.com/cockroachdb/pebble/v2"

// The data-block tag adds its bytes to every entry of a table's index: the
// property's length prefix, Pebble's short ID and length bytes, and the tag
// itself, 5 to 7 bytes for file numbers below 2^21. Pebble starts a new
// index block when one grows past IndexBlockSize bytes, so the tag alone
// would push a table whose index almost fills one block to a two-level
// index, and every seek into it would read one more index block. Tables
// written with statistics on therefore get an index block size larger by
// the share the tag adds to an entry of indexEntryFloor bytes (an 8-byte
// key's shortened separator and its block handle): their index blocks hold
// at least as many entries as upstream's do for entries of that size or
// longer, so their index has the shape it would have without the tag (or
// fewer index blocks, for longer keys). Readers need no setting: the index
// shape is recorded in each table.
const (
	indexEntryFloor = 16
	maxTagEntryCost = 7
	// defaultBlockSize is Pebble's default data block size, which a level
	// without an IndexBlockSize of its own uses for its index blocks.
	defaultBlockSize = 4096
)

// widenIndexBlocks scales every level's effective IndexBlockSize as
// described above, resolving defaults as Pebble's Options.EnsureDefaults
// does: L0's index block size defaults to its block size, and each deeper
// level inherits the level above's.
func widenIndexBlocks(opts *pebble.Options) {
	var above, aboveBlock int
	for i := range opts.Levels {
		l := &opts.Levels[i]
		block := l.BlockSize
		if block <= 0 {
			block = aboveBlock
			if i == 0 {
				block = defaultBlockSize
			}
		}
		size := l.IndexBlockSize
		if size <= 0 {
			size = above
			if i == 0 {
				size = block
			}
		}
		above, aboveBlock = size, block
		l.IndexBlockSize = size + size*maxTagEntryCost/indexEntryFloor
	}
}
