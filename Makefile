# VaultMail: `make run` builds and runs the tool, `make test` runs every test.
SWIFT ?= swift
BUILD_LOG := .build/build-warnings.log

.PHONY: deps build run test bench install clean

deps:
	scripts/install-deps.sh

build: deps
	@mkdir -p .build
	$(SWIFT) build --build-tests 2>&1 | tee $(BUILD_LOG)
	scripts/check-warnings.sh $(BUILD_LOG)

run: deps
	$(SWIFT) run vaultmail $(ARGS)

test: build
	$(SWIFT) test

bench: deps
	$(SWIFT) run -c release vaultmail-bench $(or $(SUITES),store)

install: deps
	scripts/install.sh

clean:
	rm -rf .build
