// Copyright 2026 The pebblerf Authors. All rights reserved.

package runner

import (
	"bytes"
	"fmt"
	"log"
	"testing"

	upstream "github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/stretchr/testify/require"
)

// TestHealthEmptyFlush flushes a DB whose memtable holds nothing: Pebble
// reports the flush to its listeners with an error, though nothing failed,
// and health must neither log it nor count it toward a failing store.
func TestHealthEmptyFlush(t *testing.T) {
	var logged bytes.Buffer
	defer log.SetOutput(log.Writer())
	log.SetOutput(&logged)

	h := newHealth("test")
	o := &upstream.Options{FS: vfs.NewMem(), Logger: quietLogger{}}
	var flushErrs []error
	h.attach(o)
	inner := *o.EventListener
	o.EventListener = &upstream.EventListener{}
	*o.EventListener = upstream.TeeEventListener(inner, upstream.EventListener{
		FlushEnd: func(info upstream.FlushInfo) { flushErrs = append(flushErrs, info.Err) },
	})
	db, err := upstream.Open("", o)
	require.NoError(t, err)
	defer db.Close()

	require.NoError(t, db.Flush())
	require.NotEmpty(t, flushErrs, "the empty flush reached the listeners")
	require.Error(t, flushErrs[0], "Pebble still reports an empty flush with an error")
	require.Empty(t, logged.String())
	h.mu.Lock()
	require.Zero(t, h.streak)
	h.mu.Unlock()
	require.NoError(t, h.failure())
}

// quietLogger keeps Pebble's own messages out of the log the test reads.
type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{})  {}
func (quietLogger) Errorf(string, ...interface{}) {}
func (quietLogger) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}
