package querybuilder

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
	"github.com/stretchr/testify/require"
)

// TestExplain pins Explain's output on small LSMs built step by step:
//
//	build: one line per step; "flush k1 k2 ..." writes the keys and flushes
//	       (a new L0 sublevel), "mem k1 ..." leaves them in the memtable,
//	       "ingest k1 ..." ingests a table (lowest level it fits), "compact
//	       a b" compacts [a, b].
//	lsm: the sorted runs the planner sees.
//	explain [lower=k] [upper=k] [seek=k] [next=n] [plan=p]: runs the query
//	       and prints the explanation.
//	redacted ...: the same, with user keys redacted.
func TestExplain(t *testing.T) {
	datadriven.Walk(t, "testdata/explain", func(t *testing.T, path string) {
		var d *testDB
		var b *Builder
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "build":
				d = openTestDB(t, pebble.DefaultComparer, nil)
				for _, line := range strings.Split(td.Input, "\n") {
					buildStep(t, d, strings.Fields(line))
				}
				return ""
			case "lsm":
				l, err := New(d.db, Options{}).layout()
				require.NoError(t, err)
				return formatLayout(l)
			case "explain", "redacted":
				var o pebble.IterOptions
				var seek []byte
				next := 0
				opts := Options{}
				for _, arg := range td.CmdArgs {
					v, err := strconv.Unquote(`"` + arg.SingleVal(t) + `"`)
					require.NoError(t, err)
					switch arg.Key {
					case "lower":
						o.LowerBound = []byte(v)
					case "upper":
						o.UpperBound = []byte(v)
					case "seek":
						seek = []byte(v)
					case "next":
						_, err := fmt.Sscan(v, &next)
						require.NoError(t, err)
					case "plan":
						opts.Plan = parsePlan(t, v)
					}
				}
				b = New(d.db, opts)
				e, err := b.Explain(&o, seek, next)
				if err != nil {
					return err.Error()
				}
				if td.Cmd == "redacted" {
					return string(redact.Sprint(e).Redact())
				}
				return e.String()
			}
			return "unknown command " + td.Cmd
		})
	})
}

func buildStep(t *testing.T, d *testDB, f []string) {
	if len(f) == 0 {
		return
	}
	switch f[0] {
	case "flush", "mem":
		b := d.db.NewBatch()
		for _, k := range f[1:] {
			require.NoError(t, b.Set([]byte(k), []byte("v-"+k), nil))
		}
		require.NoError(t, b.Commit(pebble.NoSync))
		if f[0] == "flush" {
			require.NoError(t, d.db.Flush())
		}
	case "ingest":
		var kvs [][2][]byte
		for _, k := range f[1:] {
			kvs = append(kvs, [2][]byte{[]byte(k), []byte("i-" + k)})
		}
		d.ingest(kvs, nil)
	case "compact":
		require.NoError(t, d.db.Compact(context.Background(), []byte(f[1]), []byte(f[2]), false))
	default:
		t.Fatalf("unknown build step %q", f[0])
	}
}

func parsePlan(t *testing.T, s string) Plan {
	for p := PlanAuto; p <= PlanPrefix; p++ {
		if p.String() == s {
			return p
		}
	}
	t.Fatalf("unknown plan %q", s)
	return PlanAuto
}

func formatLayout(l *layout) string {
	var sb strings.Builder
	for _, r := range l.Runs {
		sb.WriteString(runName(&r) + ":")
		for _, f := range r.Tables {
			fmt.Fprintf(&sb, " [%s-%s]", f.Smallest, f.Largest)
		}
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "deferrable per seek: %.2f\n", l.Deferrable)
	return sb.String()
}

// noteAnnotator stands in for the seek statistics: it sees the query's
// options before the query is created and refines the explanation after.
type noteAnnotator struct{ sawOptions bool }

func (a *noteAnnotator) Start(o *pebble.IterOptions) func(*Explanation) {
	a.sawOptions = o != nil
	return func(e *Explanation) {
		for i := range e.Runs {
			if e.Runs[i].Verdict == Read && e.Runs[i].Level == 0 {
				e.Runs[i].Verdict = SkippedByRangeFilter
				e.Runs[i].DataBlocks = 0
			}
		}
		e.Notes = append(e.Notes, redact.Sprintf("annotated %d runs", redact.SafeInt(len(e.Runs))))
	}
}

func TestExplainAnnotator(t *testing.T) {
	d := openTestDB(t, pebble.DefaultComparer, nil)
	buildStep(t, d, strings.Fields("flush a b c"))
	a := &noteAnnotator{}
	e, err := New(d.db, Options{Annotators: []Annotator{a}}).Explain(nil, []byte("b"), 0)
	require.NoError(t, err)
	require.True(t, a.sawOptions)
	require.Equal(t, SkippedByRangeFilter, e.Runs[1].Verdict)
	require.Contains(t, e.String(), "L0.0        1 files,   1 in reach: skipped by range filter, 0 data blocks")
	require.Contains(t, e.String(), "note: annotated 2 runs")
}
