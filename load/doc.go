// Package load is rpckit's load engine: it calls a target on a schedule and
// measures it. A target is any func(ctx) error the caller supplies (a gRPC
// call, an HTTP request, a stream); load knows nothing of what it does.
//
// The schedule comes from a Pacer. In open loop (Options.Pacer set) every
// call has an intended start time; latency is measured from it (the
// corrected histogram, free of coordinated omission) and from the actual
// send (the service-time histogram). The dispatcher never waits on a busy
// worker: it starts another goroutine, up to Options.MaxInFlight calls in
// flight, and past that counts the call as not sent. It stops soon after
// the schedule's end however far behind it is, counting the calls it did
// not send, so a run lasts its schedule and a drain no longer than the
// call timeout. How late
// calls started (schedule lag) is reported. In closed loop (no Pacer)
// Options.Concurrency workers call back to back, or Options.Callers ramps
// them in stages.
//
// A Scenario runs several named flows at once (RunScenario), each with its
// own target and executor: a constant or ramping arrival rate, a closed
// loop of fixed or ramping callers, or a weighted share of one overall
// rate. Each flow is a Run, bounded in count and time as Options say, so a
// single-target run is a one-flow scenario; a ScenarioResult holds each
// flow's Result and their merged total.
//
// The dispatcher is a relay of two pacer goroutines, one leading at a
// time. The leader waits for each call's intended start by napping on a
// timerfd read through the runtime's poller (on other platforms, a runtime
// timer) until a spin window before it, then spinning on the clock: the
// runtime's own timers wake up to a millisecond late on Linux, where the
// scheduler waits in epoll with a millisecond timeout, and a timerfd has no
// timer slack; it is read with a raw read(2), as a read through os.File
// would wake the runtime's monitor thread at every nap. The spin window
// follows the naps' lateness (near its median, 2 to 30 µs), so punctual
// naps spin little. Naps last at most 10 ms, so a cancelled run
// stops soon. Calls already due when it wakes,
// such as those it fell behind on, go out one after another with no wait
// between them.
//
// When the next call is far off (more than twice the pacers' recent calls
// plus the spin window), the leader makes the call itself: it first rings
// the other pacer's timerfd to wake it a spin window before the next start,
// and that pacer leads on from then whether or not the call has returned,
// so a slow call holds nothing up. At low rates a call then costs one
// wake-up. When calls are close together, the leader hands each to an idle
// worker through a channel, or starts one, and goes on. Only one pacer is
// in a call at a time, and workers are at most MaxInFlight-1 while pacers
// make calls, so MaxInFlight bounds the calls in flight exactly. Whoever
// makes a call reads the send time, so lag covers the hand-off too.
//
// Failed calls are counted and timed apart, in a histogram of their own:
// never in the latency histograms of successful calls or in Result.Rate.
//
// Measurements go to HdrHistograms (1 µs to 1 h, 3 significant digits)
// sharded per worker group and merged at the end, so recording a call takes
// no global lock and does not allocate. Memory does not grow with the length
// of a run: histograms have a fixed size and the time series keeps one small
// Point per second. A Result exposes counts, percentiles, the time series and
// per-step results for ramps; its histograms encode to the standard
// compressed form, so Results from several runs or machines merge exactly.
//
// load may import only the standard library and hdrhistogram-go, whose types
// stay inside: the exported API uses standard library types only. It must
// not import gRPC or protobuf.
package load
