# authflow: `make run` starts the shell, `make test` runs every check. Both install missing
# Debian packages first (apt-get as root, otherwise they print the sudo line to run).

SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

SWIFT ?= swift
# System C libraries the package links, and the tools the tests and benchmarks drive.
BUILD_PACKAGES := libsqlite3-dev libcrypt-dev libssl-dev libedit-dev libevent-dev libqrcodegen-dev libtomlplusplus-dev libcurl4-openssl-dev libpq-dev \
	nettle-dev libsecp256k1-dev libxml2-dev pkg-config
TEST_PACKAGES := sqlite3 python3 python3-pexpect python3-venv groff-base man-db bash zsh fish postgresql \
	chromium chromium-driver
BENCH_PACKAGES := wrk
COVERAGE_FLOORS := AuthFlow=90 Clocks=90 AuthCrypto=85 PrivateFiles=85 GoTrue=85 AuthFlowGoTrue=85 \
	GoTrueEngine=85 AccountStore=85 HTTPClient=80 HTTPServer=80 AuthServer=80 CommandLineOptions=90 \
	SupabaseREST=85 AuthFlowFirebase=85 IdentityToolkit=80 AuthShell=80 \
	SavedSessions=85 FirebaseEmulator=85 QRCode=85 UserSeeds=85 TOML=85 EngineSettings=90 \
	ScriptSuites=80

.PHONY: all deps test-deps build release run install uninstall test lint format coverage bench docs clean

all: build

deps:
	@scripts/ensure-packages $(BUILD_PACKAGES)

test-deps: deps
	@scripts/ensure-packages $(TEST_PACKAGES)

build: deps
	$(SWIFT) build

# The release build of authflow is one static executable: no shared libraries to load, so the
# shell starts about as fast as sqlite3. URLSession needs libcurl and its shared libraries, so the
# Supabase backend's HTTP runs in the authflow-http helper, built normally and placed beside it.
# Concrete types' metadata is reached through accessors the compiler writes, not by looking the
# type up by its mangled name at run time: that lookup demangles the name and searches the
# binary's every protocol conformance for the type's requirements, the first time each type is
# used, and was a fifth of the shell's start (0.5 ms of 2.6; docs/performance.md).
RELEASE_FLAGS := -c release --scratch-path .build-release --static-swift-stdlib \
	--disable-local-rpath -Xswiftc -static-executable \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
HELPER_FLAGS := -c release --scratch-path .build-helper
RELEASE_BIN := .build-release/release
# What the executables are built from: when none is newer than them, `make run` and
# `make install` start at once instead of asking SwiftPM (some 10 s to find nothing to do).
SOURCE_FILES := Package.swift Makefile $(shell find Sources -type f 2>/dev/null)

# The static executables unwind with LLVM's unwinder where it can be had: scripts/unwinder-flags
# says why, and installs it. libpq's and libxml2's static archives need more than themselves:
# scripts/libpq-static-flags and scripts/libxml2-static-flags say what, and install it.
# scripts/quiet-link says once what the static link's glibc notes mean instead of printing each
# of them.
$(RELEASE_BIN)/authflow: $(SOURCE_FILES) scripts/libpq-static-stubs.c scripts/libxml2-static-stubs.c
	@scripts/ensure-packages $(BUILD_PACKAGES)
	@unwinder="$$(scripts/unwinder-flags)" && libpq="$$(scripts/libpq-static-flags)" && \
		xml="$$(scripts/libxml2-static-flags)" && set -o pipefail && \
		echo "Building authflow (release; the first build takes a few minutes)" && \
		$(SWIFT) build $(RELEASE_FLAGS) $$unwinder $$libpq $$xml --product authflow 2>&1 | scripts/quiet-link
	@touch $@

$(RELEASE_BIN)/authflow-lab: $(SOURCE_FILES) scripts/libpq-static-stubs.c scripts/libxml2-static-stubs.c
	@scripts/ensure-packages $(BUILD_PACKAGES)
	@unwinder="$$(scripts/unwinder-flags)" && libpq="$$(scripts/libpq-static-flags)" && \
		xml="$$(scripts/libxml2-static-flags)" && set -o pipefail && \
		$(SWIFT) build $(RELEASE_FLAGS) $$unwinder $$libpq $$xml --product authflow-lab 2>&1 | \
		scripts/quiet-link
	@touch $@

$(RELEASE_BIN)/authflow-http: $(SOURCE_FILES) $(RELEASE_BIN)/authflow
	@scripts/ensure-packages $(BUILD_PACKAGES)
	@set -o pipefail && $(SWIFT) build $(HELPER_FLAGS) --product authflow-http 2>&1 | scripts/quiet-link
	@cp $$($(SWIFT) build $(HELPER_FLAGS) --show-bin-path)/authflow-http $@

# What `make run` and `make install` need; `make release` adds the benchmarks' lab.
release: $(RELEASE_BIN)/authflow $(RELEASE_BIN)/authflow-http $(RELEASE_BIN)/authflow-lab

