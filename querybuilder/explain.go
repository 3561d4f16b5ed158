package querybuilder

import (
	"bytes"
	"fmt"
	"github.com/pebblerf/pebble/internal/sortedruns"
	"slices"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
)

// Verdict says what a query did with one sorted run.
type Verdict int8

const (
	// Read: the query could open the run's files within its reach (the
	// seek key to the step, or to the upper bound).
	Read Verdict = iota
	// SkippedByBounds: no file of the run lies between the seek key and the
	// upper bound, so Pebble never opens one.
	SkippedByBounds
	// Deferred: the run has files within the query's bounds, but all of
	// them start at or after the last step bound the query read under.
	Deferred
	// SkippedByPrefixFilter: every file within reach was opened and its
	// prefix filter said no. Only an annotator can tell.
	SkippedByPrefixFilter
	// SkippedByRangeFilter: every file within reach was skipped by a range
	// filter. Only an annotator can tell.
	SkippedByRangeFilter
)

// String implements fmt.Stringer.
func (v Verdict) String() string {
	switch v {
	case Read:
		return "read"
	case SkippedByBounds:
		return "skipped by bounds"
	case Deferred:
		return "deferred by stepping"
	case SkippedByPrefixFilter:
		return "skipped by prefix filter"
	case SkippedByRangeFilter:
		return "skipped by range filter"
	}
	return "unknown"
}

// RunExplanation is one sorted run's line in an Explanation.
type RunExplanation struct {
	// Name is "memtables", "L0.<sublevel>" or "L<level>".
	Name string
	// Level and Sublevel identify the run (Level -1 for the memtables,
	// Sublevel -1 for L1-L6).
	Level, Sublevel int
	// Files is how many of the run's files overlap the query's bounds;
	// InReach how many overlap the part the query could read.
	Files, InReach int
	Verdict        Verdict
	// Filtered is set when a filter (prefix or range) was consulted for the
	// run's files; whether it skipped them only an annotator can say.
	Filtered redact.SafeString
	// DataBlocks is the number of data blocks the run loaded, or -1 if no
	// annotator counted them (Pebble's statistics are summed over all runs).
	DataBlocks int64
}

// LevelFilters names the filters one level's new tables get under the DB's
// current plans. Tables written under earlier plans keep the filters they
// were written with until a compaction rewrites them.
type LevelFilters struct {
	Level int
	// Point is the point filter, e.g. "ribbon(14.25)" or "none"; empty when
	// the DB has no plan for them (the options' own policies).
	Point redact.SafeString
	// Range is the range filter's bits per key, e.g. "16 bits/key", or
	// "none"; empty when range filters are off.
	Range redact.SafeString
}

// Explanation describes one query: its plan, its step, and what happened in
// every sorted run.
type Explanation struct {
	Lower, Upper, Seek []byte
	Nexts              int
	Plan               Plan
	Reason             redact.RedactableString
	// Step is the first step bound (nil when not stepped); Widenings how
	// often the query had to go past a step; Reach the step bound it ended
	// under (nil once it had the upper bound back).
	Step, Reach []byte
	Widenings   int
	// Keys is how many keys the query returned.
	Keys int
	Runs []RunExplanation
	// BlockBytes and BlockBytesInCache are the query's data-block bytes
	// (Iterator.Stats); PlainBlockBytes the same query's on a plain
	// upstream iterator.
	BlockBytes, BlockBytesInCache, PlainBlockBytes uint64
	// Filters are each level's filters for new tables now
	// (Options.LevelFilters), nil if not known.
	Filters []LevelFilters
	// Notes are added by annotators.
	Notes []redact.RedactableString

	format func([]byte) fmt.Formatter
}

// annotator adds what only it can observe to an Explanation: the seek
// statistics know which runs' files a prefix or range filter excluded and
// how many data blocks each run loaded. Start is called before the explained
// query is created; it may add instrumentation filters to o. The function it
// returns is called once the query has run, and may change the Verdict,
// Filtered and DataBlocks of any run and append Notes.
type annotator interface {
	Start(o *pebble.IterOptions) (annotate func(e *Explanation))
}

