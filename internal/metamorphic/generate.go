package metamorphic

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// generator produces a random but valid sequence of ops. Valid means the
// sequence never depends on behaviour Pebble leaves undefined, because then
// two correct engines could differ: SingleDelete keeps Pebble's rule (see
// singleDeletes), batch iterators are
// closed before their batch, and reopen happens only with nothing open.
type generator struct {
	rng   *rand.Rand
	keys  keySpace
	cmp   pebble.Compare
	ops   []op
	batch string // "", "plain" or "indexed"
	snaps []string
	iters map[string]string // iterator id -> source
	// positioned marks iterators that may take relative moves: Pebble
	// leaves a new iterator, and one after SetBounds or SetOptions,
	// unpositioned, and defines no result for Next or Prev there.
	positioned map[string]bool
	nextID     int
	// singleDeletes keeps SingleDelete's rule.
	singleDeletes *singleDeletes
}

func newGenerator(seed uint64, keys keySpace, cmp pebble.Compare) *generator {
	return &generator{
		rng:           rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		keys:          keys,
		cmp:           cmp,
		iters:         map[string]string{},
		positioned:    map[string]bool{},
		singleDeletes: newSingleDeletes(),
	}
}

func (g *generator) emit(name string, args ...string) {
	o := op{name: name, args: args}
	g.ops = append(g.ops, o)
	g.singleDeletes.apply(o)
}

func (g *generator) key() string { return string(g.keys.key(g.rng)) }

func (g *generator) value() string { return fmt.Sprintf("v%d", g.rng.IntN(1000)) }

// span returns two distinct keys in comparer order.
func (g *generator) span() (string, string) {
	a, b := g.key(), g.key()
	for g.cmp([]byte(a), []byte(b)) == 0 {
		b = g.key()
	}
	if g.cmp([]byte(a), []byte(b)) > 0 {
		a, b = b, a
	}
	return a, b
}

// optionalSpan returns bounds for an iterator, either of which may be absent.
func (g *generator) optionalSpan() (string, string) {
	lower, upper := g.span()
	switch g.rng.IntN(4) {
	case 0:
		return "", ""
	case 1:
		return lower, ""
	case 2:
		return "", upper
	}
	return lower, upper
}

func (g *generator) set(prefix string) {
	g.emit(prefix+"set", g.key(), g.value())
}

// The write ops below go to the DB (prefix "") or the open batch
// ("batch.").

func (g *generator) del(prefix string) {
	g.emit(prefix+"delete", g.key())
}

func (g *generator) delRange(prefix string) {
	s, e := g.span()
	g.emit(prefix+"delrange", s, e)
}

func (g *generator) merge(prefix string) {
	g.emit(prefix+"merge", g.key(), g.value())
}

// generate appends n ops.
func (g *generator) generate(n int) []op {
	for len(g.ops) < n {
		g.step()
	}
	g.closeAll()
	return g.ops
}

func (g *generator) step() {
	switch r := g.rng.IntN(100); {
	case r < 22:
		g.set("")
	case r < 27:
		g.del("")
	case r < 30:
		g.singleDelete()
	case r < 33:
		g.delRange("")
	case r < 37:
		g.merge("")
	case r < 45:
		g.emit("get", g.key())
	case r < 53:
		g.batchOp()
	case r < 57:
		g.snapshotOp()
	case r < 85:
		g.iterOp()
	case r < 90:
		g.emit("flush")
	case r < 92:
		s, e := g.span()
		g.emit("compact", s, e)
	case r < 95:
		g.ingestOp()
	default:
		if g.batch == "" && len(g.snaps) == 0 && len(g.iters) == 0 && g.rng.IntN(4) == 0 {
			g.emit("reopen")
		} else {
			g.set("")
		}
	}
}

func (g *generator) singleDelete() {
	eligible := g.singleDeletes.candidates()
	if len(eligible) == 0 || g.batch != "" {
		g.set("")
		return
	}
	g.emit("singledel", eligible[g.rng.IntN(len(eligible))])
}

func (g *generator) batchOp() {
	if g.batch == "" {
		g.batch = "plain"
		if g.rng.IntN(2) == 0 {
			g.batch = "indexed"
			g.emit("batch.new", "indexed")
		} else {
			g.emit("batch.new")
		}
		return
	}
	switch r := g.rng.IntN(10); {
	case r < 4:
		g.set("batch.")
	case r < 5:
		g.del("batch.")
	case r < 6:
		g.delRange("batch.")
	case r < 7:
		g.merge("batch.")
	case r < 8 && g.batch == "indexed":
		g.emit("batch.get", g.key())
	default:
		g.closeBatchIters()
		if g.rng.IntN(5) == 0 {
			g.emit("batch.close")
		} else {
			g.emit("batch.commit")
		}
		g.batch = ""
	}
}

