// Copyright 2026 The pebblerf Authors. All rights reserved.

package rangefilter

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestRangeKeyMapDataDriven shows the key map on small key sets: the
// segments and their digits, the value of each key, how query bounds round,
// and the filter's answers next to the exact ones.
//
//	build [bpk=N]     keys, one Go-quoted string per line
//	map               query keys: value, relation, lower and upper bounds
//	query             "lower" "upper" per line (- for nil): filter and exact
func TestRangeKeyMapDataDriven(t *testing.T) {
	var keys [][]byte
	var filter []byte
	unquote := func(s string) []byte {
		if s == "-" {
			return nil
		}
		u, err := strconv.Unquote(s)
		if err != nil {
			t.Fatalf("bad key %s: %v", s, err)
		}
		return []byte(u)
	}
	datadriven.RunTest(t, "testdata/range_keymap", func(t *testing.T, d *datadriven.TestData) string {
		var out strings.Builder
		switch d.Cmd {
		case "build":
			bpk := 16
			if d.HasArg("bpk") {
				d.ScanArgs(t, "bpk", &bpk)
			}
			keys = keys[:0]
			for _, line := range strings.Fields(d.Input) {
				keys = append(keys, unquote(line))
			}
			keys = rangeSortedDistinct(keys)
			filter = rangeBuild(t, Config{BitsPerKey: float64(bpk), Seed: 1}, keys)
			v, ok := rangeParse(filter)
			if !ok {
				t.Fatal("filter does not parse")
			}
			fmt.Fprintf(&out, "keys=%d values=%d hashed=%v segments=%d\n", v.keys, v.n, v.flags&rangeFlagHashed != 0, v.segs.count)
			for i := range v.segs.count {
				s, _ := v.segs.segment(i)
				fmt.Fprintf(&out, "segment %d: first=%q base=%d lcp=%q digits=[%d,%d) minLen=%d whole-keys=%v",
					i, s.first, s.base, s.m.lcp, len(s.m.lcp), s.m.end, s.m.minLen, s.m.full)
				for j := 0; j < len(s.m.alpha); j += 2 {
					fmt.Fprintf(&out, " %02x-%02x", s.m.alpha[j], s.m.alpha[j+1])
				}
				out.WriteString("\n")
			}
			var c rangeSegCache
			for _, k := range keys {
				lo, _, _ := v.segs.lowerBound(k, &c)
				fmt.Fprintf(&out, "%q -> %d\n", k, lo)
			}
		case "map":
			v, _ := rangeParse(filter)
			for _, line := range strings.Fields(d.Input) {
				q := unquote(line)
				var c rangeSegCache
				lo, loEmpty, _ := v.segs.lowerBound(q, &c)
				hi, hiEmpty, _ := v.segs.upperBound(q, &c)
				fmt.Fprintf(&out, "%q: keys >= it from %s, keys < it up to %s\n", q, rangeShowBound(lo, loEmpty), rangeShowBound(hi, hiEmpty))
			}
		case "query":
			for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
				f := strings.Fields(line)
				lo, hi := unquote(f[0]), unquote(f[1])
				fmt.Fprintf(&out, "[%s, %s): filter=%v exact=%v\n", f[0], f[1], MayIntersect(filter, lo, hi), rangeOracle(keys, lo, hi))
			}
		default:
			t.Fatalf("unknown command %s", d.Cmd)
		}
		return out.String()
	})
}

func rangeShowBound(v uint64, empty bool) string {
	if empty {
		return "none"
	}
	return strconv.FormatUint(v, 10)
}
