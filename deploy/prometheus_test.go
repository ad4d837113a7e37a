package deploy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The live monitoring test: Prometheus scrapes the ranking pod of
// ranking.yaml every second under a short load, evaluates the rules, and
// every dashboard variable, panel query and rule must return data.
const (
	loadFor       = 4 * time.Second // each bench's --duration
	loadRate      = "50"            // calls per second of each bench
	rateInterval  = "1m"            // Grafana's $__rate_interval: the whole test
	promStartup   = 20 * time.Second
	rankService   = "rpckit.ranking.v1.RankingService"
	serveJob      = "ranking"
	gatewayJob    = "ranking-gateway"
	scrapeConfigs = `global: {scrape_interval: 1s, evaluation_interval: 1s}
rule_files: [%q]
scrape_configs:
  - job_name: %s
    static_configs: [{targets: [%q]}]
  - job_name: %s
    static_configs: [{targets: [%q, %q]}]
`
)

// TestMonitoringLive: the dashboards and rules work on what rpckit
// exports. The ranking pod runs on loopback (serve, and the gateway with
// --metrics, --admin and --breaker), Prometheus scrapes serve's admin
// port and the gateway's /metrics and admin port (its client metrics)
// each second and evaluates rpckit-slo.yaml, and bench sends a few hundred
// calls over gRPC and over REST. Then, through Prometheus's HTTP API:
// every dashboard variable has values, every panel query and every
// recording rule's expression and series return data, each "or" branch
// of every alert's expression returns data with its comparisons made bool
// (the alerts do not fire here; the promtool unit tests fire them), and
// every rule is healthy. On SIGTERM, serve's drain shows in
// rpckit_server_draining.
func TestMonitoringLive(t *testing.T) {
	t.Parallel()
	promBin := lookTool(t, "prometheus")
	objs := loadManifests(t)
	d := find[appsv1.Deployment](inFile(objs, "ranking.yaml"), "ranking")
	if d == nil {
		t.Fatal("ranking.yaml: no Deployment \"ranking\"")
	}
	p := newPod(t, &d.Spec.Template)
	serve, sidecars := splitServe(t, &d.Spec.Template)
	p.start(serve)
	p.ready(serve)
	gateway := gatewayContainer(t, sidecars)
	p.start(gateway)
	p.ready(gateway)
	admin := p.addr(serve, intstr.FromString("admin"))
	gw := p.addr(gateway, intstr.FromString(gateway.Ports[0].Name))
	gwAdmin := p.addr(gateway, intstr.FromString("gateway-admin"))

	prom := startPrometheus(t, promBin, admin, gw, gwAdmin)
	prom.waitUp(t, serveJob, gatewayJob)
	runLoad(t, p, serve, gw)
	prom.waitRecorded(t, fmt.Sprintf(`job_grpc_service:grpc_server_slow:ratio_rate5m{grpc_service=%q} >= 0`, rankService))

	for _, dash := range loadDashboards(t) {
		checkDashboard(t, prom, dash)
	}
	checkRules(t, prom)

	// On SIGTERM serve drains with its admin listener up, and the drain
	// state panel's series turns 1.
	if err := p.procs[serve.Name].cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	prom.waitRecorded(t, fmt.Sprintf(`rpckit_server_draining{job=%q} == 1`, serveJob))
}

// gatewayContainer is the sidecar that runs rpckit gateway with --metrics.
func gatewayContainer(t *testing.T, sidecars []*corev1.Container) *corev1.Container {
	for _, c := range sidecars {
		argv, ok := rpckitArgv(c.Command, c.Args)
		if ok && len(argv) > 0 && argv[0] == "gateway" {
			if !slices.Contains(c.Args, "--metrics") && !slices.Contains(c.Args, "--metrics=true") {
				t.Fatalf("container %q: gateway without --metrics", c.Name)
			}
			return c
		}
	}
	t.Fatal("ranking.yaml: no gateway sidecar")
	return nil
}

