package deploy_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// object is one YAML document of a manifest, decoded into its API type.
type object struct {
	file string // base name of the manifest
	doc  int    // 0-based index of the document in the file (#1 is the first)
	kind string // apiVersion/kind
	name string
	obj  any // *appsv1.Deployment, *corev1.Service, ...
}

func (o object) String() string { return fmt.Sprintf("%s#%d %s %q", o.file, o.doc+1, o.kind, o.name) }

// kinds are the API types the manifests may hold, by apiVersion/kind.
var kinds = map[string]func() any{
	"apps/v1/Deployment":            func() any { return new(appsv1.Deployment) },
	"batch/v1/Job":                  func() any { return new(batchv1.Job) },
	"v1/ConfigMap":                  func() any { return new(corev1.ConfigMap) },
	"v1/PersistentVolumeClaim":      func() any { return new(corev1.PersistentVolumeClaim) },
	"v1/Service":                    func() any { return new(corev1.Service) },
	"policy/v1/PodDisruptionBudget": func() any { return new(policyv1.PodDisruptionBudget) },
}

// docSep is the line between two YAML documents of a file.
var docSep = regexp.MustCompile(`(?m)^---[ \t]*$`)

// loadManifests decodes every document of deploy/*.yaml strictly: an
// unknown field, a duplicate key or an unknown kind fails the test.
func loadManifests(t *testing.T) []object {
	t.Helper()
	files, err := filepath.Glob("*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in deploy/ (%v)", err)
	}
	var out []object
	for _, file := range files {
		objs, err := decodeFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, objs...)
	}
	return out
}

func decodeFile(file string) ([]object, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var out []object
	for i, doc := range docSep.Split(string(data), -1) {
		if strings.TrimSpace(stripComments(doc)) == "" {
			continue
		}
		o, err := decodeDoc([]byte(doc))
		if err != nil {
			return nil, fmt.Errorf("%s, document %d: %w", file, i+1, err)
		}
		o.file, o.doc = file, i
		out = append(out, o)
	}
	return out, nil
}

func decodeDoc(doc []byte) (object, error) {
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &tm); err != nil {
		return object{}, err
	}
	kind := tm.APIVersion + "/" + tm.Kind
	newObj, ok := kinds[kind]
	if !ok {
		return object{}, fmt.Errorf("apiVersion %q kind %q: not a type this test knows", tm.APIVersion, tm.Kind)
	}
	obj := newObj()
	if err := yaml.UnmarshalStrict(doc, obj); err != nil {
		return object{}, fmt.Errorf("%s: %w", kind, err)
	}
	meta := obj.(metav1.Object)
	if meta.GetName() == "" {
		return object{}, fmt.Errorf("%s: no metadata.name", kind)
	}
	return object{kind: kind, name: meta.GetName(), obj: obj}, nil
}

func stripComments(doc string) string {
	var b strings.Builder
	for line := range strings.Lines(doc) {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// inFile returns the objects of one manifest file.
func inFile(objs []object, file string) []object {
	var out []object
	for _, o := range objs {
		if o.file == file {
			out = append(out, o)
		}
	}
	return out
}

// find returns the object of a kind and name in objs, or nil.
func find[T any](objs []object, name string) *T {
	for _, o := range objs {
		if v, ok := o.obj.(*T); ok && o.name == name {
			return v
		}
	}
	return nil
}

// all returns the objects of one type in objs.
func all[T any](objs []object) []*T {
	var out []*T
	for _, o := range objs {
		if v, ok := o.obj.(*T); ok {
			out = append(out, v)
		}
	}
	return out
}

// podTemplates returns the pod templates of the workloads in objs, keyed
// by a name to report them under.
func podTemplates(objs []object) map[string]*corev1.PodTemplateSpec {
	out := map[string]*corev1.PodTemplateSpec{}
	for _, o := range objs {
		switch w := o.obj.(type) {
		case *appsv1.Deployment:
			out[o.String()] = &w.Spec.Template
		case *batchv1.Job:
			out[o.String()] = &w.Spec.Template
		}
	}
	return out
}
