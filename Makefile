# Squall — build, test, bench and perft targets.
#   make                 release binary in target/release/squall, profile-guided (PGO=0: plain)
#   make EXE=path/name   the same, copied to path/name (OpenBench convention)
#   make run             build, make the default book if missing (needs apt), start the engine
#   make test            what CI runs: fmt, import circles and file lengths, clippy (every
#                        crate, default and every feature), the bench signature against BENCH
#                        (default and tune builds), tests (profile `ci`: release without
#                        fat LTO; then debug with invariant checks)
#   make lab             the developers' tools: target/release/squall-lab (tune, datagen, ...)
#   make ics             the server bot: target/release/squall-ics
#   make bench           criterion benches of the hot routines (engine/benches/)
#   make perft           every depth of every perft suite position (several minutes)
#   make data            tuner input in data/ (git-ignored): quiet positions from the 145,716
#                        games of book_1.02.pgn (Debian's gnuchess-book source), and from
#                        self-play (DATAGEN_GAMES games at DATAGEN_NODES nodes per move, each
#                        position with its search score; resumable) with a held-out file of
#                        VALIDATION_GAMES games of another seed
#   make sfdata          data/selfplay.epd labelled by Debian's Stockfish (tools/sf_relabel.py:
#                        SF_NODES nodes a position, SF_PARTS processes, resumable with the same
#                        SF_PARTS), rescaled to Squall's centipawns by SF_SCALE: data/sfs-selfplay.epd
#   make tune            fit the weights to data/ and write data/weights.rs (copy it over
#                        engine/src/eval/weights.rs to adopt it)
#   make imbalance       material imbalances by self-play (squall-lab imbalance): IMBALANCE_GAMES
#                        games per class at IMBALANCE_NODES nodes per move, on every core;
#                        progress on stderr, the table in reports/imbalance.txt (git-ignored).
#                        About 0.5 s of CPU per game at 5000 nodes: 8 classes x 1000 games
#                        is about 70 core-minutes, 35 minutes on two idle cores
#   make book            fetches book_1.02.pgn (Debian's gnuchess-book source) into data/ and
#                        builds the default opening book book/squall.bin from it
#   make wac|ecm|wcsac   tactical suites at the standard times (1 s, 5 s, 1 s per position,
#                        one thread); JSON reports in reports/ (git-ignored), compared with the
#                        previous run's report when there is one

CARGO   ?= cargo
PGO     ?= 1
BIN     := target/release/squall
LAB     := target/release/squall-lab
ICS     := target/release/squall-ics
THREADS ?= $(shell nproc 2>/dev/null || echo 1)

.PHONY: all build run test bench perft clean wac ecm wcsac data sfdata tune book imbalance lab ics bench-signature

DATA          ?= data
DATAGEN_GAMES ?= 100000
DATAGEN_NODES ?= 5000
VALIDATION_GAMES ?= 2000
SF_NODES ?= 5000
SF_PARTS ?= $(THREADS)
# Fitted on 141,000 seed-7 positions at 5,000 nodes (docs/tuning.md, `sf_relabel.py fit`).
SF_SCALE ?= 1.193
TUNE_ARGS     ?= --epochs 400 --lambda 0.5
IMBALANCE_GAMES ?= 1000
IMBALANCE_NODES ?= 5000

all: build

# The release binary, profile-guided (tools/pgo-build.sh: an instrumented build runs
# `squall bench`, then the release build uses that profile); PGO=0, or no llvm-profdata,
# gives a plain `cargo build --release`.
build:
	CARGO="$(CARGO)" PGO="$(PGO)" tools/pgo-build.sh
ifdef EXE
	mkdir -p "$(dir $(EXE))"
	cp $(BIN) "$(EXE)"
endif

lab:
	$(CARGO) build --release -p squall-lab

ics:
	$(CARGO) build --release -p squall-ics

test:
	$(CARGO) fmt --all --check
	python3 tools/import_cycles.py --max-lines 800 engine/src bot/src lab/src
	tools/check-variants.sh
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy --workspace --all-targets --all-features -- -D warnings
	$(CARGO) test --workspace --profile ci
	tools/check-bench.sh target/ci/squall
	$(CARGO) build --profile ci -p squall --features tune --target-dir target/tune
	tools/check-bench.sh target/tune/ci/squall
	$(CARGO) test --profile ci -p squall --features tune --target-dir target/tune --test tune --test spsa
	$(CARGO) test --workspace

# The bench signature of a plain release build against the number recorded in BENCH.
bench-signature:
	$(CARGO) build --release
	tools/check-bench.sh $(BIN)

bench:
	$(CARGO) bench -p squall --bench hot

perft: build
	$(BIN) perft --suite suites/perftsuite.epd --threads $(THREADS)
	$(BIN) perft --suite suites/perft_cpw.epd --threads $(THREADS)

data: lab
	tools/fetch-book-pgn.sh $(DATA)
	$(LAB) extract $(DATA)/book_1.02.pgn -o $(DATA)/book-quiet.epd --per-game 5 --seed 1
	$(LAB) datagen -o $(DATA)/validation.epd --games $(VALIDATION_GAMES) --nodes $(DATAGEN_NODES) --seed 2
	$(LAB) datagen -o $(DATA)/selfplay.epd --games $(DATAGEN_GAMES) --nodes $(DATAGEN_NODES) --seed 1

sfdata:
	tools/sf_relabel.py label $(DATA)/selfplay.epd $(DATA)/sf-selfplay.epd --nodes $(SF_NODES) --parts $(SF_PARTS) --all
	tools/sf_relabel.py rescale $(DATA)/sf-selfplay.epd $(DATA)/sfs-selfplay.epd --scale $(SF_SCALE)

tune: lab
	$(LAB) tune $(DATA)/selfplay.epd --validation-data $(DATA)/validation.epd $(TUNE_ARGS) --out $(DATA)/weights.rs

imbalance: lab
	mkdir -p reports
	$(LAB) imbalance --games-per-class $(IMBALANCE_GAMES) --nodes $(IMBALANCE_NODES) \
		--threads $(THREADS) --seed 1 > reports/imbalance.txt
	cat reports/imbalance.txt

# The default book: the first 30 plies of each game, moves played in at least 3 games
# (PolyGlot make-book's default), weighted as make-book weights them.
BOOK_ARGS ?= --max-ply 30 --min-games 3

# Builds the engine, makes the default book the first time (when the PGN can be fetched; the
# engine plays without a book otherwise) and starts the engine.
run: build
	@[ -f book/squall.bin ] || $(MAKE) --no-print-directory book || \
		echo "no default book: book_1.02.pgn could not be fetched; playing without one" >&2
	$(BIN)

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
