// Copyright 2026 The pebblerf Authors. All rights reserved.

package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/errors/oserror"
	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/pebblerf/pebble/internal/bench/config"
)

// EngineDir is the DB directory of engine name under root.
func EngineDir(c *config.Config, root, name string) string {
	if c.Engine == config.EngineBoth {
		return filepath.Join(root, name)
	}
	return root
}

// HasDB reports whether dir holds a Pebble DB.
func HasDB(dir string) bool {
	desc, err := upstream.Peek(dir, vfs.Default)
	return err == nil && desc.Exists
}

// fillRecordFile is the file in a DB directory that records its last fill.
// Pebble ignores files it does not know.
const fillRecordFile = "PEBBLEBENCH-FILL.json"

// FillRecord is what a fill benchmark leaves next to the DB: the flags that
// decide which keys it wrote, so a later -use_existing_db run can say what
// it reads and refuse flags that would read other keys.
type FillRecord struct {
	Benchmark     string `json:"benchmark"`
	Engine        string `json:"engine"`
	Seed          int64  `json:"seed"`
	Num           int64  `json:"num"`
	Writes        int64  `json:"writes"`
	KeySize       int    `json:"key_size"`
	KeyStride     int64  `json:"key_stride"`
	PrefixSize    int    `json:"prefix_size"`
	KeysPerPrefix int    `json:"keys_per_prefix"`
	// Remote and RemoteLevels are -remote and -remote_levels: where the
	// DB's tables are, which every later open must name.
	Remote       string `json:"remote,omitempty"`
	RemoteLevels string `json:"remote_levels,omitempty"`
}

func newFillRecord(c *config.Config, bench, engineName string) FillRecord {
	r := FillRecord{Benchmark: bench, Engine: engineName, Seed: c.Seed, Num: c.Num, Writes: c.Writes,
		KeySize: c.KeySize, KeyStride: c.KeyStride, PrefixSize: c.PrefixSize, KeysPerPrefix: c.KeysPerPrefix}
	if c.Remote != "" {
		r.Remote, r.RemoteLevels = c.Remote, c.RemoteLevels
	}
	return r
}

func writeFillRecord(dir string, r FillRecord) error {
	b, err := json.Marshal(r)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, fillRecordFile), append(b, '\n'), 0o644)
	}
	return errors.Wrapf(err, "recording the fill of %s", dir)
}

// ReadFillRecord returns the fill recorded in dir, or nil if none is (a DB
// filled by an older pebblebench or another program).
func ReadFillRecord(dir string) (*FillRecord, error) {
	b, err := os.ReadFile(filepath.Join(dir, fillRecordFile))
	if oserror.IsNotExist(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var r FillRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, errors.Wrapf(err, "reading %s", filepath.Join(dir, fillRecordFile))
	}
	return &r, nil
}

// CheckFill compares the fill recorded with each engine's DB against the
// flags that decide which keys a read looks for. A DB filled with other
// keys would be read as if it were empty, so a difference is a usage error;
// a smaller -num reads a part of the keys and is allowed. It returns the
// recorded fill, nil when none is recorded.
func CheckFill(c *config.Config, dirs []string) (*FillRecord, error) {
	var first *FillRecord
	for _, dir := range dirs {
		r, err := ReadFillRecord(dir)
		if err != nil || r == nil {
			return nil, err
		}
		if first == nil {
			first = r
		} else if r.Seed != first.Seed || r.Num != first.Num || r.Writes != first.Writes || r.KeyStride != first.KeyStride || r.Benchmark != first.Benchmark {
			return nil, config.BadFlag("use_existing_db", "%s and %s were filled differently (%s and %s), so the engines would not read the same data",
				dirs[0], dir, first, r)
		}
	}
	if first == nil {
		return nil, nil
	}
	for _, m := range []struct {
		name       string
		now, fill  int64
		largerOnly bool
	}{
		{"key_size", int64(c.KeySize), int64(first.KeySize), false},
		{"key_stride", c.KeyStride, first.KeyStride, false},
		{"keys_per_prefix", int64(c.KeysPerPrefix), int64(first.KeysPerPrefix), false},
		{"num", c.Num, first.Num, true},
	} {
		if m.now != m.fill && (!m.largerOnly || m.now > m.fill) {
			return nil, config.BadFlag(m.name, "%d, but the DB in %s was filled with -%s=%d (%s): pass -%s=%d", m.now, dirs[0], m.name, m.fill, first, m.name, m.fill)
		}
	}
	return first, nil
}

// String is the fill as a command line fragment.
func (r *FillRecord) String() string {
	s := fmt.Sprintf("%s -seed=%d -num=%d", r.Benchmark, r.Seed, r.Num)
	if r.Writes != r.Num {
		s += fmt.Sprintf(" -writes=%d", r.Writes)
	}
	if r.KeyStride != 1 {
		s += fmt.Sprintf(" -key_stride=%d", r.KeyStride)
	}
	return s
}
