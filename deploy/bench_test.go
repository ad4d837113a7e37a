package deploy_test

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// The bench Job runs cut down to this, against loopback.
const (
	benchDuration = "1s"
	benchWarmup   = "0s"
	benchPods     = 2 // completion indexes run, at once
	benchWithin   = 60 * time.Second
)

// benchConfig returns the Job's bench settings: the file its container
// gives to --config, from the ConfigMap mounted there.
func benchConfig(t *testing.T, objs []object, job *batchv1.Job) (map[string]any, *corev1.Container) {
	t.Helper()
	spec := &job.Spec.Template.Spec
	if len(spec.Containers) != 1 {
		t.Fatalf("job %q: %d containers, want one bench container", job.Name, len(spec.Containers))
	}
	c := &spec.Containers[0]
	path, ok := flagValue(c.Args, "config")
	if !ok {
		t.Fatalf("job %q: bench without --config", job.Name)
	}
	data := configMapFile(t, objs, spec, c, path)
	var settings map[string]any
	if err := yaml.Unmarshal([]byte(data), &settings); err != nil {
		t.Fatalf("job %q: %s: %v", job.Name, path, err)
	}
	return settings, c
}

// configMapFile returns the content of the file at path in container c,
// from the ConfigMap volume mounted over it.
func configMapFile(t *testing.T, objs []object, spec *corev1.PodSpec, c *corev1.Container, path string) string {
	t.Helper()
	for _, m := range c.VolumeMounts {
		key, ok := strings.CutPrefix(path, m.MountPath+"/")
		if !ok {
			continue
		}
		for _, v := range spec.Volumes {
			if v.Name != m.Name || v.ConfigMap == nil {
				continue
			}
			cm := find[corev1.ConfigMap](objs, v.ConfigMap.Name)
			if cm == nil {
				t.Fatalf("volume %q: no ConfigMap %q in the manifests", v.Name, v.ConfigMap.Name)
			}
			data, ok := cm.Data[key]
			if !ok {
				t.Fatalf("ConfigMap %q has no key %q", cm.Name, key)
			}
			return data
		}
	}
	t.Fatalf("container %q: %s is on no ConfigMap volume", c.Name, path)
	return ""
}

// jobTarget resolves a bench Job's target, SERVICE.NAMESPACE.svc...:PORT,
// to the loopback address of the container port behind that port of a
// Service in objs (p's manifest) whose pods p runs; ok is false when it
// names none. The Job's ConfigMap is looked up in every manifest.
func (p *pod) jobTarget(t *testing.T, every, objs []object, job *batchv1.Job) (string, bool) {
	settings, _ := benchConfig(t, every, job)
	host, port, err := net.SplitHostPort(fmt.Sprint(settings["target"]))
	if err != nil {
		t.Fatalf("job %q: target %v: %v", job.Name, settings["target"], err)
	}
	name, _, _ := strings.Cut(host, ".")
	svc := find[corev1.Service](objs, name)
	if svc == nil || len(selectedPods(objs, svc.Spec.Selector)) == 0 {
		return "", false
	}
	for _, sp := range svc.Spec.Ports {
		if strconv.Itoa(int(sp.Port)) != port {
			continue
		}
		c, _, ok := podPort(p.spec, servicePortTarget(sp))
		if !ok {
			t.Fatalf("job %q: Service %q port %d leads to no container", job.Name, name, sp.Port)
		}
		return p.addr(c, servicePortTarget(sp)), true
	}
	t.Fatalf("job %q: target %s: Service %q has no port %s", job.Name, host, name, port)
	return "", false
}

// TestBenchJobDeadline: a bench Job's deadline leaves time for its
// warm-up and its run.
func TestBenchJobDeadline(t *testing.T) {
	objs := loadManifests(t)
	for _, job := range all[batchv1.Job](objs) {
		settings, _ := benchConfig(t, objs, job)
		var run time.Duration
		for _, k := range []string{"warmup", "duration"} {
			d, err := time.ParseDuration(fmt.Sprint(settings[k]))
			if err != nil {
				t.Fatalf("job %q: %s: %v", job.Name, k, err)
			}
			run += d
		}
		if job.Spec.ActiveDeadlineSeconds == nil || time.Duration(*job.Spec.ActiveDeadlineSeconds)*time.Second <= run {
			t.Errorf("job %q: activeDeadlineSeconds does not cover warmup + duration (%v)", job.Name, run)
		}
	}
}

