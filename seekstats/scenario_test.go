// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	pebble "github.com/pebblerf/pebble"
	"github.com/stretchr/testify/require"
)

// TestScenarios runs the scripts in testdata/: each builds an LSM of a known
// shape and checks the exact tickers that seeks, value reads and Gets leave.
//
// Commands:
//
//	open [prefix=n] [bloom=bits] [range=bits] [exact] [filters-only]
//	                                      a fresh DB on a MemFS
//	reopen [same args as open]            the same files, with new options and statistics
//	set                                   key=value per line
//	delete                                one key per line
//	flush                                 memtable to a new L0 table
//	compact <start> <end>                 manual compaction of [start, end]
//	ingest [bloom=bits]                   key=value per line, an untagged external table
//	lsm                                   the tables per level
//	iter [lower=k] [upper=k] [use-l6]     ops per line on one iterator:
//	                                      seek-ge k, seek-prefix-ge k, seek-lt k,
//	                                      first, last, next, prev, value
//	get                                   one key per line
//	stats                                 non-zero tickers, then reset
//	levels                                the per-level table (no reset)
//	what-if range|prefix bits=b [range-len=n]
//	                                      the what-if lines and their inputs (no reset)
//	range-lens                            per row, the range lengths observed (no reset)
func TestScenarios(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var d *testDB
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "open", "reopen":
				var cfg openConfig
				td.MaybeScanArgs(t, "prefix", &cfg.prefix)
				td.MaybeScanArgs(t, "bloom", &cfg.bloomBits)
				cfg.exact = td.HasArg("exact")
				cfg.filters = td.HasArg("filters-only")
				td.MaybeScanArgs(t, "range", &cfg.rangeBits)
				if td.Cmd == "reopen" {
					d = d.reopen(cfg)
				} else {
					d = openTestDB(t, cfg)
				}
				return ""
			case "set":
				for _, kv := range lines(td) {
					k, v, _ := strings.Cut(kv, "=")
					require.NoError(t, d.db.Set([]byte(k), []byte(v), nil))
				}
				return ""
			case "delete":
				for _, k := range lines(td) {
					require.NoError(t, d.db.Delete([]byte(k), nil))
				}
				return ""
			case "flush":
				require.NoError(t, d.db.Flush())
				return d.lsm()
			case "compact":
				require.Len(t, td.CmdArgs, 2)
				require.NoError(t, d.db.Compact(t.Context(), []byte(td.CmdArgs[0].Key),
					[]byte(td.CmdArgs[1].Key), false))
				return d.lsm()
			case "ingest":
				var kvs [][2]string
				for _, kv := range lines(td) {
					k, v, _ := strings.Cut(kv, "=")
					kvs = append(kvs, [2]string{k, v})
				}
				var bits int
				td.MaybeScanArgs(t, "bloom", &bits)
				require.NoError(t, d.ingest(kvs, bits))
				return d.lsm()
			case "lsm":
				return d.lsm()
			case "iter":
				return runIter(t, d, td)
			case "get":
				var b strings.Builder
				for _, k := range lines(td) {
					fmt.Fprintf(&b, "%s: %s\n", k, get(d.db, k))
				}
				return b.String()
			case "stats":
				out := nonZero(d.stats.Snapshot())
				d.stats.Reset()
				return out
			case "levels":
				return d.stats.Snapshot().LevelTable()
			case "what-if":
				return runWhatIf(t, d, td)
			case "range-lens":
				return rangeLensTable(d.stats.Snapshot())
			}
			t.Fatalf("unknown command %q", td.Cmd)
			return ""
		})
	})
}

func lines(td *datadriven.TestData) []string {
	var out []string
	for _, l := range strings.Split(td.Input, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func runIter(t *testing.T, d *testDB, td *datadriven.TestData) string {
	o := &pebble.IterOptions{UseL6Filters: td.HasArg("use-l6")}
	if td.HasArg("lower") {
		var k string
		td.ScanArgs(t, "lower", &k)
		o.LowerBound = []byte(k)
	}
	if td.HasArg("upper") {
		var k string
		td.ScanArgs(t, "upper", &k)
		o.UpperBound = []byte(k)
	}
	it, err := d.db.NewIter(o)
	require.NoError(t, err)
	defer func() { require.NoError(t, it.Close()) }()
	var b strings.Builder
	for _, line := range lines(td) {
		op, arg, _ := strings.Cut(line, " ")
		var valid bool
		switch op {
		case "seek-ge":
			valid = it.SeekGE([]byte(arg))
		case "seek-prefix-ge":
			valid = it.SeekPrefixGE([]byte(arg))
		case "seek-lt":
			valid = it.SeekLT([]byte(arg))
		case "first":
			valid = it.First()
		case "last":
			valid = it.Last()
		case "next":
			valid = it.Next()
		case "prev":
			valid = it.Prev()
		case "value":
			fmt.Fprintf(&b, "%s: value %s\n", line, it.Value())
			continue
		default:
			t.Fatalf("unknown iterator op %q", op)
		}
		if valid {
			fmt.Fprintf(&b, "%s: %s\n", line, it.Key())
		} else {
			fmt.Fprintf(&b, "%s: .\n", line)
		}
	}
	return b.String()
}