// Explain runs a query over o's bounds — SeekGE(seek) (First if seek is
// nil) and then up to nexts Next calls — once planned and once on a plain
// upstream iterator, checks that both returned the same keys, and explains
// the planned one.
func (b *Builder) Explain(o *pebble.IterOptions, seek []byte, nexts int) (*Explanation, error) {
	var opts pebble.IterOptions
	if o != nil {
		opts = *o
	}
	var annotate []func(*Explanation)
	for _, a := range b.opts.annotators {
		annotate = append(annotate, a.Start(&opts))
	}
	q, err := b.newIter(b.db, &opts, true /* unobserved */)
	if err != nil {
		return nil, err
	}
	planned := runProbe(q, seek, nexts)
	e := &Explanation{
		Lower: opts.LowerBound, Upper: opts.UpperBound, Seek: seek, Nexts: nexts,
		Widenings: q.stats.Widenings, Keys: len(planned.keys),
		BlockBytes:        planned.stats.InternalStats.BlockBytes,
		BlockBytesInCache: planned.stats.InternalStats.BlockBytesInCache,
		format:            b.opts.Comparer.FormatKey,
	}
	if e.format == nil {
		e.format = pebble.DefaultComparer.FormatKey
	}
	e.Plan, e.Reason = q.Plan()
	e.Step, e.Reach = planned.step, planned.reach
	layout := q.layout
	if err := errors.CombineErrors(planned.err, q.Close()); err != nil {
		return nil, err
	}
	plainIt, err := b.db.NewIter(o)
	if err != nil {
		return nil, err
	}
	plain := runProbe(plainIt, seek, nexts)
	if err := errors.CombineErrors(plain.err, plainIt.Close()); err != nil {
		return nil, err
	}
	e.PlainBlockBytes = plain.stats.InternalStats.BlockBytes
	if !slices.EqualFunc(planned.keys, plain.keys, bytes.Equal) {
		return nil, errors.AssertionFailedf("querybuilder: planned query returned %d keys, plain iterator %d",
			len(planned.keys), len(plain.keys))
	}
	b.explainRuns(e, layout, &opts)
	if b.opts.LevelFilters != nil {
		e.Filters = b.opts.LevelFilters()
	}
	for _, fn := range annotate {
		fn(e)
	}
	return e, nil
}

// probeIter is what runProbe needs of a query or a plain iterator.
type probeIter interface {
	First() bool
	SeekGE([]byte) bool
	Next() bool
	Key() []byte
	Error() error
	Stats() pebble.IteratorStats
}

type probeResult struct {
	keys  [][]byte
	step  []byte
	reach []byte
	stats pebble.IteratorStats
	err   error
}

func runProbe(it probeIter, seek []byte, nexts int) probeResult {
	var r probeResult
	var valid bool
	if seek == nil {
		valid = it.First()
	} else {
		valid = it.SeekGE(seek)
	}
	if q, ok := it.(*Iterator); ok && q.plan == PlanStepped {
		r.step = q.stepBound(seek)
	}
	for n := 0; valid; n++ {
		r.keys = append(r.keys, bytes.Clone(it.Key()))
		if n == nexts {
			break
		}
		valid = it.Next()
	}
	if q, ok := it.(*Iterator); ok && r.step != nil {
		r.reach = q.step
	}
	r.stats, r.err = it.Stats(), it.Error()
	return r
}

