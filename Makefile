# Stipple: every task a person does is a make target.
#   make run     install what is missing, build, render the demo to out/demo.png
#   make test    install what is missing, build, run the whole suite (and `make integrations`)
#   make goldens re-record Fixtures/golden/ (only for an intended change: say why in your note)
SHELL := /bin/bash
SWIFT ?= swift
OUT ?= out

# Debian packages Stipple builds and runs with: EGL/GLES/GBM/PNG headers, and Mesa's
# EGL vendor library and DRI drivers (llvmpipe, softpipe) for machines without a GPU.
APT_PACKAGES := libegl-dev libgles-dev libgbm-dev libpng-dev pkg-config \
                libegl1 libegl-mesa0 libgles2 libgbm1 libgl1-mesa-dri

# For the tests only: headless Chromium opens the HTML report and serve's page (the tests skip without it);
# ffmpeg is the video tests' oracle and the bake's container reader/writer (they skip without it);
# libvips's `vips dzsave` is the pyramids' anchor (names, sizes, overlaps) and Leaflet shows an xyz
# pyramid in Chromium (each skipped without it); libturbojpeg0 and libwebp7, loaded at run time,
# encode JPEG and WebP tiles.
TEST_APT_PACKAGES := chromium ffmpeg libvips-tools libjs-leaflet libturbojpeg0 libwebp7
# For the benchmark only: Cairo, the CPU peer, and libdeflate, the PNG coders' peer (both
# loaded at run time; skipped without them), vips (the views scenario's pyramid peer), and
# cairocffi, numpy and pillow for the ink scenario's Python peer (pip; skipped without them).
BENCH_APT_PACKAGES := libcairo2 libdeflate0 libvips-tools

# Random scripts through every path (see Tests/StippleTests/Differential): N scripts from SEED.
N ?= 200
SEED ?= 1

.PHONY: differential docs integrations test-bare-clone fuzz-smoke deps test-deps bench-deps apt-install build build-release run test bench bench-views bench-serve soak-serve bench-session soak-session goldens soak sanitize fuzz fuzz-cli examples clean

deps:
	@command -v $(SWIFT) >/dev/null || { echo "Stipple needs Swift 6 (swift not found on PATH)"; exit 1; }
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(APT_PACKAGES)"

test-deps: deps
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_APT_PACKAGES)"

bench-deps: deps
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(BENCH_APT_PACKAGES)"
	@python3 -c "import cairocffi, numpy, PIL" 2>/dev/null || python3 -m pip install --quiet cairocffi numpy pillow \
	    || echo "The ink scenario's Python peer is skipped without: python3 -m pip install cairocffi numpy pillow"

# Installs the Debian packages in PACKAGES that are missing (as root), or prints the command.
apt-install:
	@missing=$$(for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done | xargs); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing: $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "Stipple needs these Debian packages: $$missing"; \
	    echo "Install them with:"; \
	    echo "  sudo apt-get update && sudo apt-get install -y $$missing"; \
	    exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

build-release: deps
	$(SWIFT) build -c release --product stipple

run: build-release
	@mkdir -p $(OUT)
	$$($(SWIFT) build -c release --show-bin-path)/stipple render Fixtures/scripts/demo.json -o $(OUT)/demo.png
	@echo "Rendered the demo: $(OUT)/demo.png"

# The suite runs its tests in TEST_WORKERS processes at once: many wait on child processes
# (stipple, ffmpeg, Chromium, a server), so one more than this machine's two cores keeps
# both busy. TEST_WORKERS=1 runs them one after another in one process.
TEST_WORKERS ?= 3
test: test-deps
	$(SWIFT) build --build-tests
	@if [ "$(TEST_WORKERS)" -gt 1 ]; then $(SWIFT) test --skip-build --parallel --num-workers $(TEST_WORKERS); \
	  else $(SWIFT) test --skip-build; fi
	$(MAKE) integrations

# The tests that read third-party images and ink kept beside a checkout, run as a bare clone
# runs them (STIPPLE_THIRD_PARTY=none: none there): each must skip with its reason, not fail.
test-bare-clone: test-deps
	$(SWIFT) build --build-tests
	STIPPLE_THIRD_PARTY=none $(SWIFT) test --skip-build --filter 'PixelmatchParityTests|InkMLReaderTests|QuickDrawReaderTests|InkAtlasTests|InkLinesTests'

# More random scripts through every path than `make test` runs: `make differential N=1000 SEED=7`.
differential: test-deps
	$(SWIFT) build --build-tests
	STIPPLE_DIFFERENTIAL_CASES=$(N) STIPPLE_DIFFERENTIAL_SEED=$(SEED) $(SWIFT) test --skip-build --filter DifferentialTests

