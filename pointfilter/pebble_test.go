// Copyright 2026 The pebblerf Authors. All rights reserved.

package pointfilter

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// TestPointFiltersInPebble writes a DB with one filter policy and reads it
// back with each of the others (and none): every read must return what a
// reference map says, whichever filters the reader can or cannot decode. It
// also checks that reading with the writing policy actually consulted the
// filters, so the comparison is not vacuous.
func TestPointFiltersInPebble(t *testing.T) {
	policies := []struct {
		name   string
		policy pebble.FilterPolicy
	}{
		{"none", nil},
		{"pebble-bloom", bloom.FilterPolicy(10)},
		{"bloom", Bloom(10)},
		{"ribbon", Ribbon(10)},
		{"ribbon7", Ribbon(7)},
	}
	// Keys k%05d for even numbers below n, a third of them overwritten later
	// so that L0 and L6 both hold tables. Pebble is slow under -race, and a
	// smaller n exercises the same paths.
	n := 4000
	if pointRaceEnabled {
		n = 600
	}
	want := map[string]string{}
	for _, w := range policies[1:] {
		t.Run("write="+w.name, func(t *testing.T) {
			mem := vfs.NewMem()
			db := pointOpen(t, mem, w.policy)
			clear(want)
			for i := 0; i < n; i += 2 {
				k, v := fmt.Sprintf("k%05d", i), fmt.Sprintf("v%d", i)
				require.NoError(t, db.Set([]byte(k), []byte(v), pebble.NoSync))
				want[k] = v
			}
			require.NoError(t, db.Flush())
			require.NoError(t, db.Compact(t.Context(), []byte("k"), []byte("l"), true))
			for i := 0; i < n; i += 6 {
				k, v := fmt.Sprintf("k%05d", i), fmt.Sprintf("w%d", i)
				require.NoError(t, db.Set([]byte(k), []byte(v), pebble.NoSync))
				want[k] = v
			}
			require.NoError(t, db.Flush())
			require.NoError(t, db.Close())

			for _, r := range policies {
				db := pointOpen(t, mem, r.policy)
				before := db.Metrics().Filter
				require.NoError(t, pointCompareReads(db, want, n), "written with %s, read with %s", w.name, r.name)
				after := db.Metrics().Filter
				if r.policy != nil && r.policy.Name() == w.policy.Name() {
					require.Greater(t, after.Hits, before.Hits,
						"read with %s: no filter excluded a missing key", r.name)
				}
				require.NoError(t, db.Close())
			}
		})
	}
}

func pointOpen(t *testing.T, fs vfs.FS, policy pebble.FilterPolicy) *pebble.DB {
	opts := &pebble.Options{FS: fs, Logger: pointQuietLogger{t}}
	opts.Levels[0].FilterPolicy = policy // L1-L6 inherit it
	db, err := pebble.Open("db", opts)
	require.NoError(t, err)
	return db
}

// pointCompareReads reads every key in [0, n), present or not, with Get
// and with SeekPrefixGE (L6 filters enabled), and compares with want.
func pointCompareReads(db *pebble.DB, want map[string]string, n int) error {
	it, err := db.NewIter(&pebble.IterOptions{UseL6Filters: true})
	if err != nil {
		return err
	}
	defer it.Close()
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("k%05d", i)
		wantV, present := want[k]
		v, closer, err := db.Get([]byte(k))
		switch {
		case errors.Is(err, pebble.ErrNotFound):
			if present {
				return errors.Newf("Get(%s): not found, want %s", k, wantV)
			}
		case err != nil:
			return err
		default:
			got := string(v)
			_ = closer.Close()
			if !present || got != wantV {
				return errors.Newf("Get(%s) = %s, want %q (present %t)", k, got, wantV, present)
			}
		}
		found := it.SeekPrefixGE([]byte(k)) && bytes.Equal(it.Key(), []byte(k))
		if found != present || (found && string(it.Value()) != wantV) {
			return errors.Newf("SeekPrefixGE(%s): found %t, want %t", k, found, present)
		}
	}
	return nil
}

// pointQuietLogger drops Pebble's informational chatter (WAL replay on every
// open) and keeps errors.
type pointQuietLogger struct{ t *testing.T }

func (pointQuietLogger) Infof(string, ...interface{})           {}
func (l pointQuietLogger) Errorf(f string, args ...interface{}) { l.t.Logf(f, args...) }
func (l pointQuietLogger) Fatalf(f string, args ...interface{}) { l.t.Fatalf(f, args...) }
