# pebblerf's build. Every target works on a fresh machine with only Go
# installed: tools are fetched through the Go module proxy by go run.

GO ?= go
PKGS := ./...
# Packages whose tests exercise concurrency (filters queried from many
# goroutines, statistics ticked by concurrent iterators and Gets, background
# compaction drivers) run again, in their short form, under the race
# detector.
RACE_PKGS := . ./pointfilter/... ./rangefilter/... ./seekstats/... ./compactionext/... ./querybuilder/...
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 10s
SOAK ?= 10m

.PHONY: build test race lint bench fuzz demo soak generate

build:
	$(GO) build $(PKGS)

# test: all unit tests, then the race detector where it matters.
test: build
	$(GO) test -count=1 $(PKGS)
	$(GO) test -count=1 -short -race $$($(GO) list $(RACE_PKGS) 2>/dev/null)

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

# demo: three scenarios (range filters, the query builder on staggered
# runs, Ribbon filters) at a small scale, upstream Pebble and pebblerf side
# by side in a temporary directory, ending with a table of their verdicts.
# The binary is built first, so the timed part is the demo alone.
DEMO_BIN := $(or $(TMPDIR),/tmp)/pebblerf-demo-pebblebench
demo:
	@echo "building pebblebench (go build ./cmd/pebblebench) ..."
	@$(GO) build -o $(DEMO_BIN) ./cmd/pebblebench
	@echo "running pebblebench -scenario=demo (about a minute) ..."
	@$(DEMO_BIN) -scenario=demo

generate:
	$(GO) run ./internal/dropingen > aliases_gen.go.tmp && mv aliases_gen.go.tmp aliases_gen.go

# soak: the metamorphic harness for a chosen duration (SOAK=30m make soak).
soak:
	$(GO) test -count=1 -timeout=0 -v -run='^TestMetamorphic$$' ./internal/metamorphic \
		-metamorphic.duration=$(SOAK)
