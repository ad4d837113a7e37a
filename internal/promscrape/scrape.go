package promscrape

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/prometheus/common/model"
)

// Defaults for the zero Options.
const (
	DefaultInterval = time.Second
	DefaultTimeout  = 2 * time.Second
	DefaultMaxBody  = 16 << 20
)

// maxSamples bounds the scrapes kept per endpoint: over two hours at the
// default interval. Past it, each scrape replaces the last one kept, so
// the latest is always there to end a span with.
const maxSamples = 8192

// Options configure a Scraper. The zero value scrapes nothing.
type Options struct {
	// URLs are the endpoints, http or https (CheckURL).
	URLs []string
	// Metrics are the families to report by name beside the standard ones.
	Metrics []string
	// Interval is the time between scrapes (default DefaultInterval).
	Interval time.Duration
	// Marks are times, as offsets from Start, at which to scrape as well:
	// the boundaries of the run's steps, so that deltas over a step come
	// from scrapes close to its ends.
	Marks []time.Duration
	// Timeout bounds each scrape (default DefaultTimeout); MaxBody its
	// body in bytes (default DefaultMaxBody).
	Timeout time.Duration
	MaxBody int64
	// Client makes the requests (default: a client of its own).
	Client *http.Client
}

// CheckURL reports whether raw is a URL a Scraper can scrape: absolute,
// http or https, with a host.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("promscrape: %q is not an http:// or https:// URL with a host", raw)
	}
	return nil
}

// A Scraper scrapes its endpoints from Start until Stop.
type Scraper struct {
	opts    Options
	start   time.Time
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	targets []*target
	stopped bool
}

// A target is one endpoint's scrapes, in time order.
type target struct {
	url     string
	mu      sync.Mutex
	scrapes []scrape
	// dropped counts the scrapes over maxSamples replaced by later ones,
	// droppedFailed those of them that failed.
	dropped, droppedFailed int
}

// A scrape is one request's outcome: a sample or an error.
type scrape struct {
	at  time.Time // when the response was read (or the request failed)
	s   *sample
	err error
}

// Start scrapes every endpoint once, and returns when those scrapes are
// done (within Timeout), so that they precede what is to be measured;
// then every Interval and at the Marks, until ctx ends or Stop. The URLs
// must pass CheckURL.
func Start(ctx context.Context, opts Options) *Scraper {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(ctx)
	sc := &Scraper{opts: opts, start: time.Now(), cancel: cancel}
	for _, u := range opts.URLs {
		sc.targets = append(sc.targets, &target{url: u})
	}
	sc.scrapeAll(ctx)
	for _, t := range sc.targets {
		sc.wg.Go(func() { sc.loop(ctx, t) })
	}
	return sc
}

// scrapeAll scrapes every endpoint at once and waits for them.
func (sc *Scraper) scrapeAll(ctx context.Context) {
	var wg sync.WaitGroup
	for _, t := range sc.targets {
		wg.Go(func() { sc.scrapeInto(ctx, t) })
	}
	wg.Wait()
}

func (o Options) withDefaults() Options {
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.Client == nil {
		o.Client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	}
	return o
}

// loop scrapes t at each tick or mark, until ctx ends.
func (sc *Scraper) loop(ctx context.Context, t *target) {
	marks := sc.opts.Marks
	for {
		now := time.Now()
		for len(marks) > 0 && !sc.start.Add(marks[0]).After(now) {
			marks = marks[1:]
		}
		due := sc.nextTick(now)
		if len(marks) > 0 && sc.start.Add(marks[0]).Before(due) {
			due = sc.start.Add(marks[0])
		}
		timer := time.NewTimer(time.Until(due))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
		sc.scrapeInto(ctx, t)
	}
}

// nextTick is the first tick of the interval after now; a tick a slow
// scrape overran is skipped.
func (sc *Scraper) nextTick(now time.Time) time.Time {
	k := now.Sub(sc.start)/sc.opts.Interval + 1
	return sc.start.Add(k * sc.opts.Interval)
}

// Stop ends the scraping, scrapes each endpoint once more (even when the
// run's context was cancelled, within the timeout) and waits for it all.
// Calling it again does nothing.
func (sc *Scraper) Stop() {
	if sc.stopped {
		return
	}
	sc.stopped = true
	sc.cancel()
	sc.wg.Wait()
	sc.scrapeAll(context.Background())
}

// scrapeInto scrapes t once and keeps the outcome, timed halfway
// through the request: the endpoint read its values somewhere in it.
func (sc *Scraper) scrapeInto(ctx context.Context, t *target) {
	begin := time.Now()
	s, err := sc.scrapeOnce(ctx, t.url)
	at := begin.Add(time.Since(begin) / 2)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return // the run ended mid-scrape: Stop scrapes once more
	}
	t.keep(scrape{at: at, s: s, err: err})
}

// keep adds a scrape, or past maxSamples puts it in the last one's place.
func (t *target) keep(got scrape) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := len(t.scrapes); n >= maxSamples {
		t.dropped++
		if t.scrapes[n-1].err != nil {
			t.droppedFailed++
		}
		t.scrapes[n-1] = got
		return
	}
	t.scrapes = append(t.scrapes, got)
}

// scrapeOnce GETs url and parses the body.
func (sc *Scraper) scrapeOnce(ctx context.Context, url string) (*sample, error) {
	ctx, cancel := context.WithTimeout(ctx, sc.opts.Timeout)
	defer cancel()
	resp, err := sc.get(ctx, url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return sc.read(ctx, resp)
}

// get requests url in the text format.
func (sc *Scraper) get(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	return sc.opts.Client.Do(req)
}

// read parses a response, its body within MaxBody.
func (sc *Scraper) read(ctx context.Context, resp *http.Response) (*sample, error) {
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s", resp.Status)
	}
	body := &limitReader{r: resp.Body, left: sc.opts.MaxBody}
	s, err := parse(body, sc.opts.Metrics)
	if body.over {
		return nil, fmt.Errorf("body over %d bytes", sc.opts.MaxBody)
	}
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return s, err
}

// limitReader reads at most left bytes of r and notes whether r had more.
type limitReader struct {
	r    io.Reader
	left int64
	over bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		var one [1]byte
		if n, _ := l.r.Read(one[:]); n > 0 {
			l.over = true
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// CheckName reports whether name is a metric name an endpoint may expose.
func CheckName(name string) error {
	if !model.LegacyValidation.IsValidMetricName(name) {
		return fmt.Errorf("promscrape: %q is not a metric name", name)
	}
	return nil
}
