// Copyright 2026 The pebblerf Authors. All rights reserved.

package ycsb

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cockroachdb/errors"
)

// Kind is what an operation does.
type Kind uint8

const (
	// Read reads the record at Op.Key.
	Read Kind = iota
	// Update overwrites the existing record at Op.Key with Op.Value.
	Update
	// Insert writes the new record Op.Key = Op.Value; no record has that
	// key before.
	Insert
	// Scan reads Op.ScanLength records in key order, starting at Op.Key.
	Scan
	// ReverseScan reads Op.ScanLength records in reverse key order, starting
	// at the last key before Op.Key, as Pebble's "rscan" does (SeekLT, then
	// Prev). No YCSB workload has it.
	ReverseScan
	// ReadModifyWrite reads the record at Op.Key, then overwrites it with
	// Op.Value.
	ReadModifyWrite

	numKinds = iota
)

// kindNames are the names of the kinds in a workload spec, as Pebble's
// `pebble bench ycsb --workload` spells them, plus "rmw".
var kindNames = [numKinds]string{
	Read:            "read",
	Update:          "update",
	Insert:          "insert",
	Scan:            "scan",
	ReverseScan:     "rscan",
	ReadModifyWrite: "rmw",
}

// String returns the kind's name in a workload spec.
func (k Kind) String() string { return enumName(kindNames[:], "Kind", k) }

// enumName returns names[v], or type(v) for a value without a name.
func enumName[T ~uint8](names []string, typ string, v T) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(v))
}

// Kinds returns every kind, in the order of Kind's values.
func Kinds() []Kind {
	ks := make([]Kind, numKinds)
	for i := range ks {
		ks[i] = Kind(i)
	}
	return ks
}

// Mix is a workload's operation mix: the weight of each kind, indexed by
// Kind. Weights are relative (read=95,update=5 and read=0.95,update=0.05 are
// the same mix); at least one must be positive.
type Mix [numKinds]float64

// Share returns kind k's fraction of all operations.
func (m Mix) Share(k Kind) float64 { return m[k] / m.total() }

func (m Mix) total() float64 {
	t := 0.0
	for _, w := range m {
		t += w
	}
	return t
}

// String returns the mix in spec syntax, kinds of weight zero left out.
func (m Mix) String() string {
	var b strings.Builder
	for k, w := range m {
		if w == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(kindNames[k])
		b.WriteByte('=')
		b.WriteString(strconv.FormatFloat(w, 'g', -1, 64))
	}
	return b.String()
}

func (m Mix) validate() error {
	for k, w := range m {
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return errors.Newf("weight %v of %s is not a finite number >= 0", w, Kind(k))
		}
	}
	if m.total() == 0 {
		return errors.New("no op has a positive weight")
	}
	return nil
}

// Distribution is a request distribution: how an operation on an existing
// record picks the record.
type Distribution uint8

const (
	// ScrambledZipfian is YCSB's "zipfian": Zipfian popularity whose
	// popular records are spread over the record space by a hash.
	ScrambledZipfian Distribution = iota
	// Uniform picks every existing record with the same probability.
	Uniform
	// Latest is YCSB's "latest": Zipfian over recency, the most recently
	// inserted record the most popular.
	Latest
	// Zipfian is Pebble's "zipf": Zipfian over the existing records by age,
	// the first loaded record the most popular, inserted records joining
	// as the least popular. With Hashed keys its popular records are
	// scattered over the key space all the same.
	Zipfian

	numDistributions = iota
)

var distributionNames = [numDistributions]string{
	ScrambledZipfian: "zipfian",
	Uniform:          "uniform",
	Latest:           "latest",
	Zipfian:          "zipf",
}

// String returns the distribution's name: YCSB's requestdistribution name,
// or Pebble's "zipf" for Zipfian.
func (d Distribution) String() string { return enumName(distributionNames[:], "Distribution", d) }

// ParseDistribution parses a request distribution by its name (see String),
// case-insensitive.
func ParseDistribution(s string) (Distribution, error) {
	if d := slices.Index(distributionNames[:], strings.ToLower(strings.TrimSpace(s))); d >= 0 {
		return Distribution(d), nil
	}
	return 0, errors.Newf("ycsb: unknown request distribution %q (want %s)",
		s, strings.Join(distributionNames[:], ", "))
}

