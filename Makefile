# authflow: `make run` starts the shell, `make test` runs every check. Both install missing
# Debian packages first (apt-get as root, otherwise they print the sudo line to run).

SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

SWIFT ?= swift
# System C libraries the package links, and the tools the tests and benchmarks drive.
BUILD_PACKAGES := libsqlite3-dev libcrypt-dev libssl-dev libedit-dev libevent-dev libqrcodegen-dev libtomlplusplus-dev libcurl4-openssl-dev
TEST_PACKAGES := sqlite3 python3 python3-pexpect python3-venv groff-base man-db bash zsh fish
BENCH_PACKAGES := wrk
COVERAGE_FLOORS := AuthFlow=90 Clocks=90 AuthCrypto=85 PrivateFiles=85 GoTrue=85 AuthFlowGoTrue=85 \
	GoTrueEngine=85 AuthFlowHTTP=80 HTTPServer=80 AuthServer=80 CommandLineOptions=90 \
	AuthFlowSupabase=85 AuthFlowFirebase=85 IdentityToolkit=80 AuthShell=80 \
	SavedSessions=85 FirebaseEmulator=85 QRCode=85 UserSeeds=85 TOML=85

.PHONY: all deps test-deps build release run install uninstall test lint format coverage bench clean

all: build

deps:
	@scripts/ensure-packages $(BUILD_PACKAGES)

test-deps: deps
	@scripts/ensure-packages $(TEST_PACKAGES)

build: deps
	$(SWIFT) build

# The release build of authflow is one static executable: no shared libraries to load, so the
# shell starts about as fast as sqlite3. (The static link prints glibc's notes on dlopen and
# getpwnam; authflow never calls them.) URLSession needs libcurl and its shared libraries, so the
# Supabase backend's HTTP runs in the authflow-http helper, built normally and placed beside it.
RELEASE_FLAGS := -c release --scratch-path .build-release --static-swift-stdlib \
	--disable-local-rpath -Xswiftc -static-executable
HELPER_FLAGS := -c release --scratch-path .build-helper

# The static executables unwind with LLVM's unwinder where it can be had: scripts/unwinder-flags
# says why, and installs it.
release: deps
	@unwinder="$$(scripts/unwinder-flags)" && \
		echo $(SWIFT) build $(RELEASE_FLAGS) $$unwinder --product authflow && \
		$(SWIFT) build $(RELEASE_FLAGS) $$unwinder --product authflow && \
		$(SWIFT) build $(RELEASE_FLAGS) $$unwinder --product authflow-lab
	$(SWIFT) build $(HELPER_FLAGS) --product authflow-http
	cp $$($(SWIFT) build $(HELPER_FLAGS) --show-bin-path)/authflow-http \
		$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/

run: release
	@$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/authflow $(ARGS)

# `make install` puts the release build, its manual page and its completion scripts under
# $(DESTDIR)$(PREFIX); `make uninstall` removes exactly those files (scripts/install lists them).
PREFIX ?= /usr/local
DESTDIR ?=

install: release
	@scripts/install "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" "$(DESTDIR)$(PREFIX)"

uninstall:
	@scripts/install --uninstall "$(DESTDIR)$(PREFIX)"

# The tests get a temporary folder of their own, which must be free of their files afterwards.
TEST_TMPDIR := $(CURDIR)/.build/test-tmp

test: test-deps lint
	$(SWIFT) build --build-tests --enable-code-coverage
	@rm -rf $(TEST_TMPDIR) && mkdir -p $(TEST_TMPDIR)
	TMPDIR=$(TEST_TMPDIR) $(SWIFT) test --skip-build --enable-code-coverage
	@scripts/check-coverage $(COVERAGE_FLOORS)
	TMPDIR=$(TEST_TMPDIR) /usr/bin/python3 Tests/Terminal/test_terminal.py \
		$$($(SWIFT) build --show-bin-path)/authflow
	TMPDIR=$(TEST_TMPDIR) /usr/bin/python3 Tests/Install/test_install.py \
		$$($(SWIFT) build --show-bin-path)/authflow
	@scripts/python-env
	AUTHFLOW=$$($(SWIFT) build --show-bin-path)/authflow TMPDIR=$(TEST_TMPDIR) PYTHONDONTWRITEBYTECODE=1 \
		.build/venv/bin/python -m unittest discover -s Tests/Server -v
	@scripts/check-temporary-files $(TEST_TMPDIR)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests
	@scripts/check-imports

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

bench: release test-deps
	@scripts/ensure-packages $(BENCH_PACKAGES)
	@scripts/bench $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)

clean:
	rm -rf .build
