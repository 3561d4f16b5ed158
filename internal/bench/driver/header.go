// Copyright 2026 The pebblerf Authors. All rights reserved.

package driver

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/dbbench"
	"github.com/pebblerf/pebble/internal/bench/engine"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/runner"
)

// PrintHeader prints db_bench's header lines, as far as they apply, and
// pebblebench's own about the engines, the store and the runs.
func (d *Driver) PrintHeader(w io.Writer) {
	c, root, fill := d.cfg, d.root, d.fill
	fmt.Fprintf(w, "Pebble:     %s; engines: %s\n", engine.UpstreamVersion(), c.Engine)
	fmt.Fprintf(w, "Date:       %s\n", time.Now().Format(time.ANSIC))
	fmt.Fprintf(w, "CPU:        %d * %s/%s, GOMAXPROCS %d, %s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Fprintf(w, "Keys:       %d bytes each\n", c.KeySize)
	fmt.Fprintf(w, "Values:     %d bytes each (%d bytes after compression)\n", c.ValueSize, int(float64(c.ValueSize)*c.CompressionRatio+0.5))
	fmt.Fprintf(w, "Entries:    %d\n", c.Num)
	fmt.Fprintf(w, "Prefix:    %d bytes\n", c.PrefixSize)
	fmt.Fprintf(w, "Keys per prefix:    %d\n", c.KeysPerPrefix)
	raw := float64(int64(c.KeySize+c.ValueSize)*c.Num) / (1 << 20)
	file := float64((int64(c.KeySize)+int64(float64(c.ValueSize)*c.CompressionRatio+0.5))*c.Num) / (1 << 20)
	fmt.Fprintf(w, "RawSize:    %.1f MB (estimated)\n", raw)
	fmt.Fprintf(w, "FileSize:   %.1f MB (estimated)\n", file)
	fmt.Fprintf(w, "Compression: %s\n", c.CompressionType)
	fmt.Fprintf(w, "Filter:     %s\n", c.FilterDescription())
	fmt.Fprintf(w, "Plug-ins:   %s\n", c.PluginDescription())
	fmt.Fprintf(w, "Cache:      %d bytes per engine; memtable %d bytes; WAL %s\n", c.CacheSize, c.WriteBufferSize, map[bool]string{true: "disabled", false: "enabled"}[c.DisableWAL])
	printRemoteHeader(w, c)
	if c.Engine == config.EngineBoth {
		fmt.Fprintln(w, "Runs:       each engine in a process of its own; they alternate over the same keys, in swapped order every second repeat; before each run both engines' flushes and compactions finish and dirty pages are written back (untimed)")
	}
	fmt.Fprintln(w, "Reopen:     a reading benchmark after writes runs on a flushed, reopened DB (Pebble reserves memtable memory in the block cache)")
	specs, _ := dbbench.ParseBenchmarks(c.Benchmarks) // validated with the flags
	for _, spec := range specs {
		if b, _ := benchmarks.ByName(spec.Name); b.Background != nil && c.WriteBufferSize > c.CacheSize/2 {
			fmt.Fprintf(w, "Warning:    %s reads while memtables of up to %d bytes are reserved in a %d-byte block cache; raise -cache_size or lower -write_buffer_size to measure reads with a working cache\n",
				spec.Name, c.WriteBufferSize, c.CacheSize)
		}
	}
	fmt.Fprintf(w, "DB path:    [%s]\n", root)
	if d.metricsURL != "" {
		fmt.Fprintf(w, "Metrics:    %s: the pebblerf DB's statistics for Prometheus while it is open (503 between benchmarks)\n", d.metricsURL)
	}
	if fill != nil {
		fmt.Fprintf(w, "Filled by:  %s (recorded with the DB; reads draw other keys than the fill wrote)\n", fill)
	}
	fmt.Fprintln(w, "------------------------------------------------")
}

// printRemoteHeader prints the header's line about the store, and the
// legend of the remote lines.
func printRemoteHeader(w io.Writer, c *config.Config) {
	if c.Remote == "" {
		return
	}
	each := ""
	if c.Engine == config.EngineBoth {
		each = "; each engine its own store"
		if !runner.RemoteInMemory(c.Remote) {
			each += " at <location>/<engine>"
		}
	}
	sc := "off"
	if c.SecondaryCacheSize > 0 {
		sc = fmt.Sprintf("%d bytes", c.SecondaryCacheSize)
	}
	wc := ""
	if c.WriteCacheSize > 0 {
		wc = fmt.Sprintf("; write cache %d bytes on pebblerf", c.WriteCacheSize)
	}
	fmt.Fprintf(w, "Remote:     %s%s; tables on the store: %s levels; secondary cache %s%s\n", c.Remote, each, c.RemoteLevels, sc, wc)
	fmt.Fprintf(w, "Legend:     %s\n", result.RemoteLegend)
}

// jsonConfig is the first -json record: every flag's value by its name
// (the seed as drawn when -seed was 0), the engines' DB directories, the
// versions, and the fill recorded with an existing DB. With it a line of
// results can be traced to the command that made it.
type jsonConfig struct {
	Record        string             `json:"record"`
	Seed          int64              `json:"seed"`
	Engines       []string           `json:"engines"`
	DB            string             `json:"db"`
	Fill          *runner.FillRecord `json:"fill,omitempty"`
	PebbleVersion string             `json:"pebble_version"`
	GoVersion     string             `json:"go_version"`
	GOMAXPROCS    int                `json:"gomaxprocs"`
	NumCPU        int                `json:"num_cpu"`
	Flags         map[string]any     `json:"flags"`
}

func configRecord(c *config.Config, root string, fill *runner.FillRecord) jsonConfig {
	return jsonConfig{
		Record: "config", Seed: c.Seed, Engines: c.Engines(), DB: root, Fill: fill,
		PebbleVersion: engine.UpstreamVersion(), GoVersion: runtime.Version(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(), Flags: c.FlagValues,
	}
}
