# Squall — build, test, bench and perft targets.
#   make                 release binary in target/release/squall
#   make EXE=path/name   the same, copied to path/name (OpenBench convention)
#   make test            what CI runs: fmt, clippy, tests (release, then debug with invariant checks)
#   make bench           criterion benches of the hot routines (asm-free-bench/)
#   make perft           every depth of every perft suite position (several minutes)
#   make book            fetches book_1.02.pgn (Debian's gnuchess-book source) into data/ and
#                        builds the default opening book book/squall.bin from it
#   make wac|ecm|wcsac   tactical suites at the standard times (1 s, 5 s, 1 s per position,
#                        one thread); JSON reports in reports/ (git-ignored), compared with the
#                        previous run's report when there is one

CARGO   ?= cargo
BIN     := target/release/squall
THREADS ?= $(shell nproc 2>/dev/null || echo 1)

.PHONY: all build test bench perft clean wac ecm wcsac book

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

# The default book: the first 30 plies of each game, moves played in at least 3 games
# (PolyGlot make-book's default), weighted as make-book weights them.
BOOK_ARGS ?= --max-ply 30 --min-games 3

book: build
	bash tools/fetch-book-pgn.sh data
	mkdir -p book
	$(BIN) book build data/book_1.02.pgn -o book/squall.bin $(BOOK_ARGS)

SUITE_ARGS ?= --threads 1 --hash 64

# $(call suite,NAME,FILE,MS): run FILE at MS per position, keep reports/NAME-MS.json and the
# previous one as reports/NAME-MS.prev.json, and compare the two.
define suite
	mkdir -p reports
	if [ -f reports/$(1)-$(3).json ]; then cp reports/$(1)-$(3).json reports/$(1)-$(3).prev.json; fi
	$(BIN) suite $(2) --movetime $(3) $(SUITE_ARGS) --report reports/$(1)-$(3).json \
		$$( [ -f reports/$(1)-$(3).prev.json ] && echo --compare reports/$(1)-$(3).prev.json ) \
		| tee reports/$(1)-$(3).txt
endef

wac: build
	$(call suite,wac,suites/wac.epd,1000)

ecm: build
	$(call suite,ecm,suites/ecm.epd,5000)

wcsac: build
	$(call suite,wcsac,suites/wcsac.epd,1000)

clean:
	$(CARGO) clean
