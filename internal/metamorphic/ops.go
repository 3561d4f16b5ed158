package metamorphic

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/errors"
)

// An op is one step of a test: a name and its arguments, exactly as written
// in the text form. Keeping ops as words (rather than one struct per kind)
// keeps printing, parsing and shrinking trivial.
//
// The ops, with keys and values quoted as Go strings:
//
//	set K V | delete K | singledel K | delrange START END | merge K V
//	get K
//	batch.new [indexed] | batch.set K V | batch.delete K | batch.delrange S E
//	batch.merge K V | batch.get K | batch.commit | batch.close
//	snap.new ID | snap.get ID K | snap.close ID
//	iter.new ID LOWER UPPER SOURCE [TIMEBOUND]   (LOWER/UPPER "" = none; SOURCE db|batch|snapID)
//	iter.op ID seekge K | seeklt K | seekprefixge K | first | last | next | prev | nextprefix
//	iter.setbounds ID LOWER UPPER | iter.setoptions ID LOWER UPPER [TIMEBOUND] | iter.close ID
//
// TIMEBOUND ("MIN-MAX", MVCC keys only) makes a time-bound iterator, as an
// incremental backup in CockroachDB opens one: it sees only the versions
// with wall times in [MIN, MAX], through the caller's own PointKeyFilters
// entry (cockroachkvs.NewMVCCTimeIntervalFilter) and SkipPoint.
//
//	flush | compact START END | ingest K1 V1 [K2 V2 ...] | reopen
type op struct {
	name string
	args []string
}

func (o op) String() string {
	var b strings.Builder
	b.WriteString(o.name)
	for _, a := range o.args {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(a))
	}
	return b.String()
}

// formatOps renders ops one per line, the form Parse reads.
func formatOps(ops []op) string {
	var b strings.Builder
	for _, o := range ops {
		b.WriteString(o.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// parseOps reads the text form back. Blank lines and lines starting with #
// are ignored.
func parseOps(text string) ([]op, error) {
	var ops []op
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, _ := strings.Cut(line, " ")
		o := op{name: name}
		for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
			quoted, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, errors.Wrapf(err, "line %d: argument %q is not a quoted string", n+1, rest)
			}
			arg, err := strconv.Unquote(quoted)
			if err != nil {
				return nil, errors.Wrapf(err, "line %d", n+1)
			}
			o.args = append(o.args, arg)
			rest = rest[len(quoted):]
		}
		ops = append(ops, o)
	}
	return ops, nil
}
