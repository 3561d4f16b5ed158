// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/pointfilter"
	"github.com/pebblerf/pebble/rangefilter"
	"github.com/stretchr/testify/require"
)

// TestReplan runs testdata/replan: a DB opened under one point-filter plan
// and one range-filter plan, re-planned while it runs. Each table is shown
// with the filters it was written with, read from the file itself (the
// point filter's trailer through pointfilter.Describe, the range filter's
// property), Explain with the current plans, and every written key is read
// back, by Get and by bounded iterators, with absent keys not found.
func TestReplan(t *testing.T) {
	var (
		fs      vfs.FS
		db      *DB
		written = map[string][]string{} // batch -> keys
	)
	defer func() {
		if db != nil {
			require.NoError(t, db.Close())
		}
	}()
	datadriven.RunTest(t, "testdata/replan", func(t *testing.T, td *datadriven.TestData) string {
		switch td.Cmd {
		case "open":
			fs = vfs.NewMem()
			planner, err := pointfilter.NewPlanner(pointfilter.Uniform(10))
			require.NoError(t, err)
			rplan := rangefilter.AllLevels(16)
			db, err = OpenWithPlugins("db", &Options{FS: fs, DisableAutomaticCompactions: true, Logger: quietLogger{}},
				Plugins{Filters: planner, RangeFilter: &rangefilter.Config{BitsPerKey: 16, Seed: 1}, RangeFilterLevels: &rplan})
			require.NoError(t, err)
			return fmt.Sprintf("point: %s\nrange: %s\n", db.FilterPlanner(), db.RangeFilterPolicy().Plan())

		case "replan":
			if td.HasArg("point") {
				plan, err := parsePointPlan(td)
				if err != nil {
					return err.Error()
				}
				require.NoError(t, db.FilterPlanner().Set(plan))
			}
			if td.HasArg("range") {
				var name string
				td.ScanArgs(t, "range", &name)
				plans := map[string]rangefilter.Plan{"all": rangefilter.AllLevels(16), "l0": rangefilter.OverlappingRuns(16), "none": {}}
				require.NoError(t, db.RangeFilterPolicy().SetPlan(plans[name]))
			}
			return fmt.Sprintf("point: %s\nrange: %s\n", db.FilterPlanner(), db.RangeFilterPolicy().Plan())

		case "write":
			// write batch=<name> n=<keys> [step=<s> offset=<o>]: keys
			// k<i*step+offset>, then a flush.
			var name string
			var n, step, offset int
			td.ScanArgs(t, "batch", &name)
			td.ScanArgs(t, "n", &n)
			step = 1
			if td.HasArg("step") {
				td.ScanArgs(t, "step", &step)
			}
			if td.HasArg("offset") {
				td.ScanArgs(t, "offset", &offset)
			}
			for i := 0; i < n; i++ {
				k := fmt.Sprintf("k%06d", i*step+offset)
				written[name] = append(written[name], k)
				require.NoError(t, db.Set([]byte(k), []byte(name), nil))
			}
			require.NoError(t, db.Flush())
			return ""

		case "compact":
			require.NoError(t, db.Compact(context.Background(), []byte("k"), []byte("l"), false))
			return ""

		case "tables":
			return describeTables(t, fs, db)

		case "explain":
			e, err := db.RangeQueries(RangeQueryOptions{}).Explain(
				&IterOptions{LowerBound: []byte("k"), UpperBound: []byte("l")}, nil, 0)
			require.NoError(t, err)
			s := e.String()
			return s[strings.Index(s, "filters of new tables"):]

		case "check":
			return checkAllKeys(t, db, written)
		}
		return "unknown command " + td.Cmd
	})
}