# The swift-snapshot-testing strategies (Integrations/StippleSnapshotTesting: a package of its
# own, depending on Stipple by path, so Stipple's users never build swift-snapshot-testing).
# Built and tested in its own .build; its failing comparisons attach their diff images,
# which `swift test --attachments-path` must collect.
INTEGRATION := $(CURDIR)/Integrations/StippleSnapshotTesting
integrations: deps
	$(SWIFT) build --package-path $(INTEGRATION) --build-tests
	@rm -rf $(INTEGRATION)/.build/attachments && mkdir -p $(INTEGRATION)/.build/attachments
	$(SWIFT) test --package-path $(INTEGRATION) --skip-build --attachments-path $(INTEGRATION)/.build/attachments
	@n=$$(find $(INTEGRATION)/.build/attachments -name '*.png' | wc -l); \
	  if [ "$$n" -lt 1 ]; then echo "integrations: no diff image was attached"; exit 1; fi; \
	  echo "integrations: $$n diff images attached"

# The standard benchmark set (about 7 minutes here), with its chart: see docs/benchmark.md.
bench: bench-deps build-release
	@mkdir -p $(OUT)
	$$($(SWIFT) build -c release --show-bin-path)/stipple bench --chart $(OUT)/bench.svg | tee $(OUT)/bench.txt
	@echo "Table: $(OUT)/bench.txt, chart: $(OUT)/bench.svg"

# A heavy drawing looked at (docs/views.md; not in `make bench`, minutes): a pyramid against
# render + vips dzsave, a view against its rectangle alone, a 65536² pyramid's peak memory.
bench-views: bench-deps build-release
	@mkdir -p $(OUT)
	$$($(SWIFT) build -c release --show-bin-path)/stipple bench --scenario views | tee $(OUT)/bench-views.txt

# `stipple serve` under load on loopback (docs/serve.md; not in `make bench`, about 2 minutes):
# 50 viewers asking for tiles of random views and 5 drawers at 120 touch events a second for
# 60 s on a 16384² drawing, then a client panning at 60 views a second.
bench-serve: bench-deps build-release
	@mkdir -p $(OUT)
	$$($(SWIFT) build -c release --show-bin-path)/stipple bench --scenario serve | tee $(OUT)/bench-serve.txt

# The same load for 10 minutes (opt-in): the server's memory once its tile cache is full
# against its end, which must not grow.
soak-serve: bench-deps build-release
	@mkdir -p $(OUT)
	$$($(SWIFT) build -c release --show-bin-path)/stipple bench --scenario serve --serve-seconds 600 | tee $(OUT)/soak-serve.txt

# Drawing sessions at full size (docs/sessions.md; not in `make bench`): undo latency over
# 1 000 baked strokes, 3 000 frames of a long session, 10 000 strokes at maxAge 0, a
# 4096×4096 save while 100 frames are drawn.
bench-session: bench-deps build-release
	@mkdir -p $(OUT)
	$$($(SWIFT) build -c release --show-bin-path)/stipple bench --scenario session --session-strokes 10000 | tee $(OUT)/bench-session.txt

# The soak (outside make test; about 10 minutes here): a Periscope session of 200 000 frames
# (30 fps, M = 110, a stroke every 2 s): frame time and RSS flat, GL buffers bounded.
SOAK_FRAMES ?= 200000
soak-session: bench-deps build-release
	@mkdir -p $(OUT)
	$$($(SWIFT) build -c release --show-bin-path)/stipple bench --scenario session --session-frames $(SOAK_FRAMES) | tee $(OUT)/soak-session.txt

# Records missing goldens and re-records those the images no longer match (llvmpipe, points).
# Only for an intended change: say why in the note, with the before/after figures.
goldens: build
	$$($(SWIFT) build --show-bin-path)/stipple test Fixtures/scripts --golden Fixtures/golden --record

# Exit soak, outside `make test`: SOAK_RUNS renders (default 5000) over a mix of
# scripts, two at a time; any abort, signal or stderr output fails it. About 10 minutes here.
SOAK_RUNS ?= 5000
soak: build
	scripts/soak.sh $$($(SWIFT) build --show-bin-path)/stipple $(SOAK_RUNS) 2

# The suite under ThreadSanitizer and AddressSanitizer, each in its own scratch folder
# (slow: a full build each). The C shim is instrumented too. Swift's crash backtracer is off:
# it reads a crashed process's memory in a way ASan reports, then hangs. LeakSanitizer checks
# every `stipple` the tests run (TestSupport.run turns it back on for them), not the test
# runner itself, whose leftovers at exit are XCTest's own objects.
sanitize: test-deps
	$(SWIFT) build --build-tests --scratch-path .build-tsan -Xswiftc -sanitize=thread -Xcc -fsanitize=thread
	SWIFT_BACKTRACE=enable=no $(SWIFT) test --skip-build --scratch-path .build-tsan
	$(SWIFT) build --build-tests --scratch-path .build-asan -Xswiftc -sanitize=address -Xcc -fsanitize=address
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp:print_suppressions=0 \
	  $(SWIFT) test --skip-build --scratch-path .build-asan

