// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// keyCountProps records how many point keys a table holds.
type keyCountProps struct{ n int }

func (c *keyCountProps) Name() string { return "test.keycount" }
func (c *keyCountProps) Add(InternalKey, []byte) error {
	c.n++
	return nil
}
func (c *keyCountProps) Finish(props map[string]string) error {
	props["keys"] = fmt.Sprint(c.n)
	return nil
}

// TestTablePropertyCollector checks that a v1-style collector installed
// with Plugins.TableProperties sees each table's keys and that its map reads
// back from DB.SSTables.
func TestTablePropertyCollector(t *testing.T) {
	db := openTestDB(t, nil, Plugins{
		TableProperties: []func() TablePropertyCollector{func() TablePropertyCollector { return &keyCountProps{} }},
	})
	for table, n := range []int{3, 5} {
		for i := 0; i < n; i++ {
			require.NoError(t, db.Set([]byte(fmt.Sprintf("t%d-%d", table, i)), nil, nil))
		}
		require.NoError(t, db.Flush())
	}
	levels, err := db.SSTables(WithProperties())
	require.NoError(t, err)
	var got []string
	for _, tables := range levels {
		for _, tbl := range tables {
			props, ok, err := DecodeTableProperties(tbl.Properties.UserProperties, "test.keycount")
			require.NoError(t, err)
			require.True(t, ok)
			got = append(got, props["keys"])
			_, ok, err = DecodeTableProperties(tbl.Properties.UserProperties, "test.absent")
			require.NoError(t, err)
			require.False(t, ok)
		}
	}
	require.ElementsMatch(t, []string{"3", "5"}, got)
}
