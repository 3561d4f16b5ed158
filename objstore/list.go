package objstore

import (
	"slices"
	"strings"
)

// listNames applies remote.Storage's List contract to a set of object names:
// names that start with prefix are returned with the prefix trimmed; when
// delimiter is non-empty, a delimiter directly after the prefix is trimmed
// too, and a name that still contains the delimiter is grouped into the part
// before its first occurrence. The four examples in remote.Storage's doc
// follow from this rule (objects a, b/4, b/5, b/6):
//
//	List("", "")   -> a, b/4, b/5, b/6
//	List("", "/")  -> a, b
//	List("b", "/") -> 4, 5, 6
//	List("b", "")  -> /4, /5, /6
//
// The result is sorted and free of duplicates (the contract leaves the order
// undefined; a sorted result makes every store answer alike).
func listNames(names []string, prefix, delimiter string) []string {
	var res []string
	for _, name := range names {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		if delimiter != "" {
			rest = strings.TrimPrefix(rest, delimiter)
			if i := strings.Index(rest, delimiter); i >= 0 {
				rest = rest[:i]
			}
		}
		res = append(res, rest)
	}
	slices.Sort(res)
	return slices.Compact(res)
}
