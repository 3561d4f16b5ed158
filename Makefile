# pebblerf's build. Every target works on a fresh machine with only Go
# installed: tools are fetched through the Go module proxy by go run.

GO ?= go
PKGS := ./...
# Packages whose tests exercise concurrency (filters queried from many
# goroutines, statistics ticked by concurrent iterators and Gets, background
# compaction drivers) run again, in their short form, under the race
# detector.
RACE_PKGS := . ./pointfilter/... ./rangefilter/... ./seekstats/... ./compactionext/... ./querybuilder/... ./objstore/... ./internal/ycsb/... \
	./internal/attribution/... ./internal/iterhooks/... ./promstats/...
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 10s
SOAK ?= 10m

.PHONY: build test race ci lint bench fuzz demo docs soak generate report-check test-s3

build:
	$(GO) build $(PKGS)

# test: every unit, differential and example test: the loop to run before
# each commit. The race detector's run is `make race`, the real S3 server's
# `make test-s3`; CI runs all three (`make ci`).
test: build
	$(GO) test -count=1 $(PKGS)

# race: the concurrent packages' tests, in their short form, under the race
# detector.
race:
	$(GO) test -count=1 -short -race $$($(GO) list $(RACE_PKGS) 2>/dev/null)

# test-s3: objstore's tests against a real S3 server, SeaweedFS on 127.0.0.1 (built once per
# machine into ~/.cache/pebblerf, several minutes the first time), with its processes killed
# in turn, and a pebblebench remote scenario on it; PEBBLERF_S3_TEST_URL points the suite at
# another endpoint instead (scripts/test-s3.sh).
test-s3:
	GO=$(GO) scripts/test-s3.sh

# ci: what .ci/run runs on a clean checkout.
ci: test race test-s3

lint:
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then \
		echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)

bench:
	$(GO) test -run='^$$' -bench=. -benchmem $(PKGS)

# fuzz: every Fuzz target, briefly. go test -fuzz takes one target at a time.
fuzz:
	@for pkg in $$($(GO) list $(PKGS)); do \
		for target in $$($(GO) test -list='^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$target"; \
			$(GO) test -run='^$$' -fuzz="^$$target$$" -fuzztime=$(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

# demo: four scenarios (range filters, the query builder on staggered
# runs, Ribbon filters, and range filters with the tables on a simulated
# object store) at a small scale, upstream Pebble and pebblerf side by side
# in a temporary directory, ending with a table of their verdicts.
# pebblebench is built first, into a temporary directory removed at the
# end, so that the demo's own time is its runs and nothing is left behind.
demo:
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	echo "building pebblebench (go build ./cmd/pebblebench) ..." && \
	$(GO) build -o "$$dir/pebblebench" ./cmd/pebblebench && \
	echo "running pebblebench -scenario=demo (about half a minute) ..." && \
	"$$dir/pebblebench" -scenario=demo

# docs: regenerates the sample outputs the README and docs/ show (each
# marked "make docs:" with its command, run at a scale of seconds; the
# README's demo table reruns the demo). make test's TestDocs fails when a
# sample drifts, or when the docs name a flag, Go name, ticker or benchmark
# that no longer exists.
docs:
	$(GO) test -count=1 -run '^TestDocs$$' ./cmd/pebblebench -docs.rewrite

# report-check: a small -report_html (both engines, per-level statistics,
# bounded seeks) rendered by headless Chromium to a PNG, to look at; skipped
# with a message when Chromium is absent (Debian: apt-get install chromium).
REPORT_DIR := $(or $(TMPDIR),/tmp)/pebblerf-report-check
CHROMIUM ?= chromium
report-check:
	@if ! command -v $(CHROMIUM) >/dev/null 2>&1; then \
		echo "report-check: $(CHROMIUM) not found, skipped (apt-get install chromium)"; exit 0; fi; \
	rm -rf $(REPORT_DIR) && mkdir -p $(REPORT_DIR) && \
	$(GO) build -o $(REPORT_DIR)/pebblebench ./cmd/pebblebench && \
	$(REPORT_DIR)/pebblebench -engine=both -db=$(REPORT_DIR)/db -seed=7 -num=200000 -writes=20000 \
		-write_buffer_size=262144 -bloom_bits=10 -pebblerf_statistics \
		-benchmarks=fillrandom,flush,overwrite,flush,seekrandom,readrandom -reads=3000 \
		-seek_upper_bound_len=8 -empty_range_fraction=0.5 -seek_nexts=1 \
		-report_html=$(REPORT_DIR)/report.html >$(REPORT_DIR)/pebblebench.out && \
	$(CHROMIUM) --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run \
		--user-data-dir=$(REPORT_DIR)/chromium --window-size=1000,2800 \
		--screenshot=$(REPORT_DIR)/report.png file://$(REPORT_DIR)/report.html 2>$(REPORT_DIR)/chromium.log && \
	test -s $(REPORT_DIR)/report.png && \
	echo "report-check: $(REPORT_DIR)/report.html rendered to $(REPORT_DIR)/report.png"

generate:
	$(GO) run ./internal/dropingen > aliases_gen.go.tmp && mv aliases_gen.go.tmp aliases_gen.go

# soak: the metamorphic harness for a chosen duration (SOAK=30m make soak).
soak:
	$(GO) test -count=1 -timeout=0 -v -run='^TestMetamorphic$$' ./internal/metamorphic \
		-metamorphic.duration=$(SOAK)
