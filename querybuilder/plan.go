package querybuilder

import (
	"reflect"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/redact"
)

// Plan is how a query reads the LSM.
type Plan int8

const (
	// PlanAuto picks one of the others per query (see choosePlan).
	PlanAuto Plan = iota
	// PlanPlain is a plain upstream iterator over the query's bounds.
	PlanPlain
	// PlanStepped narrows the upper bound to the next file start and widens
	// it when the caller moves past it.
	PlanStepped
	// PlanPrefix issues forward seeks as SeekPrefixGE. It applies only when
	// the bounds lie within one Split prefix; forced on other bounds, the
	// query runs plain.
	PlanPrefix
)

// Plans and verdicts name no user data, so redaction leaves them in place.
func init() {
	redact.RegisterSafeType(reflect.TypeOf(Plan(0)))
	redact.RegisterSafeType(reflect.TypeOf(Verdict(0)))
}

// String implements fmt.Stringer.
func (p Plan) String() string {
	switch p {
	case PlanAuto:
		return "auto"
	case PlanPlain:
		return "plain"
	case PlanStepped:
		return "stepped"
	case PlanPrefix:
		return "prefix"
	}
	return "unknown"
}

// defaultMinDeferrable is the auto plan's threshold on the runs a seek
// defers on average. A step costs a SetBounds per seek and, when the caller
// moves past the step, one more seek; a deferred run saves a file open or
// block seek and a heap slot, which cost more. BenchmarkThreshold measures
// forced stepping against plain on shapes with few runs, to place this
// threshold.
const defaultMinDeferrable = 1.0

// reason says why a query runs under its plan. It is kept as data and
// formatted only when asked for, because a query is planned on every
// NewIter and most callers never ask.
type reason struct {
	kind              reasonKind
	deferrable, limit float64
	widened, steps    int
}

type reasonKind int8

const (
	reasonForced reasonKind = iota
	reasonRangeKeys
	reasonForcedPrefixSpans
	reasonOnePrefix
	reasonDeferrable
	reasonNotDeferrable
	reasonSteppingStopped
	reasonNoLayout
)

func (r reason) format() redact.RedactableString {
	switch r.kind {
	case reasonForced:
		return "forced"
	case reasonRangeKeys:
		return "range keys are truncated to bounds, so they are read plain"
	case reasonForcedPrefixSpans:
		return "forced prefix, but the bounds span more than one prefix"
	case reasonOnePrefix:
		return "bounds lie within one prefix"
	case reasonDeferrable:
		return redact.Sprintf("%.1f runs deferrable per seek >= %.1f",
			redact.Safe(r.deferrable), redact.Safe(r.limit))
	case reasonNotDeferrable:
		return redact.Sprintf("%.1f runs deferrable per seek < %.1f",
			redact.Safe(r.deferrable), redact.Safe(r.limit))
	case reasonSteppingStopped:
		return redact.Sprintf("stepping stopped: %d of %d steps widened",
			redact.SafeInt(r.widened), redact.SafeInt(r.steps))
	case reasonNoLayout:
		return "the LSM's file metadata could not be read"
	}
	return "unknown"
}

// choosePlan resolves forced (the user's choice) for a query with options o
// and says why.
func choosePlan(
	forced Plan, cmp *pebble.Comparer, o *pebble.IterOptions, l *layout, minDeferrable float64,
) (Plan, reason) {
	if o.KeyTypes != pebble.IterKeyTypePointsOnly {
		return PlanPlain, reason{kind: reasonRangeKeys}
	}
	prefix := withinOnePrefix(cmp, o.LowerBound, o.UpperBound)
	switch forced {
	case PlanPlain, PlanStepped:
		return forced, reason{kind: reasonForced}
	case PlanPrefix:
		if prefix {
			return PlanPrefix, reason{kind: reasonForced}
		}
		return PlanPlain, reason{kind: reasonForcedPrefixSpans}
	}
	if prefix {
		return PlanPrefix, reason{kind: reasonOnePrefix}
	}
	r := reason{kind: reasonNotDeferrable, deferrable: l.Deferrable, limit: minDeferrable}
	if l.Deferrable >= minDeferrable {
		r.kind = reasonDeferrable
		return PlanStepped, r
	}
	return PlanPlain, r
}

// withinOnePrefix reports whether every key in [lower, upper) has lower's
// Split prefix P: either upper itself has prefix P, or upper is at most the
// smallest prefix after P (Comparer.ImmediateSuccessor). A comparer whose
// ImmediateSuccessor is missing, or returns something that is not a bare
// prefix, gets only the first test.
func withinOnePrefix(cmp *pebble.Comparer, lower, upper []byte) bool {
	if lower == nil || upper == nil {
		return false
	}
	p := lower[:cmp.Split(lower)]
	if cmp.Equal(upper[:cmp.Split(upper)], p) {
		return true
	}
	if cmp.ImmediateSuccessor == nil {
		return false
	}
	next := cmp.ImmediateSuccessor(nil, p)
	if cmp.Split(next) != len(next) || cmp.Compare(p, next) >= 0 {
		return false
	}
	return cmp.Compare(upper, next) <= 0
}