// parsePointPlan reads point=<kind>:<bits> (every level) and optional
// l0=<kind>:<bits>, l6=<kind>:<bits> overrides; kind none, bloom, ribbon
// or fuse.
func parsePointPlan(td *datadriven.TestData) (pointfilter.Plan, error) {
	parse := func(s string) (pointfilter.LevelFilter, error) {
		kind, bits, _ := strings.Cut(s, ":")
		var f pointfilter.LevelFilter
		switch kind {
		case "none":
		case "bloom":
			f.Kind = pointfilter.KindBloom
		case "ribbon":
			f.Kind = pointfilter.KindRibbon
		case "fuse":
			f.Kind = pointfilter.KindFuse
		default:
			return f, errors.Newf("unknown filter kind %q", kind)
		}
		if bits != "" {
			b, err := strconv.ParseFloat(bits, 64)
			if err != nil {
				return f, err
			}
			f.Bits = b
		}
		return f, nil
	}
	plan := pointfilter.Plan{Levels: make([]pointfilter.LevelFilter, pointfilter.PlanLevels)}
	for _, arg := range td.CmdArgs {
		if arg.Key == "range" {
			continue
		}
		f, err := parse(arg.Vals[0])
		if err != nil {
			return plan, err
		}
		switch arg.Key {
		case "point":
			for i := range plan.Levels {
				plan.Levels[i] = f
			}
		case "l0":
			plan.Levels[0] = f
		case "l6":
			plan.Levels[6] = f
		}
	}
	return plan, nil
}

// describeTables lists every table by level: its batches (by value), keys,
// and the filters it was written with, read from the file.
func describeTables(t *testing.T, fs vfs.FS, db *DB) string {
	levels, err := db.SSTables(WithProperties())
	require.NoError(t, err)
	var b strings.Builder
	for level, tables := range levels {
		for _, tbl := range tables {
			props := tbl.Properties
			keys := props.NumEntries
			point := "no point filter"
			if raw := filterBlock(t, fs, fmt.Sprintf("db/%s.sst", tbl.FileNum)); raw != nil {
				info, err := pointfilter.Describe(raw)
				require.NoError(t, err)
				point = fmt.Sprintf("point %s %.1f bits/key", info.Kind, 8*float64(info.Bytes)/float64(keys))
			}
			rng := "no range filter"
			if f, ok, err := rangefilter.FromUserProperties(props.UserProperties); ok {
				require.NoError(t, err)
				rng = fmt.Sprintf("range %.1f bits/key", 8*float64(len(f))/float64(keys))
			}
			fmt.Fprintf(&b, "L%d [%s, %s] %d keys: %s, %s\n", level, tbl.Smallest.UserKey, tbl.Largest.UserKey, keys, point, rng)
		}
	}
	return b.String()
}

// filterBlock returns the point filter block of the sstable at path, or nil.
func filterBlock(t *testing.T, fs vfs.FS, path string) []byte {
	f, err := fs.Open(path)
	require.NoError(t, err)
	sst, err := io.ReadAll(f)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	r, err := sstable.NewMemReader(sst, sstable.ReaderOptions{})
	require.NoError(t, err)
	defer r.Close()
	layout, err := r.Layout()
	require.NoError(t, err)
	for _, h := range layout.Filter {
		if h.Name == "fullfilter."+pointfilter.PlannedPolicyName {
			return sst[h.Offset : h.Offset+h.Length]
		}
	}
	return nil
}

// checkAllKeys reads every written key with Get and through a bounded
// iterator over its batch's span, and checks that keys between them are
// absent. A filter's false negative would lose a key here.
func checkAllKeys(t *testing.T, db *DB, written map[string][]string) string {
	names := make([]string, 0, len(written))
	for name := range written {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		keys := written[name]
		found := 0
		for _, k := range keys {
			v, closer, err := db.Get([]byte(k))
			require.NoError(t, err, "key %s of batch %s", k, name)
			require.NotEmpty(t, v)
			require.NoError(t, closer.Close())
			_, _, err = db.Get([]byte(k + "x"))
			require.ErrorIs(t, err, ErrNotFound)
			// A one-key range: the tightest bounds a range filter judges.
			it, err := db.NewIter(&IterOptions{LowerBound: []byte(k), UpperBound: []byte(k + "\x00")})
			require.NoError(t, err)
			if it.First() && bytes.Equal(it.Key(), []byte(k)) {
				found++
			}
			require.NoError(t, it.Close())
		}
		require.Equal(t, len(keys), found, "batch %s: bounded reads found every key", name)
		fmt.Fprintf(&b, "batch %s: %d keys read by Get and by bounded iterators\n", name, found)
	}
	return b.String()
}
