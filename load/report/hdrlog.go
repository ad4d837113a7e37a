package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rpckit/rpckit/load"
)

// HdrHistogram interval logs, in the format of HdrHistogram's
// HistogramLogWriter (log format version 1.3):
//
//	#[Histogram log format version 1.3]
//	#[StartTime: 1700000000.000 (seconds since epoch), 2023-11-14T22:13:20Z]
//	"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
//	0.000,1.000,12.345,HISTFAAA...
//	Tag=service,0.000,1.000,3.210,HISTFAAA...
//	Tag=failed,0.000,1.000,0.950,HISTFAAA...
//	#[MeasuredDuration: 30.000000000 (seconds from StartTime)]
//
// Timestamps are seconds from StartTime. Histogram values are microseconds
// and Interval_Max is in milliseconds (a max value unit ratio of 1000).
// The corrected latency of successful calls goes in untagged intervals,
// their service time in intervals tagged ServiceTag, and the corrected
// latency of failed calls, if any, in intervals tagged FailedTag. A run's
// log ends with its measured duration, in a comment line that other
// readers skip, so that a report of the log takes the run's time span and
// not that of its intervals (the last interval holds the calls that ended
// after the schedule, in the drain). hdrhistogram-go's own writer fixes
// the max ratio at 10^6 (nanosecond values), so lines are written here,
// with its encoder.
const (
	logFormatVersion = "1.3"
	logLegend        = `"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"`
	logDuration      = "#[MeasuredDuration: "
	// ServiceTag tags the service-time intervals of a log.
	ServiceTag = "service"
	// FailedTag tags the intervals of failed calls' latencies.
	FailedTag = "failed"
	// maxUnitRatio turns µs values into the ms of Interval_Max.
	maxUnitRatio = 1000.0
)

// A LogWriter writes an HdrHistogram interval log. Use it live, from
// load.Options.Progress (one interval a second), or after a run with
// WriteLog.
type LogWriter struct {
	w     io.Writer
	start time.Time
}

// NewLogWriter writes the log's header, with start as its StartTime;
// interval offsets count from start.
func NewLogWriter(w io.Writer, start time.Time) (*LogWriter, error) {
	secs := float64(start.UnixMilli()) / 1000
	header := fmt.Sprintf("#[Histogram log format version %s]\n#[StartTime: %.3f (seconds since epoch), %s]\n%s\n",
		logFormatVersion, secs, start.UTC().Format(time.RFC3339), logLegend)
	if _, err := io.WriteString(w, header); err != nil {
		return nil, fmt.Errorf("report: write log: %w", err)
	}
	return &LogWriter{w: w, start: start}, nil
}

// WriteInterval writes the interval [at, at+length) from the log's start:
// corrected untagged, then service (if not nil) tagged ServiceTag.
func (l *LogWriter) WriteInterval(at, length time.Duration, corrected, service *load.Histogram) error {
	if err := l.writeLine("", at, length, corrected); err != nil {
		return err
	}
	if service == nil {
		return nil
	}
	return l.writeLine(ServiceTag, at, length, service)
}

// WriteFailed writes the failed calls of the interval [at, at+length),
// tagged FailedTag; nothing when failed is empty.
func (l *LogWriter) WriteFailed(at, length time.Duration, failed *load.Histogram) error {
	if failed.Count() == 0 {
		return nil
	}
	return l.writeLine(FailedTag, at, length, failed)
}

// WriteDuration ends the log with the run's measured duration, from the
// log's start.
func (l *LogWriter) WriteDuration(d time.Duration) error {
	if _, err := fmt.Fprintf(l.w, "%s%.9f (seconds from StartTime)]\n", logDuration, d.Seconds()); err != nil {
		return fmt.Errorf("report: write log: %w", err)
	}
	return nil
}

func (l *LogWriter) writeLine(tag string, at, length time.Duration, h *load.Histogram) error {
	if h == nil {
		h = load.NewHistogram()
	}
	enc, err := h.MarshalText()
	if err != nil {
		return fmt.Errorf("report: write log: %w", err)
	}
	if tag != "" {
		tag = "Tag=" + tag + ","
	}
	maxMS := float64(h.Max()/time.Microsecond) / maxUnitRatio
	_, err = fmt.Fprintf(l.w, "%s%.3f,%.3f,%.3f,%s\n", tag, at.Seconds(), length.Seconds(), maxMS, enc)
	if err != nil {
		return fmt.Errorf("report: write log: %w", err)
	}
	return nil
}

// WriteLog writes r as an interval log: one interval per step of a ramp,
// or one for the whole run, then r's duration. (Series points keep no
// histograms; for an interval a second, write from load.Options.Progress.)
func WriteLog(w io.Writer, r *load.Result) error {
	l, err := NewLogWriter(w, r.Start)
	if err != nil {
		return err
	}
	for _, s := range steps(r) {
		at := s.Start.Sub(r.Start)
		if err := l.WriteInterval(at, s.Duration, s.Corrected, s.Service); err != nil {
			return err
		}
		if err := l.WriteFailed(at, s.Duration, s.Failed); err != nil {
			return err
		}
	}
	return l.WriteDuration(r.Duration)
}

// A Log is an HdrHistogram interval log read back.
type Log struct {
	Start     time.Time // the log's StartTime; zero if it has none
	Intervals []Interval
	// Duration is the measured duration of the run that wrote the log,
	// from Start; zero if the log does not say.
	Duration time.Duration
}