// InsertOrder is how record numbers become keys; see Workload.AppendKey.
type InsertOrder uint8

const (
	// Hashed keys are "user" and a hash of the record number: records are
	// inserted in an order unrelated to their keys. YCSB's default.
	Hashed InsertOrder = iota
	// Ordered keys are "user" and the record number zero-padded to 20
	// digits, so that key order is record order.
	Ordered

	numInsertOrders = iota
)

var insertOrderNames = [numInsertOrders]string{Hashed: "hashed", Ordered: "ordered"}

// String returns YCSB's insertorder name of o.
func (o InsertOrder) String() string { return enumName(insertOrderNames[:], "InsertOrder", o) }

// DefaultValueSize is the default size of a record's value: 1 KiB, close to
// YCSB's default record of 10 fields of 100 bytes each.
const DefaultValueSize = 1024

// Default scan lengths: YCSB's workload E draws a scan length uniformly from
// 1 to its maxscanlength, 100.
const (
	DefaultMinScanLength = 1
	DefaultMaxScanLength = 100
)

// maxValueSize bounds ValueSize so that the value pool (see Workload) stays
// a small allocation.
const maxValueSize = 1 << 24

// Config describes a workload. Parse returns one with YCSB's parameters for
// a named workload; RecordCount and OperationCount are the caller's to set.
type Config struct {
	// Name is the workload's name: "A".."F", or the spec a custom mix was
	// parsed from.
	Name string
	// Mix is the operation mix.
	Mix Mix
	// Distribution picks the record of every operation but Insert.
	Distribution Distribution
	// MinScanLength and MaxScanLength bound a scan's length, drawn
	// uniformly from [MinScanLength, MaxScanLength].
	MinScanLength, MaxScanLength int
	// RecordCount is how many records the loader writes (YCSB's
	// recordcount); records 0..RecordCount−1.
	RecordCount uint64
	// OperationCount is how many operations all sources together yield
	// (YCSB's operationcount).
	OperationCount uint64
	// ValueSize is the size of every value written.
	ValueSize int
	// InsertOrder is how record numbers become keys.
	InsertOrder InsertOrder
	// Seed makes the operations and the values; the keys of a record
	// number do not depend on it.
	Seed uint64
}

// standard holds YCSB's core workloads (Cooper et al., SoCC 2010, and the
// workloads/workload[a-f] files of YCSB's repository).
var standard = map[string]struct {
	mix  Mix
	dist Distribution
}{
	// Update heavy, e.g. a session store recording recent actions.
	"A": {Mix{Read: 50, Update: 50}, ScrambledZipfian},
	// Read mostly, e.g. photo tagging: adding a tag is an update, most
	// operations read tags.
	"B": {Mix{Read: 95, Update: 5}, ScrambledZipfian},
	// Read only, e.g. a user profile cache built elsewhere.
	"C": {Mix{Read: 100}, ScrambledZipfian},
	// Read latest, e.g. user status updates: people read the newest.
	"D": {Mix{Read: 95, Insert: 5}, Latest},
	// Short ranges, e.g. threaded conversations: each scan reads the posts
	// of one thread.
	"E": {Mix{Scan: 95, Insert: 5}, ScrambledZipfian},
	// Read-modify-write, e.g. a user database whose records users read and
	// change.
	"F": {Mix{Read: 50, ReadModifyWrite: 50}, ScrambledZipfian},
}

// StandardNames returns the names of YCSB's core workloads, "A".."F".
func StandardNames() []string { return []string{"A", "B", "C", "D", "E", "F"} }

