// Copyright 2026 The pebblerf Authors. All rights reserved.

package seekstats

import (
	"fmt"
	"io"
)

// Ticker is one counter with its name, as db_bench prints its STATISTICS:
// the DB-wide tickers and the per-level ones alike (pebble's
// DB.Statistics().Tickers()). Count is an int64, as Pebble's own metrics
// counts are.
type Ticker struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// WriteTickers writes tickers in db_bench's STATISTICS format, one
// "<name> COUNT : <count>" line each, as Statistics::ToString does; the
// zero ones only if zeros is set. It returns how many were zero.
func WriteTickers(w io.Writer, tickers []Ticker, zeros bool) (zero int) {
	for _, t := range tickers {
		if t.Count == 0 {
			zero++
			if !zeros {
				continue
			}
		}
		fmt.Fprintf(w, "%s COUNT : %d\n", t.Name, t.Count)
	}
	return zero
}
