package cli

import (
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rpckit/rpckit/interceptor"
	"github.com/spf13/pflag"
	"google.golang.org/grpc"
)

// policyFlags bind the client policies of call, gateway and bench's grpc
// engine: a gRPC service config (retries, hedging, timeouts,
// waitForReady, load balancing) and a circuit breaker; and the addresses
// of a target (both bench engines).
type policyFlags struct {
	serviceConfig string
	breaker       string
	addrs         []string
}

func (f *policyFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.serviceConfig, "service-config", "", "gRPC service config JSON `file` (methodConfig: retryPolicy, hedgingPolicy, timeout, waitForReady; loadBalancingConfig)")
	fs.StringSliceVar(&f.addrs, "target-addr", nil, "`addresses` (host:port,...) of the target, whose name is then only its authority; calls are spread over them round robin")
	fs.StringVar(&f.breaker, "breaker", "", "circuit breaker per method `spec`: failures=N (in a row, to open),open=DURATION (before half-open),halfopen=N (trial calls); e.g. failures=5,open=10s,halfopen=1")
}

// clientPolicies are the dial options of the policies asked for, and the
// breaker when there is one.
type clientPolicies struct {
	opts    []grpc.DialOption
	breaker *interceptor.MethodBreakers
}

// build reads and checks the policies; upstream names the breaker.
func (f *policyFlags) build(upstream string) (clientPolicies, error) {
	var p clientPolicies
	if err := f.checkAddrs(); err != nil {
		return p, err
	}
	if f.serviceConfig != "" {
		sc, err := readServiceConfig(f.serviceConfig)
		if err != nil {
			return p, err
		}
		if len(f.addrs) > 0 || strings.HasPrefix(upstream, "dns:") {
			sc = sc.WithRoundRobin()
		}
		p.opts = sc.DialOptions()
	}
	if f.breaker != "" {
		bo, err := parseBreaker(f.breaker)
		if err != nil {
			return p, err
		}
		bo.Name = upstream
		p.breaker = interceptor.NewMethodBreakers(bo)
	}
	return p, nil
}

// apply adds the policies to cf's dial options. Metrics, when not nil,
// count and time the calls, count their retries and export the breaker's
// state; they sit outside the breaker, so calls it refuses are counted.
func (f *policyFlags) apply(cf *connFlags, upstream string, m *interceptor.Metrics) error {
	p, err := f.build(upstream)
	if err != nil {
		return err
	}
	var extra []grpc.DialOption
	if m != nil {
		extra = append(extra, grpc.WithChainUnaryInterceptor(m.UnaryClient()), grpc.WithChainStreamInterceptor(m.StreamClient()))
		extra = append(extra, m.ClientAttempts()...)
		if p.breaker != nil {
			m.WatchBreakers(upstream, p.breaker)
		}
	}
	if p.breaker != nil {
		extra = append(extra, grpc.WithChainUnaryInterceptor(p.breaker.UnaryClient()), grpc.WithChainStreamInterceptor(p.breaker.StreamClient()))
	}
	// Hedging, an interceptor of the service config's, comes last: the
	// metrics and the breaker see a hedged call once.
	cf.opts.Extra = append(cf.opts.Extra, append(extra, p.opts...)...)
	cf.opts.Addresses = f.addrs
	return nil
}

// checkAddrs checks --target-addr: host:port each.
func (f *policyFlags) checkAddrs() error {
	for _, a := range f.addrs {
		if _, port, err := net.SplitHostPort(a); err != nil || port == "" {
			return usagef("--target-addr %q: want host:port", a)
		}
	}
	return nil
}

// maxServiceConfig bounds the service config file read.
const maxServiceConfig = 1 << 20

// readServiceConfig reads and checks a service config file.
func readServiceConfig(path string) (*interceptor.Policies, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--service-config: %w", err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxServiceConfig+1))
	if err != nil {
		return nil, fmt.Errorf("--service-config %s: %w", path, err)
	}
	if len(data) > maxServiceConfig {
		return nil, fmt.Errorf("--service-config %s: larger than %d bytes", path, maxServiceConfig)
	}
	sc, err := interceptor.ParseServiceConfig(data)
	if err != nil {
		return nil, fmt.Errorf("--service-config %s: %w", path, err)
	}
	return sc, nil
}

// parseBreaker reads --breaker's key=value list.
func parseBreaker(spec string) (interceptor.BreakerOptions, error) {
	var o interceptor.BreakerOptions
	for part := range strings.SplitSeq(spec, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || value == "" {
			return o, usagef("--breaker %q: want key=value pairs, as failures=5,open=10s,halfopen=1", spec)
		}
		if err := setBreaker(&o, key, value); err != nil {
			return o, usagef("--breaker %q: %s", spec, err)
		}
	}
	return o, nil
}

// setBreaker sets one of --breaker's keys.
func setBreaker(o *interceptor.BreakerOptions, key, value string) error {
	switch key {
	case "failures", "halfopen":
		n, err := strconv.ParseUint(value, 10, 32)
		if err != nil || n == 0 {
			return fmt.Errorf("%s=%s: want a whole number above 0", key, value)
		}
		if key == "failures" {
			o.Failures = uint32(n)
		} else {
			o.HalfOpenCalls = uint32(n)
		}
	case "open":
		d, err := time.ParseDuration(value)
		if err != nil || d <= 0 {
			return fmt.Errorf("open=%s: want a duration above 0, as 10s", value)
		}
		o.OpenFor = d
	default:
		return fmt.Errorf("unknown key %q (want failures, open or halfopen)", key)
	}
	return nil
}
