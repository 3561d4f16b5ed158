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
DEMO_FLAGS := -engine=both -benchmarks=fillrandom,readrandom,seekrandom,levelstats \
	-num=200000 -reads=100000 -bloom_bits=10 -use_ribbon_filter -missing_fraction=0.5

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

# demo: a small side-by-side run of upstream Pebble and pebblerf in a
# temporary directory.
demo:
	$(GO) run ./cmd/pebblebench $(DEMO_FLAGS)

generate:
	$(GO) run ./internal/dropingen > aliases_gen.go.tmp && mv aliases_gen.go.tmp aliases_gen.go

# soak: the metamorphic harness for a chosen duration (SOAK=30m make soak).
soak:
	$(GO) test -count=1 -timeout=0 -v -run='^TestMetamorphic$$' ./internal/metamorphic \
		-metamorphic.duration=$(SOAK)
