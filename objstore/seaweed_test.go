package objstore

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// seaweed is a SeaweedFS cluster of one test's own, started by
// scripts/s3server.sh in a temporary directory and stopped (by its
// processes' IDs) when the test ends, for the tests that kill its
// processes.
type seaweed struct {
	dir    string
	server s3Server
}

// startSeaweed starts a cluster with the script's environment settings env
// ("NAME=value"), and makes its identity the test's credentials. It skips
// the test without PEBBLERF_WEED.
func startSeaweed(t *testing.T, env ...string) *seaweed {
	t.Helper()
	if os.Getenv(weedEnv) == "" {
		t.Skipf("starts SeaweedFS: set %s to a weed binary, or run make test-s3 (which builds it)", weedEnv)
	}
	c := &seaweed{dir: t.TempDir()}
	c.script(t, env, "start", c.dir)
	t.Cleanup(func() { c.script(t, nil, "stop", c.dir) })
	f, err := os.Open(filepath.Join(c.dir, "env"))
	require.NoError(t, err)
	defer f.Close()
	vars := map[string]string{}
	for sc := bufio.NewScanner(f); sc.Scan(); {
		k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "=")
		if ok {
			vars[k] = strings.Trim(v, "'")
		}
	}
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"} {
		t.Setenv(k, vars[k])
	}
	u, err := url.Parse(vars[s3TestURLEnv])
	require.NoError(t, err)
	c.server = s3Server{bucket: u.Host, prefix: "db", query: u.Query()}
	return c
}

// script runs scripts/s3server.sh with args.
func (c *seaweed) script(t *testing.T, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{filepath.Join("..", "scripts", "s3server.sh")}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "s3server.sh %s:\n%s", strings.Join(args, " "), out)
}

// kill kills one of the cluster's processes with SIGKILL, by its recorded
// process ID (directly, not through the script, so that it dies at once),
// and waits until it is gone.
func (c *seaweed) kill(t *testing.T, name string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.dir, "run", name+".pid"))
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	// A killed process is gone once its command line is (a zombie has none).
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(time.Millisecond) {
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || len(cmdline) == 0 {
			return
		}
	}
	t.Fatalf("%s (process %d) outlived SIGKILL by a minute", name, pid)
}

// warmUp writes and deletes an object, with a long timeout: SeaweedFS
// makes a bucket's volumes at its first write, which on a busy machine may
// take longer than the fault tests' short timeout.
func (c *seaweed) warmUp(t *testing.T) {
	t.Helper()
	m := openURL(t, c.server.location("timeout=60s"))
	put(t, meterStorage{m}, "warm-up", []byte("x"))
	require.NoError(t, m.delete("warm-up"))
}

// restart starts one of the cluster's processes again on the same data and
// waits until it answers.
func (c *seaweed) restart(t *testing.T, name string) { c.script(t, nil, "restart", c.dir, name) }

// volumes returns how many volumes each volume server holds, by name
// (volume1...), as the master sees them.
func (c *seaweed) volumes(t *testing.T) map[string]int {
	t.Helper()
	resp, err := http.Get("http://127.0.0.1:" + c.port(t, "master") + "/dir/status")
	require.NoError(t, err)
	defer resp.Body.Close()
	var status struct {
		Topology struct {
			DataCenters []struct {
				Racks []struct {
					DataNodes []struct {
						URL     string `json:"Url"`
						Volumes int
					}
				}
			}
		}
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&status))
	names := map[string]string{}
	for _, n := range []string{"volume1", "volume2", "volume3"} {
		names["127.0.0.1:"+c.port(t, n)] = n
	}
	counts := map[string]int{}
	for _, dc := range status.Topology.DataCenters {
		for _, r := range dc.Racks {
			for _, n := range r.DataNodes {
				counts[names[n.URL]] += n.Volumes
			}
		}
	}
	return counts
}

// port is the HTTP port of one of the cluster's processes.
func (c *seaweed) port(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join(c.dir, "run", name+".port"))
	require.NoError(t, err)
	return strings.TrimSpace(string(b))
}

// storeTimeout is the store's timeout in the fault tests (the URL's
// timeout): each store call ends within it, retries included. A read or
// compaction that has not returned within hangBound is taken for a hang.
const (
	storeTimeout = 2 * time.Second
	hangBound    = 4 * storeTimeout
)

// readLoop reads a DB in a goroutine, Gets and bounded scans in turn, and
// records each read: when it began, how long it took and its error. A read
// that returns no error must answer as the model does, every key and value,
// or the test fails.
type readLoop struct {
	t    *testing.T
	stop chan struct{}
	done chan struct{}

	mu    sync.Mutex
	reads []readResult
}

