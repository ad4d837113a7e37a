package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/load/report"
)

// pushTimeout bounds the push of a run's metrics.
const pushTimeout = 30 * time.Second

// pushFlows pushes each flow's metrics as a group of its own, labelled
// by run and flow.
func pushFlows(ctx context.Context, base, runID string, runs []report.Run) error {
	for _, run := range runs {
		if err := pushMetrics(ctx, base, run.Result, map[string]string{"run": runID, "flow": run.Name}); err != nil {
			return err
		}
	}
	return nil
}

// pushMetrics sends res as metrics in the text format to a Pushgateway at
// base, replacing the group job rpckit_bench with the run's labels.
func pushMetrics(ctx context.Context, base string, res *load.Result, labels map[string]string) error {
	var body bytes.Buffer
	if err := (report.MetricsOptions{Labels: labels}).WriteMetrics(&body, res); err != nil {
		return err
	}
	target := strings.TrimSuffix(base, "/") + "/metrics/job/rpckit_bench" +
		groupingPath("run", labels["run"]) + groupingPath("flow", labels["flow"])
	ctx, cancel := context.WithTimeout(ctx, pushTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, &body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s answered %s: %s", base, resp.Status, oneLine(string(msg)))
	}
	return nil
}

// groupingPath is one label of a Pushgateway grouping key: /name/value,
// or /name@base64/... for a value a path segment cannot hold.
func groupingPath(name, value string) string {
	if value == "" || strings.Contains(value, "/") {
		return "/" + name + "@base64/" + base64.RawURLEncoding.EncodeToString([]byte(value)) + padding(value)
	}
	return "/" + name + "/" + url.PathEscape(value)
}

// padding is "=" for the empty value, which the Pushgateway wants spelled
// so; other values go unpadded.
func padding(value string) string {
	if value == "" {
		return "="
	}
	return ""
}
