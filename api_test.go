// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pebblerf/pebble/internal/apilist"
)

// TestAPI records the exported API of the public packages in testdata/api,
// so that every change of the compatibility promise shows as a diff there,
// to be reviewed like code: each name one a user calls or reads. After a
// deliberate change, regenerate it with
//
//	go test -run TestAPI -rewrite .
func TestAPI(t *testing.T) {
	datadriven.RunTest(t, "testdata/api", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "api" {
			d.Fatalf(t, "unknown command %q", d.Cmd)
		}
		list, err := apilist.List(".")
		if err != nil {
			d.Fatalf(t, "%v", err)
		}
		return list
	})
}