// explainRuns classifies every run from the file metadata: the query's
// reach starts at the seek key (or the lower bound) and ends at the last
// step it read under, or at the upper bound once it had that back or if it
// never stepped.
func (b *Builder) explainRuns(e *Explanation, l *layout, o *pebble.IterOptions) {
	from := e.Seek
	if from == nil || (o.LowerBound != nil && b.opts.Comparer.Compare(from, o.LowerBound) < 0) {
		from = o.LowerBound
	}
	reach := o.UpperBound
	if e.Step != nil && e.Reach != nil {
		reach = e.Reach
	}
	var filtered redact.SafeString
	switch {
	case e.Plan == PlanPrefix && b.opts.RangeFilters != nil:
		filtered = "prefix and range filters"
	case e.Plan == PlanPrefix:
		filtered = "prefix filter"
	case b.opts.RangeFilters != nil:
		filtered = "range filter"
	}
	m := b.db.Metrics()
	e.Runs = append(e.Runs, RunExplanation{
		Name: "memtables", Level: -1, Sublevel: -1, Files: int(m.MemTable.Count),
		InReach: int(m.MemTable.Count), Verdict: Read, DataBlocks: -1,
	})
	for ri := range l.Runs {
		r := &l.Runs[ri]
		x := RunExplanation{
			Name: runName(r), Level: r.Level, Sublevel: r.Sublevel, DataBlocks: -1,
			Files:   l.filesIn(r, o.LowerBound, o.UpperBound),
			InReach: l.filesIn(r, from, reach),
		}
		switch {
		case x.InReach > 0:
			x.Verdict = Read
			x.Filtered = filtered
		case l.filesIn(r, from, o.UpperBound) > 0:
			x.Verdict = Deferred
		default:
			x.Verdict = SkippedByBounds
		}
		e.Runs = append(e.Runs, x)
	}
}

func runName(r *sortedruns.Run) string { return r.String() }

// SafeFormat implements redact.SafeFormatter; keys are user data and are
// redactable.
func (e *Explanation) SafeFormat(w redact.SafePrinter, _ rune) {
	key := func(k []byte) any {
		// Keys are user data: printed unsafe, so that Redact hides them.
		if k == nil {
			return redact.SafeString("-")
		}
		return e.format(k)
	}
	w.Printf("query [%v, %v)", key(e.Lower), key(e.Upper))
	if e.Seek != nil {
		w.Printf(" seek %v", key(e.Seek))
	} else {
		w.SafeString(" first")
	}
	w.Printf(" next %d: plan %v (%v)\n", redact.SafeInt(e.Nexts), e.Plan, e.Reason)
	if e.Step != nil {
		w.Printf("step [%v, %v), widened %d times", key(e.Lower), key(e.Step), redact.SafeInt(e.Widenings))
		switch {
		case e.Widenings == 0:
		case e.Reach != nil:
			w.Printf(" to %v", key(e.Reach))
		default:
			w.SafeString(" to the upper bound")
		}
		w.SafeString("\n")
	}
	w.Printf("keys returned: %d\n", redact.SafeInt(e.Keys))
	for _, r := range e.Runs {
		if r.Level < 0 {
			w.Printf("  %-9s %3d memtables:         %v (in memory, never filtered)\n",
				redact.SafeString(r.Name), redact.SafeInt(r.Files), r.Verdict)
			continue
		}
		w.Printf("  %-9s %3d files, %3d in reach: %v", redact.SafeString(r.Name),
			redact.SafeInt(r.Files), redact.SafeInt(r.InReach), r.Verdict)
		if r.Filtered != "" {
			w.Printf(" (%v applies)", r.Filtered)
		}
		if r.DataBlocks >= 0 {
			w.Printf(", %d data blocks", redact.SafeInt(r.DataBlocks))
		}
		w.SafeRune('\n')
	}
	w.Printf("block bytes: %d (%d cached); plain iterator: %d\n",
		redact.SafeUint(e.BlockBytes), redact.SafeUint(e.BlockBytesInCache), redact.SafeUint(e.PlainBlockBytes))
	if len(e.Filters) > 0 {
		w.SafeString("filters of new tables (older tables keep theirs):\n")
		for _, f := range e.Filters {
			w.Printf("  L%d", redact.SafeInt(f.Level))
			if f.Point != "" {
				w.Printf(" point %v", f.Point)
			}
			if f.Range != "" {
				w.Printf(" range %v", f.Range)
			}
			w.SafeRune('\n')
		}
	}
	for _, n := range e.Notes {
		w.Printf("note: %v\n", n)
	}
}

// String returns the explanation without redaction markers.
func (e *Explanation) String() string {
	return redact.StringWithoutMarkers(e)
}
