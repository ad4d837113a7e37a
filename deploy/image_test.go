package deploy_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// nonrootUID is the "nonroot" user of the distroless base image.
const nonrootUID = 65532

// TestDockerfileFitsManifests: the image is built with the Go of go.mod,
// runs as distroless's nonroot user and has the binary at the path the
// manifests' exec probes call.
func TestDockerfileFitsManifests(t *testing.T) {
	dockerfile := readFile(t, "Dockerfile")
	gomod := readFile(t, "../go.mod")
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(gomod)
	if goVersion == nil || !strings.Contains(dockerfile, "FROM golang:"+goVersion[1]+" ") {
		t.Errorf("Dockerfile: the build stage is not FROM golang:%v (go.mod's)", goVersion)
	}
	froms := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(dockerfile, -1)
	if len(froms) == 0 || !strings.HasSuffix(froms[len(froms)-1][1], ":nonroot") {
		t.Errorf("Dockerfile: the final stage is not a nonroot distroless image (uid %d)", nonrootUID)
	}
	for _, want := range []string{"COPY --from=build /rpckit " + imageBinary + "\n", `ENTRYPOINT ["` + imageBinary + `"]`, "./cmd/rpckit"} {
		if !strings.Contains(dockerfile, want) {
			t.Errorf("Dockerfile: no %q", want)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestContainersLockedDown: every rpckit container runs as the image's
// nonroot user, on a read-only root filesystem, with no privilege
// escalation and no capabilities.
func TestContainersLockedDown(t *testing.T) {
	for where, pod := range podTemplates(loadManifests(t)) {
		for _, c := range pod.Spec.Containers {
			if !isRpckit(&c) {
				continue
			}
			if err := lockedDown(pod.Spec.SecurityContext, c.SecurityContext); err != "" {
				t.Errorf("%s: container %q: %s", where, c.Name, err)
			}
		}
	}
}

func lockedDown(pod *corev1.PodSecurityContext, c *corev1.SecurityContext) string {
	if pod == nil {
		pod = &corev1.PodSecurityContext{}
	}
	if c == nil {
		return "no securityContext"
	}
	nonRoot, uid := c.RunAsNonRoot, c.RunAsUser
	if nonRoot == nil {
		nonRoot = pod.RunAsNonRoot
	}
	if uid == nil {
		uid = pod.RunAsUser
	}
	switch {
	case nonRoot == nil || !*nonRoot:
		return "runAsNonRoot is not true"
	case uid == nil || *uid != nonrootUID:
		return "runAsUser is not the image's nonroot user (65532)"
	case c.ReadOnlyRootFilesystem == nil || !*c.ReadOnlyRootFilesystem:
		return "readOnlyRootFilesystem is not true"
	case c.AllowPrivilegeEscalation == nil || *c.AllowPrivilegeEscalation:
		return "allowPrivilegeEscalation is not false"
	case c.Capabilities == nil || len(c.Capabilities.Drop) != 1 || c.Capabilities.Drop[0] != "ALL" || len(c.Capabilities.Add) != 0:
		return "capabilities: want drop [ALL] and no add"
	}
	return ""
}
