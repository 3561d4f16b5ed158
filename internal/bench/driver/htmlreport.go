// Copyright 2026 The pebblerf Authors. All rights reserved.

package driver

import (
	"fmt"
	"os"
	"time"

	"github.com/cockroachdb/errors"
	"github.com/pebblerf/pebble/internal/bench/report"
	"github.com/pebblerf/pebble/internal/bench/result"
)

// -report_html: the driver gathers, from the engines and the runs' results,
// what the report package draws.

// collectHTMLReport reads the engines' shapes and statistics and the runs'
// results.
func (d *Driver) collectHTMLReport() (*report.Report, error) {
	r := &report.Report{Title: "pebblebench " + d.cfg.Benchmarks,
		SampleEvery: time.Duration(d.cfg.ReportIntervalSeconds) * time.Second}
	for _, e := range d.engines {
		he, timeline, err := e.Report()
		if err != nil {
			return nil, err
		}
		r.Timeline = append(r.Timeline, timeline...)
		if he != nil {
			r.Engines = append(r.Engines, *he)
		}
	}
	for _, res := range d.results {
		if res.Remote != nil {
			r.Remote = append(r.Remote, res.Remote.Report(res))
			r.RemoteLegend = result.RemoteLegend
		}
	}
	if len(d.engines) == 2 {
		base, other := d.engines[0].Name(), d.engines[1].Name()
		r.RatioLabel = fmt.Sprintf("ops/sec of %s ÷ ops/sec of %s (1 = as fast; higher is better)", other, base)
		perBench := map[string][]float64{}
		var order []string
		for _, p := range d.pairs {
			bench := p[0].Benchmark
			x := result.Ratio(p[0].OpsPerSec(), p[1].OpsPerSec())
			r.Ratios = append(r.Ratios, report.Ratio{Benchmark: bench, Value: x, Text: result.FormatRatio(x)})
			if perBench[bench] == nil {
				order = append(order, bench)
			}
			perBench[bench] = append(perBench[bench], x)
		}
		// The medians are the terminal's MEDIAN lines' and the verdicts'
		// (MedianRatio over the paired runs), so the file and the terminal
		// agree.
		for _, b := range order {
			if xs := perBench[b]; len(xs) > 1 {
				m := result.MedianRatio(xs)
				r.Medians = append(r.Medians, report.Ratio{Benchmark: fmt.Sprintf("%s [MEDIAN %d runs]", b, len(xs)), Value: m, Text: result.FormatRatio(m)})
			}
		}
	}
	return r, nil
}

// writeHTMLReport writes -report_html, and keeps what it drew for a
// scenario to add its result to (HTMLReport).
func (d *Driver) writeHTMLReport() error {
	r, err := d.collectHTMLReport()
	if err != nil {
		return err
	}
	if err := WriteHTMLReport(d.cfg.ReportHTML, r); err != nil {
		return err
	}
	d.htmlReport = r
	fmt.Fprintf(d.out, "wrote the HTML report %s\n", d.cfg.ReportHTML)
	return nil
}

// HTMLReport returns the report Run wrote to -report_html, nil without
// one.
func (d *Driver) HTMLReport() *report.Report { return d.htmlReport }

// WriteHTMLReport writes r to path.
func WriteHTMLReport(path string, r *report.Report) error {
	return errors.Wrapf(os.WriteFile(path, []byte(r.Render()), 0o644), "writing -report_html %s", path)
}
