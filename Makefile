# authflow: `make run` starts the shell, `make test` runs every check. Both install missing
# Debian packages first (apt-get as root, otherwise they print the sudo line to run).

SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

SWIFT ?= swift
# System C libraries the package links, and the tools the tests and benchmarks drive.
BUILD_PACKAGES := pkg-config libsqlite3-dev libcrypt-dev libssl-dev libedit-dev
TEST_PACKAGES := sqlite3
COVERAGE_FLOORS := AuthFlow=90 AuthCrypto=85 GoTrue=85 AuthFlowEmbedded=85

.PHONY: all deps test-deps build release run test lint format coverage bench clean

all: build

deps:
	@scripts/ensure-packages $(BUILD_PACKAGES)

test-deps: deps
	@scripts/ensure-packages $(TEST_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: release
	@echo "The AuthFlow library is built; the authflow shell lands with issue #4."

test: test-deps lint
	$(SWIFT) build --build-tests --enable-code-coverage
	$(SWIFT) test --skip-build --enable-code-coverage
	@scripts/check-coverage $(COVERAGE_FLOORS)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

bench: release test-deps
	@scripts/bench

clean:
	rm -rf .build