// runLoad runs two bounded benches at once, loadRate calls a second for
// loadFor each: gRPC to serve, and REST through the gateway.
func runLoad(t *testing.T, p *pod, serve *corev1.Container, gw string) {
	grpcAddr := p.addr(serve, intstr.FromString("grpc"))
	benches := [][]string{
		{"bench", "--plaintext", "--rate", loadRate, "--duration", loadFor.String(), grpcAddr,
			rankService + "/Rank", "-d", rankRequest},
		{"bench", "--rate", loadRate, "--duration", loadFor.String(), "-X", "POST", "--body", rankRequest,
			"http://" + gw + "/v1/rank"},
	}
	errs := make(chan error, len(benches))
	for _, args := range benches {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), loadFor+startWithin)
			defer cancel()
			out, err := exec.CommandContext(ctx, rpckitBin(t), args...).CombinedOutput()
			if err != nil {
				err = fmt.Errorf("rpckit %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			errs <- err
		}()
	}
	for range benches {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// prometheus is a Prometheus server the test started.
type prometheus struct {
	url string
	out *syncBuffer
}

// startPrometheus runs Prometheus on loopback, scraping serve's admin
// listener, and the gateway's listener and admin one, with the SLO rules,
// until the test ends.
func startPrometheus(t *testing.T, bin, admin, gateway, gatewayAdmin string) *prometheus {
	dir := t.TempDir()
	rules, err := filepath.Abs(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "prometheus.yml")
	body := fmt.Sprintf(scrapeConfigs, rules, serveJob, admin, gatewayJob, gateway, gatewayAdmin)
	if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	listen := "127.0.0.1:" + strconv.Itoa(freePort(t))
	cmd := exec.Command(bin, "--config.file="+config, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+listen, "--log.level=warn")
	prom := &prometheus{url: "http://" + listen, out: &syncBuffer{}}
	cmd.Stdout, cmd.Stderr = prom.out, prom.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("prometheus output:\n%s", prom.out.String())
		}
	})
	prom.waitReady(t, done)
	return prom
}

func (pr *prometheus) waitReady(t *testing.T, exited chan struct{}) {
	deadline := time.Now().Add(promStartup)
	for {
		err := httpGet(context.Background(), pr.url+"/-/ready")
		if err == nil {
			return
		}
		select {
		case <-exited:
			t.Fatalf("prometheus exited:\n%s", pr.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus not ready after %v: %v", promStartup, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitUp waits until every job's target has been scraped successfully.
func (pr *prometheus) waitUp(t *testing.T, jobs ...string) {
	for _, job := range jobs {
		pr.waitRecorded(t, fmt.Sprintf(`up{job=%q} == 1`, job))
	}
}

// waitRecorded waits until expr returns data.
func (pr *prometheus) waitRecorded(t *testing.T, expr string) {
	deadline := time.Now().Add(promStartup)
	for {
		n, err := pr.query(expr)
		if err == nil && n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no data after %v (%v)", expr, promStartup, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// query evaluates expr now and returns the number of results.
func (pr *prometheus) query(expr string) (int, error) {
	var data struct{ Result []json.RawMessage }
	err := pr.api("/api/v1/query", url.Values{"query": {expr}}, &data)
	return len(data.Result), err
}

// labelValues returns the values of label on the series matching match.
func (pr *prometheus) labelValues(label, match string) ([]string, error) {
	var values []string
	err := pr.api("/api/v1/label/"+label+"/values", url.Values{"match[]": {match}}, &values)
	return values, err
}

// api GETs an endpoint of Prometheus's HTTP API with the parameters of
// form and decodes its data.
func (pr *prometheus) api(path string, form url.Values, data any) error {
	get := pr.url + path
	if len(form) > 0 {
		get += "?" + form.Encode()
	}
	resp, err := http.Get(get)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	var r struct {
		Status, Error string
		Data          json.RawMessage
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("%s: %s: %v", path, resp.Status, err)
	}
	if r.Status != "success" {
		return fmt.Errorf("%s: %s", path, r.Error)
	}
	return json.Unmarshal(r.Data, data)
}