func (g *generator) closeBatchIters() {
	for _, id := range g.iterIDs() {
		if g.iters[id] == "batch" {
			g.emit("iter.close", id)
			delete(g.iters, id)
		}
	}
}

func (g *generator) iterIDs() []string {
	ids := make([]string, 0, len(g.iters))
	for id := range g.iters {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (g *generator) snapshotOp() {
	if len(g.snaps) == 0 || g.rng.IntN(3) == 0 {
		g.nextID++
		id := fmt.Sprintf("s%d", g.nextID)
		g.snaps = append(g.snaps, id)
		g.emit("snap.new", id)
		return
	}
	id := g.snaps[g.rng.IntN(len(g.snaps))]
	if g.rng.IntN(3) > 0 {
		g.emit("snap.get", id, g.key())
		return
	}
	for _, it := range g.iterIDs() {
		if g.iters[it] == id {
			g.emit("iter.close", it)
			delete(g.iters, it)
		}
	}
	g.snaps = slices.DeleteFunc(g.snaps, func(s string) bool { return s == id })
	g.emit("snap.close", id)
}

var iterMoves = []string{"seekge", "seeklt", "seekprefixge", "first", "last",
	"next", "next", "next", "prev", "prev", "nextprefix"}

// relativeMoves need a positioned iterator.
var relativeMoves = map[string]bool{"next": true, "prev": true, "nextprefix": true}

func (g *generator) iterOp() {
	ids := g.iterIDs()
	if len(ids) == 0 || g.rng.IntN(6) == 0 {
		g.nextID++
		id := fmt.Sprintf("i%d", g.nextID)
		source := "db"
		if g.batch == "indexed" && g.rng.IntN(3) == 0 {
			source = "batch"
		} else if len(g.snaps) > 0 && g.rng.IntN(3) == 0 {
			source = g.snaps[g.rng.IntN(len(g.snaps))]
		}
		lower, upper := g.optionalSpan()
		g.iters[id] = source
		g.emit("iter.new", append([]string{id, lower, upper, source}, g.timeBound()...)...)
		return
	}
	id := ids[g.rng.IntN(len(ids))]
	switch r := g.rng.IntN(20); {
	case r < 1:
		lower, upper := g.optionalSpan()
		g.positioned[id] = false
		g.emit("iter.setbounds", id, lower, upper)
	case r < 2:
		lower, upper := g.optionalSpan()
		g.positioned[id] = false
		g.emit("iter.setoptions", append([]string{id, lower, upper}, g.timeBound()...)...)
	case r < 3:
		g.emit("iter.close", id)
		delete(g.iters, id)
	default:
		move := iterMoves[g.rng.IntN(len(iterMoves))]
		if !g.positioned[id] && relativeMoves[move] {
			move = "first"
		}
		g.positioned[id] = true
		switch move {
		case "seekge", "seeklt", "seekprefixge":
			g.emit("iter.op", id, move, g.key())
		default:
			g.emit("iter.op", id, move)
		}
	}
}

// timeBound returns the optional TIMEBOUND argument of a new iterator or
// SetOptions: for MVCC keys, a third of the iterators are time-bound.
func (g *generator) timeBound() []string {
	if g.keys.kind != MVCC || g.rng.IntN(3) > 0 {
		return nil
	}
	lo := 1 + g.rng.IntN(maxWallTime)
	hi := lo + g.rng.IntN(maxWallTime+1-lo)
	return []string{fmt.Sprintf("%d-%d", lo, hi)}
}

func (g *generator) ingestOp() {
	n := 1 + g.rng.IntN(5)
	var keys []string
	for i := 0; i < n; i++ {
		k := g.key()
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b string) int { return g.cmp([]byte(a), []byte(b)) })
	args := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		args = append(args, k, g.value())
	}
	g.emit("ingest", args...)
}

// closeAll ends the sequence with nothing open, so every run ends the same
// way and a shrunk sequence stays valid.
func (g *generator) closeAll() {
	for _, id := range g.iterIDs() {
		g.emit("iter.close", id)
	}
	g.iters = map[string]string{}
	for _, s := range g.snaps {
		g.emit("snap.close", s)
	}
	g.snaps = nil
	if g.batch != "" {
		g.emit("batch.close")
		g.batch = ""
	}
}
