// Copyright 2026 The pebblerf Authors. All rights reserved.

package engineproc

import (
	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/benchmarks"
	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/lsm"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/internal/bench/result"
	"github.com/pebblerf/pebble/internal/bench/runner"
)

// The protocol: the parent sends requests on one pipe, the engine's
// process answers on another, both gob streams. Every request but a turn
// gets one final reply; a run's reply is preceded by its progress and, when
// it takes turns, by one turnOver for every turn it hands back. The parent
// sends nothing else while a run is under way but the turns it relays.

// op is what a request asks: a runner.Engine method, a turn, or exit.
type op uint8

const (
	opBegin op = iota + 1
	opStart
	opPrepare
	opRun
	opMeta
	opExplain
	opLevelTable
	opShape
	opReport
	opEnd
	// opTurn gives a run that takes turns its next turn.
	opTurn
	// opExit ends the process, its CPU profile written.
	opExit
)

// request is one message from the parent; each op reads its own fields.
type request struct {
	Op op
	// Config and Root are Begin's.
	Config *config.Config
	Root   string
	// Bench is Prepare's, Run's and Meta's; Seq is Run's.
	Bench string
	Seq   int
	// Interleave is Run's -interleave: its operations per turn, 0 for a
	// whole run.
	Interleave int64
}

// kind is what a reply is.
type kind uint8

const (
	// final answers a request.
	final kind = iota + 1
	// progressMade publishes a run's operations so far.
	progressMade
	// turnOver hands the turn back: the run waits for its next opTurn.
	turnOver
	// finished says the run that took turns is done with its last one.
	finished
)

// reply is one message from the engine's process; each request's answer
// fills its own fields.
type reply struct {
	Kind kind
	// Err is the request's error, nil on success.
	Err *wireError

	Setup    runner.Setup
	Result   *result.Result
	Text     string
	Meta     *benchmarks.MetaData
	Shape    []lsm.Level
	Engine   *report.Engine
	Timeline []report.FunnelSample
	// Done and Limit are a progress reply's counts.
	Done, Limit int64
}

// wireError is an error as it crosses: its message, and whether it is a
// usage error (exit status 2), the one kind pebblebench treats apart.
type wireError struct {
	Msg   string
	Usage bool
}

func toWire(err error) *wireError {
	if err == nil {
		return nil
	}
	return &wireError{Msg: err.Error(), Usage: config.IsUsageError(err)}
}

func (w *wireError) err() error {
	switch {
	case w == nil:
		return nil
	case w.Usage:
		return &config.UsageError{Msg: w.Msg}
	}
	return errors.Newf("%s", w.Msg)
}