type readResult struct {
	start time.Time
	took  time.Duration
	err   error
}

func startReads(t *testing.T, d *pebble.DB, want model, keys int) *readLoop {
	l := &readLoop{t: t, stop: make(chan struct{}), done: make(chan struct{})}
	sorted := want.sortedKeys()
	go func() {
		defer close(l.done)
		for i := 0; ; i++ {
			select {
			case <-l.stop:
				return
			default:
			}
			k := (i*7919 + 13) % keys
			start := time.Now()
			var err error
			if i%2 == 0 {
				err = checkGet(d, want, k)
			} else {
				err = checkScan(d, want, sorted, k, k+20)
			}
			if errors.Is(err, errWrongAnswer) {
				t.Error(err)
				return
			}
			l.mu.Lock()
			l.reads = append(l.reads, readResult{start: start, took: time.Since(start), err: err})
			l.mu.Unlock()
		}
	}()
	return l
}

// waitFor waits until the reads begun since since satisfy cond (their
// count of successes and failures), and fails the test if they make no
// progress for hangBound.
func (l *readLoop) waitFor(since time.Time, what string, cond func(ok, failed int) bool) {
	l.t.Helper()
	last, lastAt := -1, time.Now()
	for {
		l.mu.Lock()
		ok, failed := 0, 0
		for _, r := range l.reads {
			if !r.start.Before(since) {
				if r.err == nil {
					ok++
				} else {
					failed++
				}
			}
		}
		n := len(l.reads)
		l.mu.Unlock()
		if cond(ok, failed) {
			return
		}
		if n != last {
			last, lastAt = n, time.Now()
		}
		require.Less(l.t, time.Since(lastAt), hangBound, "reads hang, waiting for %s", what)
		select {
		case <-l.done:
			l.t.Fatalf("reads stopped, waiting for %s", what)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// finish stops the reads and returns them.
func (l *readLoop) finish() []readResult {
	close(l.stop)
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reads
}

var errWrongAnswer = errors.New("wrong answer")

func (m model) sortedKeys() []string {
	sorted := make([]string, 0, len(m))
	for k := range m {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	return sorted
}

// checkGet gets key k: an error, or the model's answer (else
// errWrongAnswer).
func checkGet(d *pebble.DB, want model, k int) error {
	v, c, err := d.Get(key(k))
	w, present := want[string(key(k))]
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		if present {
			return errors.Wrapf(errWrongAnswer, "Get(%s) says absent; the model holds it", key(k))
		}
		return nil
	case err != nil:
		return err
	}
	defer c.Close()
	if !present || w != string(v) {
		return errors.Wrapf(errWrongAnswer, "Get(%s) = %q, the model holds %q (%v)", key(k), v, w, present)
	}
	return nil
}

// checkScan scans [key(lo), key(hi)): an error, or the model's keys and
// values in order, none skipped (else errWrongAnswer).
func checkScan(d *pebble.DB, want model, sorted []string, lo, hi int) error {
	it, err := d.NewIter(&pebble.IterOptions{LowerBound: key(lo), UpperBound: key(hi)})
	if err != nil {
		return err
	}
	j := sort.SearchStrings(sorted, string(key(lo)))
	for it.First(); it.Valid(); it.Next() {
		if j >= len(sorted) || sorted[j] != string(it.Key()) || want[sorted[j]] != string(it.Value()) {
			_ = it.Close()
			return errors.Wrapf(errWrongAnswer, "scan of [%s, %s) returned %s", key(lo), key(hi), it.Key())
		}
		j++
	}
	if err := it.Close(); err != nil {
		return err
	}
	if j < len(sorted) && sorted[j] < string(key(hi)) {
		return errors.Wrapf(errWrongAnswer, "scan of [%s, %s) ended without %s and without an error", key(lo), key(hi), sorted[j])
	}
	return nil
}

// summarize logs the failed reads: how many, how long they took to fail,
// and their distinct errors.
func summarize(t *testing.T, what string, reads []readResult) (failed int) {
	t.Helper()
	var longest time.Duration
	seen := map[string]int{}
	for _, r := range reads {
		if r.err == nil {
			continue
		}
		failed++
		longest = max(longest, r.took)
		seen[r.err.Error()]++
	}
	t.Logf("%s: %d reads, %d failed, the slowest failure after %s", what, len(reads), failed, longest)
	for e, n := range seen {
		t.Logf("  %d x %s", n, e)
	}
	return failed
}

// backgroundErrors counts the errors Pebble's background work (flushes,
// compactions, deletions) met, by message.
type backgroundErrors struct {
	mu   sync.Mutex
	seen map[string]int
}

func (b *backgroundErrors) listener() *pebble.EventListener {
	return &pebble.EventListener{BackgroundError: func(err error) {
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.seen == nil {
			b.seen = map[string]int{}
		}
		b.seen[err.Error()]++
	}}
}

func (b *backgroundErrors) log(t *testing.T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for e, n := range b.seen {
		t.Logf("  background: %d x %s", n, e)
	}
}

// TestRealS3GatewayKilled kills SeaweedFS's S3 gateway (SIGKILL) while a
// DB reads, restarts it on the same data, then kills it again while a
// compaction uploads its tables and the DB takes writes, and restarts it:
// each read either errors, within the store's timeout, or answers right;
// the compaction fails with an error; and once the gateway is back, the DB
// (after a reopen, too) holds every write it acknowledged.
func TestRealS3GatewayKilled(t *testing.T) {
	c := startSeaweed(t)
	c.warmUp(t)
	url := c.server.location(fmt.Sprintf("timeout=%s", storeTimeout), "retries=3")
	const keys = 3000
	fs := vfs.NewMem()
	m := openURL(t, url)
	o := faultyLifeOptions(fs, m)
	bg := &backgroundErrors{}
	o.EventListener = bg.listener()
	d := openRemote(t, "db", o, m, AllLevels)
	want, writes := model{}, 0
	write := func(w op) error {
		err := apply(d, w)
		if err == nil && w.kind != 'f' {
			want.apply(w)
			writes++
		}
		return err
	}
	for _, w := range workload(3, 6000, keys) {
		require.NoError(t, write(w))
	}
	require.NoError(t, d.Compact(context.Background(), key(0), key(keys+100), true))

	// Reads, while the gateway dies and comes back.
	start := time.Now()
	l := startReads(t, d, want, keys)
	l.waitFor(start, "reads before the kill", func(ok, _ int) bool { return ok >= 50 })
	c.kill(t, "s3")
	killed := time.Now()
	l.waitFor(killed, "reads to fail", func(_, failed int) bool { return failed >= 5 })
	c.restart(t, "s3")
	back := time.Now()
	l.waitFor(back, "reads after the restart", func(ok, _ int) bool { return ok >= 50 })
	reads := l.finish()
	var down, after []readResult
	for _, r := range reads {
		switch {
		case !r.start.Before(back):
			after = append(after, r)
		case !r.start.Before(killed):
			down = append(down, r)
		}
		require.Less(t, r.took, hangBound, "a read took %s (%v)", r.took, r.err)
	}
	require.NotZero(t, summarize(t, "reads begun while the gateway was down", down))
	require.Zero(t, summarize(t, "reads begun after its restart", after))
	require.Equal(t, map[string]string(want), contents(t, upstreamDB{d}), "the DB after the gateway's restart")

	// A compaction's uploads, while the gateway dies; writes go on. The DB
	// is reopened without automatic compactions, so that the manual one is
	// the compaction that uploads: Pebble retries a failed automatic
	// compaction, and a manual one may wait its turn behind them as long
	// as they fail. With no compaction to drain L0, its stop threshold is
	// raised so that writes do not stall.
	o.Cache.Unref()
	require.NoError(t, d.Close())
	o = faultyLifeOptions(fs, m)
	o.EventListener = bg.listener()
	o.DisableAutomaticCompactions = true
	o.L0StopWritesThreshold = 1000
	d = openRemote(t, "db", o, m, AllLevels)
	for _, w := range workload(4, 20000, 4*keys) {
		require.NoError(t, write(w))
	}
	// Flushed first: a compaction of a range the memtable overlaps waits
	// for its flush, and Pebble retries a failed flush until it succeeds.
	require.NoError(t, d.Flush())
	before := m.Snapshot().Write.Requests
	compacted := make(chan error, 1)
	go func() { compacted <- d.Compact(context.Background(), key(0), key(4*keys+100), true) }()
	for m.Snapshot().Write.Requests == before {
		select {
		case err := <-compacted:
			t.Fatalf("the compaction ended (%v) before it uploaded a table", err)
		case <-time.After(100 * time.Microsecond):
		}
	}
	c.kill(t, "s3")
	killed = time.Now()
	var err error
	select {
	case err = <-compacted:
	case <-time.After(hangBound):
		t.Fatalf("the compaction did not return %s after the gateway died", hangBound)
	}
	t.Logf("the compaction returned %s after the kill: %v", time.Since(killed), err)
	require.Error(t, err, "a compaction whose uploads fail")
	acked := 0
	for _, w := range workload(5, 300, 4*keys) {
		if w.kind == 'f' {
			continue // a flush waits until one succeeds
		}
		if write(w) == nil {
			acked++
		}
	}
	_, _ = d.AsyncFlush()
	c.restart(t, "s3")
	t.Logf("%d writes acknowledged while the gateway was down", acked)
	require.NoError(t, d.Flush())
	require.NoError(t, d.Compact(context.Background(), key(0), key(4*keys+100), true))
	require.Equal(t, map[string]string(want), contents(t, upstreamDB{d}), "the DB after the gateway's restart")
	bg.log(t)
	o.Cache.Unref()
	require.NoError(t, d.Close())

	// Reopened with a new client, on the same data.
	o = faultyLifeOptions(fs, m)
	defer o.Cache.Unref()
	d = openRemote(t, "db", o, openURL(t, url), AllLevels)
	require.Equal(t, map[string]string(want), contents(t, upstreamDB{d}), "acknowledged writes after a reopen")
	t.Logf("after the reopen, the DB holds what all %d acknowledged writes left (%d keys)", writes, len(want))
	require.NoError(t, d.Close())
}

// TestRealS3VolumeKilled kills one of three volume servers (SIGKILL), the
// one that holds the most volumes, under a DB whose tables were written
// with one extra copy (replication 001): reads, with cold caches, go on,
// every one right.
func TestRealS3VolumeKilled(t *testing.T) {
	c := startSeaweed(t)
	c.warmUp(t)
	url := c.server.location(fmt.Sprintf("timeout=%s", storeTimeout))
	const keys = 3000
	fs := vfs.NewMem()
	o := faultyLifeOptions(fs, nil)
	d := openRemote(t, "db", o, openURL(t, url), AllLevels)
	want := model{}
	for _, w := range workload(6, 6000, keys) {
		require.NoError(t, apply(d, w))
		want.apply(w)
	}
	require.NoError(t, d.Compact(context.Background(), key(0), key(keys+100), true))
	o.Cache.Unref()
	require.NoError(t, d.Close())
	// The server that holds the most volumes dies: each of them has its
	// other copy elsewhere.
	vols := c.volumes(t)
	victim := "volume1"
	for name, n := range vols {
		if n > vols[victim] {
			victim = name
		}
	}
	t.Logf("volumes per server: %v; killing %s", vols, victim)
	require.NotZero(t, vols[victim], "no server holds a volume")

	m := openURL(t, url)
	o = faultyLifeOptions(fs, m)
	defer o.Cache.Unref()
	d = openRemote(t, "db", o, m, AllLevels)
	c.kill(t, victim)
	start := time.Now()
	l := startReads(t, d, want, keys)
	l.waitFor(start, "reads", func(ok, failed int) bool { return ok+failed >= keys })
	reads := l.finish()
	require.Zero(t, summarize(t, "reads with "+victim+" down", reads), "reads failed with one copy of each object left")
	require.Equal(t, map[string]string(want), contents(t, upstreamDB{d}))
	s := m.Snapshot()
	t.Logf("the store's requests with %s down:\n%s", victim, s)
	require.NotZero(t, s.Gets().Requests)
	require.NoError(t, d.Close())
}

// TestRealS3Full opens a DB on a SeaweedFS whose volume servers take no
// writes (their disks count as full): Configure fails with one error line,
// within the store's timeout, before the DB is opened at all.
func TestRealS3Full(t *testing.T) {
	c := startSeaweed(t, "S3SERVER_MIN_FREE=100")
	m := openURL(t, c.server.location(fmt.Sprintf("timeout=%s", storeTimeout)))
	start := time.Now()
	err := Configure("db", testOptions(vfs.NewMem()), Config{Store: m, CreatorID: 3})
	took := time.Since(start)
	t.Logf("Configure failed after %s: %v", took, err)
	require.Error(t, err)
	require.Contains(t, err.Error(), "takes no writes")
	require.NotContains(t, err.Error(), "\n", "one line")
	require.Less(t, took, hangBound)
	// A read-only DB needs no writes, and is not refused.
	o := testOptions(vfs.NewMem())
	o.ReadOnly = true
	require.NoError(t, Configure("db", o, Config{Store: m, CreatorID: 3}))
}