run: $(RELEASE_BIN)/authflow $(RELEASE_BIN)/authflow-http
	@$(RELEASE_BIN)/authflow $(ARGS)

# `make install` puts the release build, its manual page and its completion scripts under
# $(DESTDIR)$(PREFIX); `make uninstall` removes exactly those files (scripts/install lists them).
PREFIX ?= /usr/local
DESTDIR ?=

install: $(RELEASE_BIN)/authflow $(RELEASE_BIN)/authflow-http
	@scripts/install "$(RELEASE_BIN)" "$(DESTDIR)$(PREFIX)"

uninstall:
	@scripts/install --uninstall "$(DESTDIR)$(PREFIX)"

# The tests get a temporary folder of their own, which must be free of their files afterwards.
TEST_TMPDIR := $(CURDIR)/.build/test-tmp

test: test-deps lint
	$(SWIFT) build --build-tests --enable-code-coverage
	@rm -rf $(TEST_TMPDIR) && mkdir -p $(TEST_TMPDIR)
	TMPDIR=$(TEST_TMPDIR) $(SWIFT) test --skip-build --enable-code-coverage
	@# The engine's and the emulator's suites again, each engine on a new PostgreSQL database;
	@# coverage counts both runs (the store's PostgreSQL code runs only in the second).
	AUTHFLOW_TEST_STORE=postgres TMPDIR=$(TEST_TMPDIR) LLVM_PROFILE_FILE=$(TEST_TMPDIR)/postgres-%p.profraw \
		$(SWIFT) test --skip-build --filter 'GoTrueEngineTests|FirebaseEmulatorTests|UserSeedsTests'
	@COVERAGE_EXTRA_PROFILES="$$(echo $(TEST_TMPDIR)/postgres-*.profraw)" scripts/check-coverage $(COVERAGE_FLOORS)
	TMPDIR=$(TEST_TMPDIR) /usr/bin/python3 Tests/Terminal/test_terminal.py \
		$$($(SWIFT) build --show-bin-path)/authflow
	TMPDIR=$(TEST_TMPDIR) /usr/bin/python3 Tests/Install/test_install.py \
		$$($(SWIFT) build --show-bin-path)/authflow
	@scripts/python-env
	AUTHFLOW=$$($(SWIFT) build --show-bin-path)/authflow TMPDIR=$(TEST_TMPDIR) PYTHONDONTWRITEBYTECODE=1 \
		.build/venv/bin/python -m unittest discover -s Tests/Server -v
	@# The same suites with every server on a new database of a throw-away PostgreSQL.
	AUTHFLOW_TEST_STORE=postgres AUTHFLOW=$$($(SWIFT) build --show-bin-path)/authflow \
		TMPDIR=$(TEST_TMPDIR) PYTHONDONTWRITEBYTECODE=1 \
		.build/venv/bin/python -m unittest discover -s Tests/Server
	@scripts/check-temporary-files $(TEST_TMPDIR)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests
	@scripts/check-imports

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

bench: release test-deps
	@scripts/ensure-packages $(BENCH_PACKAGES)
	@scripts/bench $(RELEASE_BIN)

# `make docs` rewrites the generated tables of docs/ from the code's tables (the tests hold them
# equal), and builds the AuthFlow library's DocC archive with the toolchain's docc, warnings as
# errors, into .build-docs/AuthFlow.doccarchive.
docs: test-deps
	AUTHFLOW_UPDATE_DOCS=1 $(SWIFT) test --filter 'ReferenceDocsTests'
	@# The README's pictures of serve's page and of the shell's presented screen, light and dark,
	@# from a headless Chromium.
	@scripts/python-env
	AUTHFLOW_SCREENSHOTS=$(CURDIR)/docs/images AUTHFLOW=$$($(SWIFT) build --show-bin-path)/authflow \
		PYTHONDONTWRITEBYTECODE=1 .build/venv/bin/python -m unittest discover -s Tests/Server \
		-p test_page.py -k screenshots
	AUTHFLOW_SCREENSHOTS=$(CURDIR)/docs/images AUTHFLOW=$$($(SWIFT) build --show-bin-path)/authflow \
		PYTHONDONTWRITEBYTECODE=1 .build/venv/bin/python -m unittest discover -s Tests/Server \
		-p test_present.py -k scripted_session
	@rm -rf .build-docs/symbol-graphs && mkdir -p .build-docs/symbol-graphs
	$(SWIFT) build --scratch-path .build-docs --target AuthFlow -Xswiftc -emit-symbol-graph \
		-Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build-docs/symbol-graphs
	docc convert Sources/AuthFlow/AuthFlow.docc --warnings-as-errors \
		--additional-symbol-graph-dir .build-docs/symbol-graphs \
		--output-path .build-docs/AuthFlow.doccarchive \
		--fallback-display-name AuthFlow --fallback-bundle-identifier authflow.AuthFlow

clean:
	rm -rf .build