// An Interval is one line of an interval log.
type Interval struct {
	Tag       string        // "" for corrected latency, ServiceTag for service time
	At        time.Duration // start, from the log's StartTime
	Length    time.Duration
	Max       time.Duration // Interval_Max as written (ms in the file)
	Histogram *load.Histogram
}

// ReadLog reads an interval log written by LogWriter or any HdrHistogram
// implementation (values taken as microseconds).
func ReadLog(r io.Reader) (*Log, error) {
	var log Log
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if err := log.parseLine(sc.Text()); err != nil {
			return nil, fmt.Errorf("report: log line %d: %w", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("report: read log: %w", err)
	}
	return &log, nil
}

func (l *Log) parseLine(line string) error {
	line = strings.TrimSpace(line)
	switch {
	case line == "" || strings.HasPrefix(line, `"StartTimestamp"`):
		return nil
	case strings.HasPrefix(line, "#[StartTime: "):
		return l.parseStart(strings.TrimPrefix(line, "#[StartTime: "))
	case strings.HasPrefix(line, logDuration):
		return l.parseDuration(strings.TrimPrefix(line, logDuration))
	case strings.HasPrefix(line, "#"):
		return nil
	}
	iv, err := parseInterval(line)
	if err != nil {
		return err
	}
	l.Intervals = append(l.Intervals, iv)
	return nil
}

func (l *Log) parseStart(rest string) error {
	num, _, _ := strings.Cut(rest, " ")
	secs, err := strconv.ParseFloat(num, 64)
	if err != nil || secs < 0 || math.IsInf(secs, 0) {
		return fmt.Errorf("bad StartTime %q", num)
	}
	l.Start = time.UnixMilli(int64(math.Round(secs * 1000))).UTC()
	return nil
}

func (l *Log) parseDuration(rest string) error {
	num, _, _ := strings.Cut(rest, " ")
	secs, err := strconv.ParseFloat(num, 64)
	if err != nil || secs < 0 || secs > math.MaxInt64/float64(time.Second) {
		return fmt.Errorf("bad MeasuredDuration %q", num)
	}
	l.Duration = seconds(secs)
	return nil
}

// parseInterval reads "[Tag=T,]start,length,max,histogram".
func parseInterval(line string) (Interval, error) {
	var iv Interval
	if rest, ok := strings.CutPrefix(line, "Tag="); ok {
		tag, after, found := strings.Cut(rest, ",")
		if !found {
			return iv, errors.New("tag without interval")
		}
		iv.Tag, line = tag, after
	}
	f := strings.SplitN(line, ",", 4)
	if len(f) != 4 {
		return iv, errors.New("want start,length,max,histogram")
	}
	var nums [3]float64
	for i := range nums {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || v < 0 || math.IsInf(v, 0) {
			return iv, fmt.Errorf("bad number %q", f[i])
		}
		nums[i] = v
	}
	iv.At, iv.Length, iv.Max = seconds(nums[0]), seconds(nums[1]), fromMS(nums[2])
	iv.Histogram = load.NewHistogram()
	if err := iv.Histogram.UnmarshalText([]byte(f[3])); err != nil {
		return iv, err
	}
	return iv, nil
}

func seconds(v float64) time.Duration {
	return time.Duration(math.Round(v * float64(time.Second)))
}

// Merged is the exact merge of every interval tagged tag in the log.
func (l *Log) Merged(tag string) *load.Histogram {
	return MergeLogs(tag, l)
}

// MergeLogs merges the intervals tagged tag ("" for corrected latency,
// ServiceTag for service time) of several logs, such as those of one test
// run on several machines, into one exact histogram.
func MergeLogs(tag string, logs ...*Log) *load.Histogram {
	h := load.NewHistogram()
	for _, l := range logs {
		for _, iv := range l.Intervals {
			if iv.Tag == tag {
				h.Merge(iv.Histogram)
			}
		}
	}
	return h
}

// LogResult builds a Result from interval logs: histograms merged exactly,
// Calls and Errors their counts (successful and failed calls), and the
// time they span: from the earliest start to the latest end, a log's end
// being that of the run that wrote it when the log says, else that of its
// last interval. Logs carry no status codes or error texts.
func LogResult(logs ...*Log) *load.Result {
	r := &load.Result{
		Codes:     map[string]int64{},
		Messages:  map[string]int64{},
		Corrected: MergeLogs("", logs...),
		Service:   MergeLogs(ServiceTag, logs...),
		Failed:    MergeLogs(FailedTag, logs...),
		Extra:     load.NewHistogram(),
	}
	r.Errors = r.Failed.Count()
	r.Calls = r.Corrected.Count() + r.Errors
	var end time.Time
	for _, l := range logs {
		from, to, ok := l.span()
		if !ok {
			continue
		}
		if r.Start.IsZero() || from.Before(r.Start) {
			r.Start = from
		}
		if to.After(end) {
			end = to
		}
	}
	r.Duration = end.Sub(r.Start)
	return r
}

// span is the time the log covers: from its start, or its first interval's,
// to its start plus its Duration, or its last interval's end.
func (l *Log) span() (from, to time.Time, ok bool) {
	if l.Duration > 0 {
		return l.Start, l.Start.Add(l.Duration), true
	}
	for _, iv := range l.Intervals {
		a := l.Start.Add(iv.At)
		if !ok || a.Before(from) {
			from = a
		}
		if b := a.Add(iv.Length); !ok || b.After(to) {
			to = b
		}
		ok = true
	}
	return from, to, ok
}
