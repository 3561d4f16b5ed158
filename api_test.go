// Copyright 2026 The pebblerf Authors. All rights reserved.

package pebble

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pebblerf/pebble/internal/apilist"
	"github.com/stretchr/testify/require"
)

// maxAPI bounds the public API's identifiers (the generated upstream
// aliases apart).
const maxAPI = 300

// TestAPI records the exported API of the public packages in testdata/api,
// so that every change of the compatibility promise shows as a diff there.
// After a deliberate change, regenerate it with
//
//	go test -run TestAPI -rewrite .
//
// The promise is kept small: at most maxAPI identifiers, each one a user
// calls or reads; the wiring lives under internal/.
func TestAPI(t *testing.T) {
	list, err := apilist.List(".")
	require.NoError(t, err)
	var total int
	for _, line := range strings.Split(list, "\n") {
		if n, ok := strings.CutPrefix(line, "total: "); ok {
			total, err = strconv.Atoi(n)
			require.NoError(t, err)
		}
	}
	require.Positive(t, total, "no total in the API list")
	require.LessOrEqual(t, total, maxAPI, "the public API grew past %d identifiers: move wiring under internal/", maxAPI)

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
