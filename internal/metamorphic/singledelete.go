package metamorphic

import (
	"slices"
	"strings"
)

// singleDeletes tracks what Pebble's rule for SingleDelete needs: a key may
// be single-deleted only if it was set at most once, and never merged, since
// it was last deleted. Breaking the rule makes the result depend on when
// compactions ran, so two correct engines could differ.
//
// Writes count in the order they take effect, which for a batch is when it
// commits, not when its ops were generated: a set made in a batch before a
// delete of the same key, but committed after it, is the newest write. (The
// harness's own first version counted at generation time; a 30-minute soak
// caught the resulting misuse as a flaky difference.)
type singleDeletes struct {
	writes  map[string]int
	merged  map[string]bool
	pending []op // the open batch's writes
}

func newSingleDeletes() *singleDeletes {
	return &singleDeletes{writes: map[string]int{}, merged: map[string]bool{}}
}

// apply records the effect of o.
func (s *singleDeletes) apply(o op) {
	if name, ok := strings.CutPrefix(o.name, "batch."); ok {
		switch name {
		case "set", "delete", "merge":
			s.pending = append(s.pending, op{name: name, args: o.args})
		case "commit":
			for _, p := range s.pending {
				s.apply(p)
			}
			s.pending = nil
		case "new", "close":
			s.pending = nil
		}
		return
	}
	switch o.name {
	case "set":
		s.writes[o.args[0]]++
	case "delete", "singledel":
		s.writes[o.args[0]] = 0
	case "merge":
		s.merged[o.args[0]] = true
	case "ingest":
		for i := 0; i < len(o.args); i += 2 {
			s.writes[o.args[i]]++
		}
	}
}

// allowed reports whether key may be single-deleted now.
func (s *singleDeletes) allowed(key string) bool {
	return s.writes[key] == 1 && !s.merged[key]
}

// candidates returns the keys that may be single-deleted, sorted so that a
// random choice among them depends on the seed alone.
func (s *singleDeletes) candidates() []string {
	var keys []string
	for k := range s.writes {
		if s.allowed(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
