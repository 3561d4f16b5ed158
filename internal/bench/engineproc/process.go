// Copyright 2026 The pebblerf Authors. All rights reserved.

// Package engineproc runs an engine in a process of its own.
//
// Under -engine=both each engine runs in a child process: the same program
// started again with the engine's name in its environment, whose main
// serves the parent (ServeIfChild) with a runner.Engine. A process's CPU
// time is then one engine's, exactly, its flushes and compactions
// included, where in one process the engines' background work would be
// counted together or not at all (the benchmark threads' CPU leaves it
// out). The parent drives both as it drives an engine of its own: a
// Process is a driver.Engine whose every method is one request on a pipe
// and one reply on another (wire.go), carrying plain values, results,
// histograms and all.
//
// Whole runs go to one process and then the other, as in one process.
// Runs that take turns (-interleave) take them through the parent: a
// child hands its turn back over its pipe, the parent hands it on to the
// other child's side of the same in-process turns the driver gives any two
// engines, and answers with the next turn when it comes back; the time a
// child waits is not its own, and its threads spend no CPU meanwhile.
//
// The parent forwards SIGINT to its children (their first ends the run
// early, a second ends them), and a child that dies is an error naming
// the engine and its exit status: its pipe ends, and whatever waited on it,
// a reply or a turn, returns; the other engine's run stops as on SIGINT.
// A child whose parent is gone exits.
package engineproc

import (
	"encoding/gob"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/progress"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/runner"
)

// Process is an engine running in a child process, as the driver sees it.
type Process struct {
	name string
	cmd  *exec.Cmd
	enc  *gob.Encoder
	dec  *gob.Decoder
	// requests and replies are the parent's ends of the pipes.
	requests, replies *os.File
	// dead is the error that ended the process, once it has: every later
	// call returns it.
	dead error
	// exited is closed once the process has exited and been waited for.
	exited chan struct{}
	// closing is set once the parent has asked the process to exit.
	closing atomic.Bool
	// stop is the parent's SIGINT flag.
	stop *atomic.Bool
	// interleave is -interleave of the current command line (Begin).
	interleave int64
}

// Start starts the engine named name in a process of its own: this
// program, os.Executable, run again. Its stderr (and its stdout, which it
// does not use) go to stderr. With profile set it writes its CPU profile
// to profile with "-<name>" before the extension. Once stop is set, the
// process is interrupted as the parent was.
func Start(name string, stderr io.Writer, stop *atomic.Bool, profile string) (*Process, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, errors.Wrap(err, "finding the program to run an engine in")
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		return nil, errors.CombineErrors(err, errors.CombineErrors(reqR.Close(), reqW.Close()))
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), engineEnv+"="+name, profileEnv+"="+profilePath(profile, name))
	cmd.Stdout, cmd.Stderr = stderr, stderr
	cmd.ExtraFiles = []*os.File{reqR, repW} // requestFD, replyFD
	cmd.SysProcAttr = sysProcAttr()
	err = cmd.Start()
	// The child holds its own ends now; the parent's copies would keep a
	// dead child's pipe open.
	_ = reqR.Close()
	_ = repW.Close()
	if err != nil {
		return nil, errors.CombineErrors(errors.Wrapf(err, "starting the %s engine's process", name),
			errors.CombineErrors(reqW.Close(), repR.Close()))
	}
	p := &Process{name: name, cmd: cmd, enc: gob.NewEncoder(reqW), dec: gob.NewDecoder(repR),
		requests: reqW, replies: repR, exited: make(chan struct{}), stop: stop}
	go p.watch()
	go p.forwardInterrupts(stop)
	return p, nil
}

// watch waits for the process to exit. One that exits unasked has died:
// the invocation stops as on SIGINT, so that the other engine's run ends
// now rather than after all its operations, and the next call to this one
// returns the death.
func (p *Process) watch() {
	_ = p.cmd.Wait()
	close(p.exited)
	if !p.closing.Load() {
		p.stop.Store(true)
	}
}

// forwardInterrupts interrupts the child once the parent was interrupted,
// and again if the parent is interrupted twice (stop's second setting is
// not seen, so a second SIGINT reaches the child from the parent's own
// exit: its pipes close). The children run in their own process group, so
// a terminal's SIGINT reaches them only this way.
func (p *Process) forwardInterrupts(stop *atomic.Bool) {
	t := time.NewTicker(interruptPoll)
	defer t.Stop()
	for {
		select {
		case <-p.exited:
			return
		case <-t.C:
			if stop.Load() {
				_ = p.cmd.Process.Signal(os.Interrupt)
				return
			}
		}
	}
}

// interruptPoll is how soon a SIGINT of the parent reaches its children.
const interruptPoll = 20 * time.Millisecond

// Name is the engine's name.
func (p *Process) Name() string { return p.name }

// call sends req and returns the final reply, passing the replies before
// it to during (nil: none are expected).
func (p *Process) call(req request, during func(reply) error) (reply, error) {
	if err := p.send(req); err != nil {
		return reply{}, err
	}
	return p.await(during)
}

// send sends req.
func (p *Process) send(req request) error {
	if p.dead != nil {
		return p.dead
	}
	if err := p.enc.Encode(&req); err != nil {
		return p.died()
	}
	return nil
}

