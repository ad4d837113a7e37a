# make test: everything CI runs. It installs what the tests need when it is
# missing, then runs vet, the race detector on the concurrent packages, the
# other packages' tests, and each fuzz target for a short time.

GO       ?= go
PYTHON   ?= python3
FUZZTIME ?= 4s
# Packages that run goroutines, servers or streams are tested under -race;
# the rest (wire, dynamic, transcode and the pure internal packages below:
# single-goroutine) without.
MODULE    = github.com/rpckit/rpckit
RACE_RE   = ^$(MODULE)/(internal|schema|invoke|load|interceptor|server|examples|gateway|ui|cmd)(/|$$)
PURE_RE   = ^$(MODULE)/internal/(utf8x|fixture)(/|$$)
# The conformance suite runs once, on its own (see conformance).
CONF_RE   = ^$(MODULE)/internal/conformance(/|$$)

.PHONY: test deps vet race unit browser conformance fuzz gen build targets

test: deps vet race unit browser conformance fuzz

build:
	$(GO) build -o bin/rpckit ./cmd/rpckit

# The speed targets with the ratios measured now; not part of test, as
# timing is measured and reported, never asserted.
targets:
	bench/targets.sh

# Python gRPC (a C-core implementation) for the interop tests; the
# grpc-web npm client for the gateway's gRPC-Web test; Debian's chromium,
# npm's playwright-core and grpcurl for the ui's browser suite.
deps:
	@$(PYTHON) -c 'import grpc, grpc_reflection, grpc_health' 2>/dev/null || \
		$(PYTHON) -m pip install --quiet --disable-pip-version-check \
			grpcio grpcio-reflection grpcio-health-checking protobuf
	@test -d gateway/internal/gwtest/webclient/node_modules/grpc-web || \
		npm ci --prefix gateway/internal/gwtest/webclient --no-audit --no-fund --silent
	@test -x /usr/bin/chromium || { \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }; }
	@test -d ui/browsertest/node_modules/playwright-core || \
		npm ci --prefix ui/browsertest --no-audit --no-fund --silent
	@test -x $(GRPCURL) || GOBIN=$(dir $(GRPCURL)) $(GO) install github.com/fullstorydev/grpcurl/cmd/grpcurl@$(GRPCURL_VERSION)

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }

race:
	$(GO) test -race -count=1 -timeout 15m $$($(GO) list ./... | awk -v race='$(RACE_RE)' -v skip='$(CONF_RE)|$(PURE_RE)' '$$0 ~ race && $$0 !~ skip')

unit:
	$(GO) test -count=1 -timeout 15m $$($(GO) list ./... | awk -v race='$(RACE_RE)' -v pure='$(PURE_RE)' '$$0 !~ race || $$0 ~ pure')

# The ui's browser suite (ui/browsertest): chromium driven by playwright-core
# under node --test, against the ui package's test binary (-serve starts the
# fixture servers and the pages); copied commands run with the rpckit built
# here and grpcurl from the cache. Screenshots go to ui/browsertest/out/.
GRPCURL_VERSION = v1.9.4
GRPCURL ?= $(or $(RPCKIT_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/rpckit)/bin/grpcurl

browser:
	$(GO) test -c -o ui/browsertest/out/uitest ./ui
	$(GO) build -o ui/browsertest/out/bin/rpckit ./cmd/rpckit
	cd ui/browsertest && UI_TEST_GRPCURL=$(GRPCURL) node --test --test-concurrency=1 --test-timeout=180000 .

# protobuf's conformance suite (binary and JSON, required and recommended)
# against transcode and against the protojson baseline; the first run builds
# the C++ runner from Debian's protobuf sources (a few minutes) and caches it
# under ~/.cache/rpckit (RPCKIT_CACHE overrides).
conformance:
	$(GO) test -count=1 -timeout 20m ./internal/conformance/...

# Each FuzzXxx target runs for FUZZTIME on top of its seed corpus. Go 1.26's
# fuzzing coordinator can report its own -fuzztime deadline as a failure,
# "context deadline exceeded" with no failing input (golang/go#75804, fixed
# in Go 1.27); that alone is not counted. A failing input always is.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$target"; \
			out=$$($(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg 2>&1); rc=$$?; \
			echo "$$out"; \
			if [ $$rc -ne 0 ]; then \
				if echo "$$out" | grep -q '^    context deadline exceeded$$' && ! echo "$$out" | grep -q 'Failing input written'; then \
					echo "fuzz $$target: stopped by the coordinator's deadline race (golang/go#75804), no failing input"; \
				else \
					exit 1; \
				fi; \
			fi; \
		done; \
	done

# Regenerate the Go code of proto/ and examples/ranking/proto.
gen:
	$(GO) run ./internal/tools/protogen
