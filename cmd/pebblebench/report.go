// Copyright 2026 The pebblerf Authors. All rights reserved.

package main

import (
	"runtime"

	"github.com/pebblerf/pebble/internal/bench/config"
	"github.com/pebblerf/pebble/internal/bench/engine"
)

// jsonConfig is the first -json record: every flag's value by its name
// (the seed as drawn when -seed was 0), the engines' DB directories, the
// versions, and the fill recorded with an existing DB. With it a line of
// results can be traced to the command that made it.
type jsonConfig struct {
	Record        string         `json:"record"`
	Seed          int64          `json:"seed"`
	Engines       []string       `json:"engines"`
	DB            string         `json:"db"`
	Fill          *fillRecord    `json:"fill,omitempty"`
	PebbleVersion string         `json:"pebble_version"`
	GoVersion     string         `json:"go_version"`
	GOMAXPROCS    int            `json:"gomaxprocs"`
	NumCPU        int            `json:"num_cpu"`
	Flags         map[string]any `json:"flags"`
}

func configRecord(c *config.Config, root string, fill *fillRecord) jsonConfig {
	return jsonConfig{
		Record: "config", Seed: c.Seed, Engines: c.Engines(), DB: root, Fill: fill,
		PebbleVersion: engine.UpstreamVersion(), GoVersion: runtime.Version(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(), Flags: c.FlagValues,
	}
}
