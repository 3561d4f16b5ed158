package objstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// TestTwoDBsOneBucket runs testTwoDBs on an in-process S3 server.
func TestTwoDBsOneBucket(t *testing.T) {
	testTwoDBs(t, fakeServer(t).location())
}

// node is one of the DBs that share a store, with a local DB that lives
// the same writes.
type node struct {
	id     uint64
	fs     vfs.FS
	m      *Meter
	remote *pebble.DB
	local  *pebble.DB
}

func openNode(t *testing.T, url string, id uint64, fresh bool) *node {
	t.Helper()
	n := &node{id: id, fs: vfs.NewMem(), m: openURL(t, url)}
	o := testOptions(n.fs)
	require.NoError(t, Configure("db", o, Config{Store: n.m, CreatorID: id, Fresh: fresh}))
	var err error
	n.remote, err = pebble.Open("db", o)
	require.NoError(t, err)
	n.local, err = pebble.Open("db", testOptions(vfs.NewMem()))
	require.NoError(t, err)
	return n
}

func (n *node) apply(t *testing.T, o op) {
	require.NoError(t, apply(n.remote, o))
	require.NoError(t, apply(n.local, o))
}

func (n *node) close(t *testing.T) {
	require.NoError(t, n.remote.Close())
	require.NoError(t, n.local.Close())
}

// objects lists the store's object names by the creator ID they carry,
// and requires every one to be a Pebble object's.
func objects(t *testing.T, url string) map[uint64][]string {
	t.Helper()
	names, err := openURL(t, url).list("", "")
	require.NoError(t, err)
	by := map[uint64][]string{}
	for _, n := range names {
		o, ok := parseObjectName(n)
		require.True(t, ok, "%q is no Pebble object", n)
		by[o.creator] = append(by[o.creator], n)
	}
	return by
}

// requireOwnNames checks that every table of n's DB on the store is an
// object named by n's creator ID and the table's number.
func (n *node) requireOwnNames(t *testing.T, objs map[uint64][]string) {
	t.Helper()
	tables, err := n.remote.SSTables()
	require.NoError(t, err)
	shared := 0
	for _, level := range tables {
		for _, tb := range level {
			if tb.BackingType != pebble.BackingTypeShared {
				continue
			}
			shared++
			suffix := fmt.Sprintf("-%d-%06d.sst", n.id, uint64(tb.BackingSSTNum))
			require.True(t, slices.ContainsFunc(objs[n.id], func(s string) bool { return strings.HasSuffix(s, suffix) }),
				"creator %d's table %s is not on the store as *%s", n.id, tb.FileNum, suffix)
		}
	}
	require.NotZero(t, shared, "creator %d has no table on the store", n.id)
}

// testTwoDBs runs two DBs in one bucket and prefix, as CockroachDB's nodes
// share one, told apart by creator ID alone: each writes its objects under
// its own names and reads as a local DB that lived the same writes does; a
// new DB that replaces one of them (Config.Fresh) deletes that one's
// objects and never the other's, which goes on reading right, before and
// after a reopen with cold caches.
func testTwoDBs(t *testing.T, url string) {
	const keys = 2000
	a, b := openNode(t, url, 1, true), openNode(t, url, 2, true)
	wa, wb := workload(5, 2500, keys), workload(6, 2500, keys)
	for i := range wa {
		a.apply(t, wa[i])
		b.apply(t, wb[i])
	}
	for _, n := range []*node{a, b} {
		require.NoError(t, n.remote.Compact(context.Background(), key(0), key(keys+100), true))
		requireSameReads(t, upstreamDB{n.local}, upstreamDB{n.remote}, keys)
	}
	objs := objects(t, url)
	require.Len(t, objs, 2, "objects of creators 1 and 2 only")
	a.requireOwnNames(t, objs)
	b.requireOwnNames(t, objs)

	// A new DB replaces a (creator 1) while b runs on.
	a.close(t)
	a = openNode(t, url, 1, true)
	after := objects(t, url)
	require.Empty(t, after[1], "Fresh left creator 1's objects")
	// b may still be deleting the tables its compaction made obsolete:
	// what it has left must be what it had, its live tables among them.
	require.Subset(t, objs[2], after[2], "creator 2's objects after Fresh on creator 1")
	b.requireOwnNames(t, after)
	requireSameReads(t, upstreamDB{b.local}, upstreamDB{b.remote}, keys)

	for _, o := range workload(7, 1500, keys) {
		a.apply(t, o)
	}
	requireSameReads(t, upstreamDB{a.local}, upstreamDB{a.remote}, keys)

	// b, reopened with a new client and cache, reads its tables from the
	// store again.
	require.NoError(t, b.remote.Close())
	o := testOptions(b.fs)
	require.NoError(t, Configure("db", o, Config{Store: openURL(t, url), CreatorID: 2}))
	var err error
	b.remote, err = pebble.Open("db", o)
	require.NoError(t, err)
	requireSameReads(t, upstreamDB{b.local}, upstreamDB{b.remote}, keys)
	b.requireOwnNames(t, objects(t, url))
	a.close(t)
	b.close(t)
}
