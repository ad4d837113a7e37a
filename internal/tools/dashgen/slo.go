package main

import "fmt"

// The service level objectives of deploy/prometheus/rpckit-slo.yaml, whose
// recording rules the service dashboard draws. The rules file is the
// source: these must say the same.
const (
	// errorCodes are the codes that count against the error objective:
	// the server failed, rather than the caller asking for something it
	// may not have.
	errorCodes = "Unknown|DeadlineExceeded|Unimplemented|Internal|Unavailable|DataLoss"
	// errorBudget is the share of calls that may fail (99.9% succeed).
	errorBudget = 0.001
	// slowBudget is the share of unary calls that may take longer than
	// the latency objective, 200 ms (a p99 of 200 ms).
	slowBudget = 0.01
)

// burnWindows are the windows the rules record a ratio over that the
// dashboard draws: the fast-burn alert's long windows.
var burnWindows = []string{"1h", "6h"}

// errorRatio and slowRatio name the recording rules of the error and
// latency objectives over window.
func errorRatio(window string) string {
	return fmt.Sprintf("job_grpc_service:grpc_server_errors:ratio_rate%s", window)
}

func slowRatio(window string) string {
	return fmt.Sprintf("job_grpc_service:grpc_server_slow:ratio_rate%s", window)
}
