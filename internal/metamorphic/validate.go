package metamorphic

// valid reports whether ops respect the rules the generator follows (see
// generator). Shrinking removes ops at random, which can orphan a batch,
// snapshot or iterator reference or turn a SingleDelete into misuse; such a
// candidate is discarded rather than blamed on pebblerf.
func valid(ops []op) bool {
	singleDeletes := newSingleDeletes()
	batch := ""
	snaps := map[string]bool{}
	iters := map[string]string{}
	positioned := map[string]bool{}
	for _, o := range ops {
		a := o.args
		switch o.name {
		case "batch.set", "batch.delete", "batch.merge", "batch.delrange":
			if batch == "" {
				return false
			}
		case "singledel":
			if !singleDeletes.allowed(a[0]) || batch != "" {
				return false
			}
		case "batch.new":
			if batch != "" {
				return false
			}
			batch = "plain"
			if len(a) > 0 {
				batch = "indexed"
			}
		case "batch.get":
			if batch != "indexed" {
				return false
			}
		case "batch.commit", "batch.close":
			if batch == "" {
				return false
			}
			for _, src := range iters {
				if src == "batch" {
					return false
				}
			}
			batch = ""
		case "snap.new":
			snaps[a[0]] = true
		case "snap.get":
			if !snaps[a[0]] {
				return false
			}
		case "snap.close":
			if !snaps[a[0]] {
				return false
			}
			for _, src := range iters {
				if src == a[0] {
					return false
				}
			}
			delete(snaps, a[0])
		case "iter.new":
			switch src := a[3]; {
			case src == "batch" && batch != "indexed":
				return false
			case src != "batch" && src != "db" && !snaps[src]:
				return false
			}
			iters[a[0]] = a[3]
			positioned[a[0]] = false
		case "iter.op", "iter.setbounds", "iter.setoptions":
			if _, ok := iters[a[0]]; !ok {
				return false
			}
			switch {
			case o.name != "iter.op":
				positioned[a[0]] = false
			case relativeMoves[a[1]] && !positioned[a[0]]:
				return false
			default:
				positioned[a[0]] = true
			}
		case "iter.close":
			if _, ok := iters[a[0]]; !ok {
				return false
			}
			delete(iters, a[0])
		case "reopen":
			if batch != "" || len(snaps) > 0 || len(iters) > 0 {
				return false
			}
		}
		singleDeletes.apply(o)
	}
	return true
}