// await returns the final reply to the request sent last, passing the
// replies before it to during (nil: none are expected).
func (p *Process) await(during func(reply) error) (reply, error) {
	for {
		var r reply
		if err := p.dec.Decode(&r); err != nil {
			return reply{}, p.died()
		}
		if r.Kind == final {
			return r, r.Err.err()
		}
		if during == nil {
			return reply{}, errors.AssertionFailedf("the %s engine's process sent %d outside a run", p.name, r.Kind)
		}
		if err := during(r); err != nil {
			return reply{}, err
		}
	}
}

// died waits for the process, whose pipe has ended, and returns the error
// that names it and its exit status.
func (p *Process) died() error {
	if p.dead == nil {
		_ = p.requests.Close()
		<-p.exited
		p.dead = errors.Newf("the %s engine's process ended (%s)", p.name, p.cmd.ProcessState)
	}
	return p.dead
}

// Begin is runner.Engine.Begin in the child.
func (p *Process) Begin(c *config.Config, root string) (runner.Setup, error) {
	p.interleave = c.Interleave
	r, err := p.call(request{Op: opBegin, Config: c, Root: root}, nil)
	return r.Setup, err
}

// Start is runner.Engine.Start in the child.
func (p *Process) Start() error {
	_, err := p.call(request{Op: opStart}, nil)
	return err
}

// Prepare is runner.Engine.Prepare in the child.
func (p *Process) Prepare(bench string) error {
	_, err := p.call(request{Op: opPrepare, Bench: bench}, nil)
	return err
}

// Run is runner.Engine.Run in the child. With turns, the child's turns are
// relayed to and from turns, this engine's side of the pair the driver
// made: the child starts once turns holds the turn, and each turn it hands
// back is handed on through turns, and the next given back once turns
// holds it again.
func (p *Process) Run(bench string, seq int, turns benchmarks.Turns, counter *progress.Counter) (*result.Result, error) {
	req := request{Op: opRun, Bench: bench, Seq: seq}
	relay := &relay{turns: turns}
	if turns != nil {
		req.Interleave = p.interleave
		// A run that fails or a child that dies hands its last turn on, so
		// that the other engine's run is never left waiting.
		defer relay.finish()
	}
	if err := p.send(req); err != nil {
		return nil, err
	}
	if turns != nil {
		turns.Wait()
		if err := p.give(); err != nil {
			return nil, err
		}
	}
	r, err := p.await(func(r reply) error {
		switch r.Kind {
		case progressMade:
			counter.Set(r.Done, r.Limit)
		case turnOver:
			if turns == nil {
				return errors.AssertionFailedf("the %s engine's process took a turn in a whole run", p.name)
			}
			// The turn's operations are the child's count: handing over
			// here always hands the turn on (unless the other engine's
			// run has ended), and returns once it is back.
			turns.Done(req.Interleave)
			return p.give()
		case finished:
			relay.finish()
		}
		return nil
	})
	return r.Result, err
}

// give sends the child its next turn.
func (p *Process) give() error {
	if err := p.enc.Encode(&request{Op: opTurn}); err != nil {
		return p.died()
	}
	return nil
}

// relay finishes the parent's side of a relayed run's turns once.
type relay struct {
	turns    benchmarks.Turns
	finished bool
}

func (r *relay) finish() {
	if !r.finished {
		r.finished = true
		r.turns.Finish()
	}
}

// Meta is runner.Engine.Meta in the child.
func (p *Process) Meta(bench string) (string, *benchmarks.MetaData, error) {
	r, err := p.call(request{Op: opMeta, Bench: bench}, nil)
	return r.Text, r.Meta, err
}

// Explain is runner.Engine.Explain in the child.
func (p *Process) Explain() (string, error) {
	r, err := p.call(request{Op: opExplain}, nil)
	return r.Text, err
}

// LevelTable is runner.Engine.LevelTable in the child.
func (p *Process) LevelTable() (string, error) {
	r, err := p.call(request{Op: opLevelTable}, nil)
	return r.Text, err
}

// Shape is runner.Engine.Shape in the child.
func (p *Process) Shape() ([]lsm.Level, error) {
	r, err := p.call(request{Op: opShape}, nil)
	return r.Shape, err
}

// Report is runner.Engine.Report in the child.
func (p *Process) Report() (*report.Engine, []report.FunnelSample, error) {
	r, err := p.call(request{Op: opReport}, nil)
	return r.Engine, r.Timeline, err
}

// End is runner.Engine.End in the child.
func (p *Process) End() error {
	_, err := p.call(request{Op: opEnd}, nil)
	return err
}

// Close ends the process and waits for it: its CPU profile is complete
// when Close returns. A process that died is not an error here: the call
// that met its death returned that.
func (p *Process) Close() error {
	if p.dead != nil {
		return nil
	}
	p.closing.Store(true)
	_, err := p.call(request{Op: opExit}, nil)
	if err != nil {
		return err
	}
	_ = p.requests.Close()
	_ = p.replies.Close()
	<-p.exited
	p.dead = errors.Newf("the %s engine's process has exited", p.name)
	if !p.cmd.ProcessState.Success() {
		return errors.Newf("the %s engine's process ended (%s)", p.name, p.cmd.ProcessState)
	}
	return nil
}
