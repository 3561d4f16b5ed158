// Copyright 2026 The pebblerf Authors. All rights reserved.

package engineproc

import (
	"encoding/gob"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/progress"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/runner"
)

// The environment of an engine's process: which engine it runs, and where
// it writes its CPU profile ("" for none).
const (
	engineEnv  = "PEBBLEBENCH_ENGINE_PROCESS"
	profileEnv = "PEBBLEBENCH_ENGINE_PROFILE"
)

// Exit statuses of an engine's process.
const (
	exitOK = 0
	// exitParent is the status of a process whose parent is gone (its
	// pipes closed): there is no one left to answer.
	exitParent = 3
	// exitInterrupted is a second SIGINT's, as pebblebench's own.
	exitInterrupted = 130
)

// The pipes of an engine's process, after stdin, stdout and stderr.
const (
	requestFD = 3
	replyFD   = 4
)

// ServeIfChild makes this process an engine's process if it was started as
// one (Start): it serves its parent until told to exit, and exits. In any
// other process it returns at once. pebblebench's main calls it first, and
// so do the tests whose test binary stands in for pebblebench.
func ServeIfChild() {
	name := os.Getenv(engineEnv)
	if name == "" {
		return
	}
	os.Exit(serveChild(name, os.Getenv(profileEnv)))
}

func serveChild(name, profile string) int {
	in := os.NewFile(requestFD, "requests")
	out := os.NewFile(replyFD, "replies")
	if in == nil || out == nil {
		fmt.Fprintf(os.Stderr, "pebblebench: the %s engine's process has no pipes to its parent\n", name)
		return exitParent
	}
	if profile != "" {
		f, err := os.Create(profile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "pebblebench: -cpuprofile: %v\n", err)
			return exitParent
		}
		defer func() {
			pprof.StopCPUProfile()
			_ = f.Close()
		}()
	}
	stop := new(atomic.Bool)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	go func() {
		// The parent forwards its SIGINTs: the first ends the current run
		// early, the second ends the process, as in pebblebench itself.
		for range sigs {
			if stop.Swap(true) {
				os.Exit(exitInterrupted)
			}
		}
	}()
	s := &server{e: runner.New(name, runner.NewStores(), stop), dec: gob.NewDecoder(in), enc: gob.NewEncoder(out)}
	return s.serve()
}

// server answers one parent's requests with one engine.
type server struct {
	e   *runner.Engine
	dec *gob.Decoder
	// mu orders the replies of a run: its progress, its turns and its
	// result come from different goroutines.
	mu  sync.Mutex
	enc *gob.Encoder
}

func (s *server) send(r reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.enc.Encode(&r); err != nil {
		// The parent is gone: no one reads what this process measures.
		os.Exit(exitParent)
	}
}

func (s *server) receive() request {
	var r request
	if err := s.dec.Decode(&r); err != nil {
		os.Exit(exitParent)
	}
	return r
}

func (s *server) serve() int {
	for {
		req := s.receive()
		r := reply{Kind: final}
		var err error
		switch req.Op {
		case opBegin:
			r.Setup, err = s.e.Begin(req.Config, req.Root)
		case opStart:
			err = s.e.Start()
		case opPrepare:
			err = s.e.Prepare(req.Bench)
		case opRun:
			r.Result, err = s.run(req)
		case opMeta:
			r.Text, r.Meta, err = s.e.Meta(req.Bench)
		case opExplain:
			r.Text, err = s.e.Explain()
		case opLevelTable:
			r.Text, err = s.e.LevelTable()
		case opShape:
			r.Shape, err = s.e.Shape()
		case opReport:
			r.Engine, r.Timeline, err = s.e.Report()
		case opEnd:
			err = s.e.End()
		case opExit:
			s.send(r)
			return exitOK
		default:
			err = errors.AssertionFailedf("unexpected request %d", req.Op)
		}
		r.Err = toWire(err)
		s.send(r)
	}
}

// run times a run, its progress published to the parent every
// progressEvery, and with -interleave its turns taken through the parent.
func (s *server) run(req request) (*result.Result, error) {
	counter := progress.NewCounter(0)
	defer progress.Every(progressEvery, func() {
		s.send(reply{Kind: progressMade, Done: counter.Done(), Limit: counter.Limit()})
	})()
	if req.Interleave == 0 {
		return s.e.Run(req.Bench, req.Seq, nil, counter)
	}
	return s.e.Run(req.Bench, req.Seq, &relayedTurns{s: s, every: req.Interleave, left: req.Interleave}, counter)
}

// progressEvery is how often a run's progress crosses to the parent, whose
// progress lines come every few seconds.
const progressEvery = 250 * time.Millisecond

// relayedTurns is the engine's side of -interleave's turns, taken through
// the parent: at the end of a turn the run hands it back (turnOver) and
// waits for the parent's next opTurn, which the parent sends once the other
// engine's process has handed back its own. While it waits, this process
// runs nothing of the run's, so its seconds and its thread CPU leave the
// other engine's turns out.
type relayedTurns struct {
	s           *server
	every, left int64
	waited      time.Duration
}

// Wait waits for the first turn.
func (t *relayedTurns) Wait() { t.await() }

// Done counts ops operations of the turn; at its end, hands the turn back
// and waits for the next.
func (t *relayedTurns) Done(ops int64) {
	if t.left -= ops; t.left > 0 {
		return
	}
	t.left = t.every
	start := time.Now()
	t.s.send(reply{Kind: turnOver})
	t.await()
	t.waited += time.Since(start)
}

// Finish hands back the last turn: the other engine runs the rest of its
// operations alone.
func (t *relayedTurns) Finish() { t.s.send(reply{Kind: finished}) }

// Waited is the time the run waited for its turns after it started.
func (t *relayedTurns) Waited() time.Duration { return t.waited }

func (t *relayedTurns) await() {
	if req := t.s.receive(); req.Op != opTurn {
		fmt.Fprintf(os.Stderr, "pebblebench: the %s engine's process was sent request %d during a turn\n", t.s.e.Name(), req.Op)
		os.Exit(exitParent)
	}
}

// ProfilePaths are where the engines named names write -cpuprofile path,
// one each.
func ProfilePaths(path string, names []string) []string {
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = profilePath(path, n)
	}
	return paths
}

// profilePath is where the engine named name writes -cpuprofile path:
// its name before the extension (cpu.pprof: cpu-pebble.pprof).
func profilePath(path, name string) string {
	if path == "" {
		return ""
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "-" + name + ext
}
