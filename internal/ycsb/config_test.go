// Copyright 2026 The pebblerf Authors. All rights reserved.

package ycsb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"
)

// TestParse parses workload specs and request distributions
// (testdata/parse) and prints the configuration or the error.
func TestParse(t *testing.T) {
	datadriven.RunTest(t, "testdata/parse", func(t *testing.T, d *datadriven.TestData) string {
		var out strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			switch d.Cmd {
			case "parse":
				c, err := Parse(line)
				if err != nil {
					fmt.Fprintf(&out, "error: %v\n", err)
					continue
				}
				fmt.Fprintf(&out, "%s: mix=%s dist=%s scan=%d..%d value=%d order=%s\n",
					c.Name, c.Mix, c.Distribution, c.MinScanLength, c.MaxScanLength, c.ValueSize, c.InsertOrder)
			case "distribution":
				dist, err := ParseDistribution(line)
				if err != nil {
					fmt.Fprintf(&out, "error: %v\n", err)
					continue
				}
				fmt.Fprintf(&out, "%s\n", dist)
			default:
				return fmt.Sprintf("unknown command %q", d.Cmd)
			}
		}
		return out.String()
	})
}

// TestStandardNames checks that every standard name parses to itself.
func TestStandardNames(t *testing.T) {
	for _, name := range StandardNames() {
		c, err := Parse(strings.ToLower(name))
		require.NoError(t, err)
		require.Equal(t, name, c.Name)
	}
}

// TestValidate checks that New rejects each bad field, naming it.
func TestValidate(t *testing.T) {
	good := func() Config {
		c, err := Parse("A")
		require.NoError(t, err)
		c.RecordCount, c.OperationCount = 10, 10
		return c
	}
	_, err := New(good())
	require.NoError(t, err)
	for _, tc := range []struct {
		edit func(*Config)
		err  string
	}{
		{func(c *Config) { c.RecordCount = 0 }, `ycsb: workload "A": record count must be at least 1`},
		{func(c *Config) { c.OperationCount = 0 }, `ycsb: workload "A": operation count must be at least 1`},
		{func(c *Config) { c.RecordCount = 1 << 63 }, `ycsb: workload "A": record count 9223372036854775808 or operation count 10 is too large`},
		{func(c *Config) { c.ValueSize = -1 }, `ycsb: workload "A": value size -1 is not in [0, 16777216]`},
		{func(c *Config) { c.MinScanLength = 0 }, `ycsb: workload "A": scan lengths [0, 100] are not 1 <= min <= max`},
		{func(c *Config) { c.MaxScanLength = 0 }, `ycsb: workload "A": scan lengths [1, 0] are not 1 <= min <= max`},
		{func(c *Config) { c.Distribution = 9 }, `ycsb: workload "A": unknown request distribution 9`},
		{func(c *Config) { c.InsertOrder = 2 }, `ycsb: workload "A": unknown insert order 2`},
		{func(c *Config) { c.Mix = Mix{} }, `ycsb: workload "A": no op has a positive weight`},
		{func(c *Config) { c.Mix[Scan] = -1 }, `ycsb: workload "A": weight -1 of scan is not a finite number >= 0`},
	} {
		c := good()
		tc.edit(&c)
		_, err := New(c)
		require.EqualError(t, err, tc.err)
	}

	w, err := New(good())
	require.NoError(t, err)
	_, err = w.Source(2, 2)
	require.EqualError(t, err, "ycsb: source thread 2 of 2 is not in [0, 2)")
	_, err = w.Source(0, 0)
	require.EqualError(t, err, "ycsb: source thread 0 of 0 is not in [0, 0)")
	_, err = w.Loader(-1, 3)
	require.EqualError(t, err, "ycsb: loader part -1 of 3 is not in [0, 3)")
}
