package cli

import (
	"time"

	"github.com/spf13/pflag"
)

// check refuses load settings that make no sense, before anything is
// dialled: no calls in flight, a deadline of no time, a bound of no time or
// no calls. Negative durations never get here: durationVar refuses them.
func (f *benchFlags) check(fs *pflag.FlagSet) error {
	switch {
	case fs.Changed("concurrency") && f.opts.Concurrency < 1:
		return usagef("--concurrency %d: want at least 1 call in flight", f.opts.Concurrency)
	case fs.Changed("count") && f.opts.Count < 1:
		return usagef("--count %d: want at least 1 call", f.opts.Count)
	case fs.Changed("max-in-flight") && f.opts.MaxInFlight < 1:
		return usagef("--max-in-flight %d: want at least 1 call", f.opts.MaxInFlight)
	}
	if err := positive(fs, "duration", f.opts.Duration); err != nil {
		return err
	}
	if err := positive(fs, "timeout", f.opts.Timeout); err != nil {
		return err
	}
	return positive(fs, "step", f.step)
}

// positive refuses a duration flag given as zero (durationVar refuses
// negative ones for every flag).
func positive(fs *pflag.FlagSet, name string, d time.Duration) error {
	if fs.Changed(name) && d <= 0 {
		return usagef("--%s %s: want a positive duration such as 10s", name, d)
	}
	return nil
}

// check refuses gRPC load settings that make no sense.
func (f *grpcBenchFlags) check(fs *pflag.FlagSet) error {
	switch {
	case f.connections < 1:
		return usagef("--connections %d: want at least 1", f.connections)
	case fs.Changed("streams-per-connection") && f.perConn < 1:
		return usagef("--streams-per-connection %d: want at least 1", f.perConn)
	}
	return nil
}

// takeData makes -d the HTTP body, as --body is: the two are one setting
// for a URL, so giving both is a mistake.
func (f *httpBenchFlags) takeData(fs *pflag.FlagSet, data string) error {
	if !fs.Changed("data") {
		return nil
	}
	if fs.Changed("body") {
		return usagef("-d and --body both give the HTTP body; give one")
	}
	f.body = data
	return nil
}