// Parse returns the workload named by spec: one of YCSB's core workloads by
// letter, "A".."F" (case-insensitive), or a custom mix in the syntax of
// Pebble's `pebble bench ycsb --workload`: comma-separated op=weight pairs
// such as "read=50,update=50", the ops read, update, insert, scan, rscan and
// rmw (also readmodifywrite), each at most once, the weights numbers >= 0
// not all zero. A custom mix gets the ScrambledZipfian request distribution,
// as A, B, C, E and F have. The value size, scan lengths and insert order
// take their defaults (DefaultValueSize, DefaultMinScanLength,
// DefaultMaxScanLength, Hashed); RecordCount, OperationCount and Seed are
// left zero for the caller. Where Pebble's parser takes integer weights and
// ignores an op it does not know, this one takes decimals too (YCSB's
// proportions, read=0.95) and rejects an unknown op, a duplicate or a bad
// weight with an error that names it.
func Parse(spec string) (Config, error) {
	c := Config{
		MinScanLength: DefaultMinScanLength,
		MaxScanLength: DefaultMaxScanLength,
		ValueSize:     DefaultValueSize,
		InsertOrder:   Hashed,
	}
	trimmed := strings.TrimSpace(spec)
	if s, ok := standard[strings.ToUpper(trimmed)]; ok {
		c.Name = strings.ToUpper(trimmed)
		c.Mix, c.Distribution = s.mix, s.dist
		return c, nil
	}
	if !strings.Contains(trimmed, "=") {
		return Config{}, errors.Newf("ycsb: unknown workload %q (want A-F or op=weight,... with ops %s)",
			spec, strings.Join(kindNames[:], ", "))
	}
	c.Name = trimmed
	c.Distribution = ScrambledZipfian
	var seen [numKinds]bool
	for _, pair := range strings.Split(trimmed, ",") {
		name, weight, ok := strings.Cut(pair, "=")
		if !ok {
			return Config{}, errors.Newf("ycsb: workload %q: %q is not op=weight", spec, pair)
		}
		k, ok := parseKind(name)
		if !ok {
			return Config{}, errors.Newf("ycsb: workload %q: unknown op %q (want %s)",
				spec, strings.TrimSpace(name), strings.Join(kindNames[:], ", "))
		}
		if seen[k] {
			return Config{}, errors.Newf("ycsb: workload %q: op %s given twice", spec, k)
		}
		seen[k] = true
		w, err := strconv.ParseFloat(strings.TrimSpace(weight), 64)
		if err != nil || math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return Config{}, errors.Newf("ycsb: workload %q: weight %q of %s is not a number >= 0",
				spec, strings.TrimSpace(weight), k)
		}
		c.Mix[k] = w
	}
	if c.Mix.total() == 0 {
		return Config{}, errors.Newf("ycsb: workload %q has no positive weight", spec)
	}
	return c, nil
}

func parseKind(s string) (Kind, bool) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "readmodifywrite" {
		return ReadModifyWrite, true
	}
	k := slices.Index(kindNames[:], name)
	return Kind(k), k >= 0
}

// Validate reports the first field of c that New would reject.
func (c *Config) Validate() error {
	if err := c.Mix.validate(); err != nil {
		return errors.Wrapf(err, "ycsb: workload %q", c.Name)
	}
	switch {
	case c.Distribution >= numDistributions:
		return errors.Newf("ycsb: workload %q: unknown request distribution %d", c.Name, c.Distribution)
	case c.InsertOrder >= numInsertOrders:
		return errors.Newf("ycsb: workload %q: unknown insert order %d", c.Name, c.InsertOrder)
	case c.RecordCount == 0:
		return errors.Newf("ycsb: workload %q: record count must be at least 1", c.Name)
	case c.RecordCount > 1<<62 || c.OperationCount > 1<<61:
		// Records and inserts are numbered in a uint64, with room for
		// YCSB's key space of RecordCount + 2 × the expected inserts.
		return errors.Newf("ycsb: workload %q: record count %d or operation count %d is too large",
			c.Name, c.RecordCount, c.OperationCount)
	case c.OperationCount == 0:
		return errors.Newf("ycsb: workload %q: operation count must be at least 1", c.Name)
	case c.ValueSize < 0 || c.ValueSize > maxValueSize:
		return errors.Newf("ycsb: workload %q: value size %d is not in [0, %d]", c.Name, c.ValueSize, maxValueSize)
	case c.MinScanLength < 1 || c.MaxScanLength < c.MinScanLength:
		return errors.Newf("ycsb: workload %q: scan lengths [%d, %d] are not 1 <= min <= max",
			c.Name, c.MinScanLength, c.MaxScanLength)
	}
	return nil
}