# In-process fuzzing, outside `make test`: the Fuzz/ package's libFuzzer targets, one
# per reader, built with libFuzzer and AddressSanitizer, each run FUZZ_RUNS times (or for
# FUZZ_TIME seconds, 0 = no limit) over a copy of its seed corpus Fuzz/corpus/<target>/.
# Logs, summary and any reproducer go to $(OUT)/fuzz/. A finding fails it.
FUZZ_RUNS ?= 1000000
FUZZ_TIME ?= 0
FUZZ_TARGETS ?= FuzzScript FuzzSketchpoints FuzzPNG FuzzTestConfig FuzzY4M FuzzInkML FuzzQuickDraw
# Release (-O keeps Swift's overflow, bounds and precondition checks; ASan sees every access):
# about 10x the executions a second of a debug build, so 1 000 000 a target is minutes, not hours.
FUZZ_CONFIG ?= release
FUZZ_BUILD = cd Fuzz && $(SWIFT) build -c $(FUZZ_CONFIG) -Xswiftc -sanitize=address \
              -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
              -Xcc -fsanitize=fuzzer-no-link,address --scratch-path ../.build-fuzz
fuzz: deps
	$(FUZZ_BUILD)
	scripts/fuzz.sh "$$($(FUZZ_BUILD) --show-bin-path)" $(OUT)/fuzz $(FUZZ_RUNS) $(FUZZ_TIME) $(FUZZ_TARGETS)

# Every fuzz target built and run briefly (its seed corpus and 2 000 inputs): what CI runs,
# in a debug build (the same checks, a build in half the time; the runs are short anyway).
fuzz-smoke:
	$(MAKE) --no-print-directory fuzz FUZZ_RUNS=2000 FUZZ_TIME=0 FUZZ_CONFIG=debug

# The command line fuzzed over its whole grammar (scripts with every brush-mode key, session
# entries, events lines; render, bake, bisect, compare, stamps, describe, convert with their
# numbers at every bound): FUZZ_CASES runs of the release build, two at a time, from FUZZ_SEED.
# A crash, hang, memory past 2 GiB, a refusal that is not one line, a changed input, a failed
# run's leftovers or out-of-range input accepted fails it; the counts per command and class,
# and each finding's files, go to $(OUT)/fuzz-cli/. `make test` runs 40 cases of it.
FUZZ_CASES ?= 5000
FUZZ_SEED ?= 1
fuzz-cli: build-release
	$(SWIFT) build --build-tests
	STIPPLE_FUZZ_CASES=$(FUZZ_CASES) STIPPLE_FUZZ_SEED=$(FUZZ_SEED) STIPPLE_FUZZ_OUT=$(abspath $(OUT))/fuzz-cli \
	  STIPPLE_FUZZ_BINARY=$$($(SWIFT) build -c release --show-bin-path)/stipple \
	  $(SWIFT) test --skip-build --filter CLIGrammarFuzzTests

# The brush-mode examples (examples/brush-modes/*.json) rendered into docs/images/, with the
# photo they retouch as the "before" picture; the ink examples (examples/ink/; the grid is
# laid out with Pillow).
MODE_EXAMPLES := blends effects edges shadow photo-retouch shadows-and-eraser
examples: build-release
	@mkdir -p docs/images
	cp examples/brush-modes/photo.png docs/images/brush-modes-before.png
	for e in $(MODE_EXAMPLES); do \
	  $$($(SWIFT) build -c release --show-bin-path)/stipple render examples/brush-modes/$$e.json \
	    -o docs/images/brush-modes-$$e.png || exit 1; done
	$$($(SWIFT) build -c release --show-bin-path)/stipple render examples/ink/formula.inkml --size 760x210 \
	  -o docs/images/ink-formula.png
	rm -rf $(OUT)/ink-shapes
	$$($(SWIFT) build -c release --show-bin-path)/stipple render examples/ink/shapes.ndjson --size 160x160 -o $(OUT)/ink-shapes/
	python3 examples/ink/grid.py $(OUT)/ink-shapes docs/images/ink-quickdraw-grid.png

clean:
	rm -rf .build .build-tsan .build-asan .build-fuzz Fuzz/.build $(OUT)

# API documentation: DocC archives of Stipple, StippleGolden and StippleTesting in out/docs/
# (swift-docc-plugin; every warning is an error).
DOC_TARGETS := Stipple StippleGolden StippleTesting
docs: deps
	@mkdir -p $(OUT)/docs
	@for t in $(DOC_TARGETS); do \
	  $(SWIFT) package --allow-writing-to-directory $(OUT)/docs generate-documentation --target $$t \
	    --output-path $(OUT)/docs/$$t.doccarchive --warnings-as-errors --transform-for-static-hosting || exit 1; \
	done
	@echo "Documentation: $(OUT)/docs/{$(shell echo $(DOC_TARGETS) | tr ' ' ',')}.doccarchive"
