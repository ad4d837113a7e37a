# make test: everything CI runs. It installs what the tests need when it is
# missing, then runs vet, lint (staticcheck and deadcode), the race detector
# on the concurrent packages, the other packages' tests, and each fuzz target
# for a short time.

GO       ?= go
PYTHON   ?= python3
FUZZTIME ?= 4s
# Packages that run goroutines, servers or streams are tested under -race;
# the rest (wire, dynamic, transcode and the pure internal packages below:
# single-goroutine) without.
MODULE    = github.com/rpckit/rpckit
RACE_RE   = ^$(MODULE)/(internal|schema|invoke|load|interceptor|server|examples|gateway|ui|cmd|thrift/client|thrift/loadtarget)(/|$$)
PURE_RE   = ^$(MODULE)/internal/(utf8x|fixture)(/|$$)
# The conformance suite runs once, on its own (see conformance).
CONF_RE   = ^$(MODULE)/internal/conformance(/|$$)

CACHE    ?= $(or $(RPCKIT_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/rpckit)
DEPS_LOG ?= $(CACHE)/deps.log
QUIET     = internal/tools/quiet.sh $(DEPS_LOG)

.PHONY: test deps vet lint race unit browser conformance fuzz gen build targets

test: deps vet lint race unit browser conformance fuzz

build:
	$(GO) build -o bin/rpckit ./cmd/rpckit

# The speed targets with the ratios measured now; not part of test, as
# timing is measured and reported, never asserted.
targets:
	bench/targets.sh

# What make test installs when it is missing, quietly: each install's output
# goes to DEPS_LOG, shown (its path and last lines) only when one fails.
# Python gRPC (a C-core implementation) and Apache Thrift's Python library
# (PyPI's thrift) for the interop tests; the grpc-web and Connect npm
# clients for the gateway's gRPC-Web and Connect tests; Debian's chromium,
# npm's playwright-core and grpcurl for the ui's browser suite; buf (buf curl)
# for the Connect client's scripts; Debian's Apache Thrift compiler, the
# oracle of thrift/idl's tests; Debian's prometheus (prometheus and promtool)
# for deploy's rules and live monitoring tests; staticcheck and deadcode for
# lint.
deps:
	@mkdir -p $(dir $(DEPS_LOG)) && : >$(DEPS_LOG)
	@$(QUIET) "go modules" $(GO) mod download
	@$(PYTHON) -c 'import grpc, grpc_reflection, grpc_health' 2>/dev/null || \
		$(QUIET) "pip install grpcio" $(PYTHON) -m pip install --disable-pip-version-check \
			grpcio grpcio-reflection grpcio-health-checking protobuf
	@$(PYTHON) -c 'import thrift.protocol.THeaderProtocol' 2>/dev/null || \
		$(QUIET) "pip install thrift" $(PYTHON) -m pip install --disable-pip-version-check thrift
	@test -d gateway/internal/gwtest/webclient/node_modules/@connectrpc/connect-node || \
		$(QUIET) "npm ci (grpc-web and Connect clients)" npm ci --prefix gateway/internal/gwtest/webclient --no-audit --no-fund
	@test -x /usr/bin/chromium || \
		$(QUIET) "apt-get install chromium" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y chromium || \
			{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }'
	@test -d ui/browsertest/node_modules/playwright-core || \
		$(QUIET) "npm ci (browser suite)" npm ci --prefix ui/browsertest --no-audit --no-fund
	@test -x $(GRPCURL) || \
		$(QUIET) "go install grpcurl" env GOBIN=$(dir $(GRPCURL)) $(GO) install github.com/fullstorydev/grpcurl/cmd/grpcurl@$(GRPCURL_VERSION)
	@test -x $(BUF) || \
		$(QUIET) "npm install buf" sh -c 'npm install --prefix $(CACHE)/buf-npm --no-audit --no-fund --no-save @bufbuild/buf@$(BUF_VERSION) && \
			mkdir -p $(dir $(BUF)) && cp "$$(find $(CACHE)/buf-npm/node_modules/@bufbuild -path "*/buf-linux-*/bin/buf" | head -1)" $(BUF)'
	@test -x $(STATICCHECK) || \
		$(QUIET) "go install staticcheck" env GOBIN=$(dir $(STATICCHECK)) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@test -x $(DEADCODE) || \
		$(QUIET) "go install deadcode" env GOBIN=$(dir $(DEADCODE)) $(GO) install golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION)
	@test -x /usr/bin/thrift || \
		$(QUIET) "apt-get install thrift-compiler" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y thrift-compiler || \
			{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y thrift-compiler; }'
	@test -x /usr/bin/promtool || \
		$(QUIET) "apt-get install prometheus" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y prometheus || \
			{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y prometheus; }'

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }

# staticcheck and deadcode -test over the module: any finding outside the
# generated code (internal/gen) fails (internal/tools/lint.sh).
STATICCHECK_VERSION = v0.8.2
DEADCODE_VERSION    = v0.52.0
STATICCHECK ?= $(CACHE)/bin/staticcheck
DEADCODE    ?= $(CACHE)/bin/deadcode

lint:
	@internal/tools/lint.sh $(STATICCHECK) $(DEADCODE)

race:
	$(GO) test -race -count=1 -timeout 15m $$($(GO) list ./... | awk -v race='$(RACE_RE)' -v skip='$(CONF_RE)|$(PURE_RE)' '$$0 ~ race && $$0 !~ skip')

unit:
	$(GO) test -count=1 -timeout 15m $$($(GO) list ./... | awk -v race='$(RACE_RE)' -v pure='$(PURE_RE)' '$$0 !~ race || $$0 ~ pure')

# The ui's browser suite (ui/browsertest): chromium driven by playwright-core
# under node --test, against the ui package's test binary (-serve starts the
# fixture servers and the pages); copied commands run with the rpckit built
# here and grpcurl from the cache. Screenshots go to ui/browsertest/out/.
GRPCURL_VERSION = v1.9.4
GRPCURL ?= $(CACHE)/bin/grpcurl
# buf curl, the peer of rpckit call --protocol connect in internal/cli's
# scripts and bench/call_vs_bufcurl.sh: the release binary npm's
# @bufbuild/buf ships (building it from source takes minutes).
BUF_VERSION = 1.75.0
BUF ?= $(CACHE)/bin/buf

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

# Each FuzzXxx target runs for FUZZTIME on top of its seed corpus; one line
# a target, its output only when it fails (internal/tools/fuzz.sh).
fuzz:
	@GO=$(GO) internal/tools/fuzz.sh $(FUZZTIME) $$($(GO) list ./...)

# Regenerate the Go code of proto/ and examples/ranking/proto, that of
# thrift/testdata/bench.thrift and examples/ranking/thrift (the Apache
# Thrift compiler's, under internal/gen/thrift and examples/ranking/gen),
# and the Grafana dashboards of deploy/grafana.
gen:
	$(GO) run ./internal/tools/protogen
	$(GO) run ./internal/tools/thriftgen
	$(GO) run ./internal/tools/dashgen
