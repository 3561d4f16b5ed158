// Copyright 2026 The pebblerf Authors. All rights reserved.

package compactionext

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
	"github.com/stretchr/testify/require"
)

// TestShapeScripts runs the scripts in testdata/shape_*: loads under a
// profile, the many-runs driver stepped by hand, and the shape printed.
//
//	open profile=<leveled|many-runs|none> [runs=N] [slice=BYTES]
//	seq from=F n=N          write keys [F, F+N) and flush
//	random n=N space=S      write N random keys below S and flush
//	drive                   one step of the profile's driver, with what it logged
//	shape                   the runs, newest first (sizes left out)
//	units                   the depth of L0's units (what one merge can take), in key order
func TestShapeScripts(t *testing.T) {
	paths, err := filepath.Glob("testdata/shape_*")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) { runShapeScript(t, path) })
	}
}

func runShapeScript(t *testing.T, path string) {
	{
		var db *pebble.DB
		var profile Profile
		var w *writer
		var logger *recordingLogger
		defer func() {
			if db != nil {
				require.NoError(t, db.Close())
			}
		}()
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "open":
				var name string
				td.ScanArgs(t, "profile", &name)
				switch name {
				case "leveled":
					profile = Leveled
				case "none":
					profile = NoCompaction
				case "many-runs":
					p := &ManyRuns{}
					td.ScanArgs(t, "runs", &p.Runs)
					if td.HasArg("slice") {
						td.ScanArgs(t, "slice", &p.SliceBytes)
					}
					profile = p
				default:
					t.Fatalf("unknown profile %q", name)
				}
				opts := testOptions()
				logger = &recordingLogger{}
				opts.Logger = logger
				require.NoError(t, profile.Apply(opts))
				var err error
				db, err = pebble.Open("db", opts)
				require.NoError(t, err)
				w = newWriter(t, 5, db)
				return ""
			case "seq":
				var from, n int
				td.ScanArgs(t, "from", &from)
				td.ScanArgs(t, "n", &n)
				w.seqFlush(from, n)
				return runsLine(t, db)
			case "random":
				var n, space int
				td.ScanArgs(t, "n", &n)
				td.ScanArgs(t, "space", &space)
				w.randomFlush(n, space)
				return runsLine(t, db)
			case "drive":
				p, ok := profile.(*ManyRuns)
				require.True(t, ok, "drive needs the many-runs profile")
				logged, failed := len(logger.lines()), len(logger.errors())
				merged := p.step(context.Background(), db)
				var b strings.Builder
				for _, line := range append(logger.lines()[logged:], logger.errors()[failed:]...) {
					if strings.Contains(line, "many-runs") {
						fmt.Fprintln(&b, redact.RedactableString(line).StripMarkers())
					}
				}
				fmt.Fprintf(&b, "merged=%t %s", merged, runsLine(t, db))
				return b.String()
			case "units":
				levels, err := db.SSTables()
				require.NoError(t, err)
				units := l0Units(levels[0], pebble.DefaultComparer.Compare)
				depths := make([]int, len(units))
				for i, u := range units {
					depths[i] = u.Depth
				}
				return fmt.Sprintf("%d units, depths in key order: %v\n", len(units), depths)
			case "shape":
				shape := requireShapeMatchesPebble(t, db)
				var b strings.Builder
				for _, r := range shape.Runs {
					smallest, largest := r.Bounds()
					fmt.Fprintf(&b, "%v: %d files [%s, %s]\n", r, len(r.Tables), smallest, largest)
				}
				return b.String()
			default:
				t.Fatalf("unknown command %q", td.Cmd)
				return ""
			}
		})
	}
}

// runsLine is the sorted-run count, checked against Pebble's read-amp.
func runsLine(t *testing.T, db *pebble.DB) string {
	return fmt.Sprintf("runs=%d", requireShapeMatchesPebble(t, db).SortedRuns())
}
