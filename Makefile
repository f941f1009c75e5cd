# Squall — build, test, bench and perft targets.
#   make                 release binary in target/release/squall
#   make EXE=path/name   the same, copied to path/name (OpenBench convention)
#   make test            what CI runs: fmt, clippy, tests (release, then debug with invariant checks)
#   make bench           criterion benches of the hot routines (asm-free-bench/)
#   make perft           every depth of every perft suite position (several minutes)

CARGO   ?= cargo
BIN     := target/release/squall
THREADS ?= $(shell nproc 2>/dev/null || echo 1)

.PHONY: all build test bench perft clean

all: build

build:
	$(CARGO) build --release
ifdef EXE
	mkdir -p "$(dir $(EXE))"
	cp $(BIN) "$(EXE)"
endif

test:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test --release
	$(CARGO) test

bench:
	$(CARGO) bench --bench hot

perft: build
	$(BIN) perft --suite suites/perftsuite.epd --threads $(THREADS)
	$(BIN) perft --suite suites/perft_cpw.epd --threads $(THREADS)

clean:
	$(CARGO) clean