// runBenchJob runs a bench Job's pods, cut down to benchDuration, against
// addr: its volumes are directories, its settings file the ConfigMap's
// with target, duration and warmup replaced. Every pod must exit 0 with
// calls and no error, write its HdrHistogram log, and `rpckit bench merge`
// must combine the logs, as deploy/README.md says.
func runBenchJob(t *testing.T, objs []object, job *batchv1.Job, addr string) {
	t.Helper()
	settings, c := benchConfig(t, objs, job)
	if settings["format"] != "json" || settings["output"] == nil || settings["hdr-log"] == nil {
		t.Fatalf("job %q: want format json, an output file and an hdr-log", job.Name)
	}
	mounts := map[string]string{}
	for _, m := range c.VolumeMounts {
		mounts[m.MountPath] = t.TempDir()
	}
	settings["target"] = addr
	settings["duration"] = benchDuration
	settings["warmup"] = benchWarmup
	if slo, ok := settings["slo"].(string); ok {
		settings["slo"] = untimed(slo)
	}
	for k, v := range settings {
		if s, ok := v.(string); ok {
			settings[k] = remount(s, mounts)
		}
	}
	configPath, _ := flagValue(c.Args, "config")
	writeYAML(t, remount(configPath, mounts), settings)
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = remount(a, mounts)
	}
	pods := min(benchPods, int(ptrOr(job.Spec.Completions, 1)))
	errs := make(chan error, pods)
	for i := range pods {
		go func() { errs <- runBenchPod(t, job, args, i) }()
	}
	for range pods {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if t.Failed() {
		return
	}
	checkBenchOutputs(t, settings, pods)
}

// latencyClause is an SLO clause that caps a latency.
var latencyClause = regexp.MustCompile(`^\s*(p[0-9.]+|mean|max)\s*(<=?)`)

// untimed raises the latency limits of an SLO to an hour: a shared test
// machine asserts no latency, while every clause is still parsed and the
// others (errors) still checked.
func untimed(slo string) string {
	clauses := strings.Split(slo, ",")
	for i, c := range clauses {
		if m := latencyClause.FindStringSubmatch(c); m != nil {
			clauses[i] = m[1] + m[2] + "1h"
		}
	}
	return strings.Join(clauses, ",")
}

// remount rewrites a path under a volume's mountPath to its directory.
func remount(s string, mounts map[string]string) string {
	for mp, dir := range mounts {
		if rest, ok := strings.CutPrefix(s, mp+"/"); ok {
			return filepath.Join(dir, rest)
		}
		if name, rest, ok := strings.Cut(s, "="+mp+"/"); ok {
			return name + "=" + filepath.Join(dir, rest)
		}
	}
	return s
}

func writeYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func ptrOr[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// runBenchPod runs one pod of the Job, with the completion index an
// Indexed Job gives it.
func runBenchPod(t *testing.T, job *batchv1.Job, args []string, index int) error {
	cmd := exec.Command(rpckitBin(t), args...)
	cmd.Env = os.Environ()
	if job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == batchv1.IndexedCompletion {
		cmd.Env = append(cmd.Env, "JOB_COMPLETION_INDEX="+strconv.Itoa(index))
	}
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return err
	}
	timer := time.AfterFunc(benchWithin, func() { cmd.Process.Kill() })
	defer timer.Stop()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("bench pod %d: %s: %v\n%s", index, cmd.Args, err, out.String())
	}
	t.Logf("bench pod %d: %s", index, cmd.Args)
	return nil
}

// expand replaces ${JOB_COMPLETION_INDEX} in a setting, as bench does.
func expand(s string, index int) string {
	return strings.ReplaceAll(s, "${JOB_COMPLETION_INDEX}", strconv.Itoa(index))
}

// checkBenchOutputs reads each pod's JSON report and merges their logs:
// the merged histogram must hold every pod's calls.
func checkBenchOutputs(t *testing.T, settings map[string]any, pods int) {
	var logs []string
	var calls int64
	for i := range pods {
		var report struct {
			Calls   int64            `json:"calls"`
			Errors  int64            `json:"errors"`
			NotSent int64            `json:"not_sent"`
			Codes   map[string]int64 `json:"codes"`
		}
		readJSON(t, expand(fmt.Sprint(settings["output"]), i), &report)
		if report.Calls == 0 || report.Errors != 0 || report.NotSent != 0 {
			t.Fatalf("bench pod %d: %d calls, %d errors %v, %d not sent", i, report.Calls, report.Errors, report.Codes, report.NotSent)
		}
		t.Logf("bench pod %d: %d calls, no errors", i, report.Calls)
		calls += report.Calls
		logs = append(logs, expand(fmt.Sprint(settings["hdr-log"]), i))
	}
	merged := filepath.Join(t.TempDir(), "merged.json")
	argv := append([]string{"bench", "merge", "--format", "json", "-o", merged}, logs...)
	if out, err := exec.Command(rpckitBin(t), argv...).CombinedOutput(); err != nil {
		t.Fatalf("rpckit %s: %v\n%s", argv, err, out)
	}
	var report struct {
		Latency struct {
			Count int64 `json:"count"`
		} `json:"latency"`
	}
	readJSON(t, merged, &report)
	if report.Latency.Count != calls {
		t.Errorf("rpckit bench merge: %d calls in the merged histogram, the pods made %d", report.Latency.Count, calls)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
