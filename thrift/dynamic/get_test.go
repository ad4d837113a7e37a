package dynamic_test

import (
	"bytes"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/dynamic"
)

// TestGetDiff holds Get against the generated code: on the specimens and
// random values of every struct of bench.thrift, in both protocols, every
// field at every depth (list and set elements by index, map values by key
// where keys are scalars) reads as the generated code's Read gives it.
func TestGetDiff(t *testing.T) {
	for _, s := range corpus(t, 25) {
		t.Run(s.label, func(t *testing.T) {
			v := dynamic.NewValue(thriftfixture.BenchType(t, s.name), s.p, s.b)
			checkGet(t, v, nil, reflect.ValueOf(decode(t, s.p, s.name, s.b)))
		})
	}
}

// checkGet compares the value at path with the Go value rv.
func checkGet(t *testing.T, root dynamic.Value, path dynamic.Path, rv reflect.Value) {
	t.Helper()
	if len(path) > 12 {
		return
	}
	got, err := root.Get(path)
	if err != nil {
		t.Fatalf("Get(%s): %v", path, err)
	}
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			if got.Exists() && len(path) > 0 {
				t.Fatalf("Get(%s) exists, the generated code has nil", path)
			}
			return
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Struct:
		checkStructGet(t, root, path, rv)
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			if !bytes.Equal(got.Binary(), rv.Bytes()) {
				t.Fatalf("Get(%s) = %q, want %q", path, got.Binary(), rv.Bytes())
			}
			return
		}
		if got.Len() != rv.Len() {
			t.Fatalf("Get(%s).Len() = %d, want %d", path, got.Len(), rv.Len())
		}
		for i := range rv.Len() {
			checkGet(t, root, append(path[:len(path):len(path)], dynamic.IndexStep(i)), rv.Index(i))
		}
	case reflect.Map:
		if got.Len() != rv.Len() {
			t.Fatalf("Get(%s).Len() = %d, want %d", path, got.Len(), rv.Len())
		}
		for _, k := range rv.MapKeys() {
			key, ok := mapKey(k)
			if !ok {
				return // struct keys cannot be named in a path
			}
			checkGet(t, root, append(path[:len(path):len(path)], dynamic.KeyStep(key)), rv.MapIndex(k))
		}
	case reflect.String:
		if got.String() != rv.String() {
			t.Fatalf("Get(%s) = %q, want %q", path, got.String(), rv.String())
		}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if got.Int() != rv.Int() {
			t.Fatalf("Get(%s) = %d, want %d", path, got.Int(), rv.Int())
		}
	case reflect.Float64:
		if math.Float64bits(got.Float()) != math.Float64bits(rv.Float()) {
			t.Fatalf("Get(%s) = %v, want %v", path, got.Float(), rv.Float())
		}
	case reflect.Bool:
		if got.Bool() != rv.Bool() {
			t.Fatalf("Get(%s) = %v, want %v", path, got.Bool(), rv.Bool())
		}
	default:
		t.Fatalf("Get(%s): no comparison for %v", path, rv.Type())
	}
}

// checkStructGet checks every field of the generated struct rv, by name
// and by id.
func checkStructGet(t *testing.T, root dynamic.Value, path dynamic.Path, rv reflect.Value) {
	t.Helper()
	for i := range rv.NumField() {
		tag := rv.Type().Field(i).Tag.Get("thrift")
		name, idText, _ := strings.Cut(tag, ",")
		if name == "" {
			continue
		}
		id, _ := strconv.Atoi(strings.Split(idText, ",")[0])
		checkGet(t, root, append(path[:len(path):len(path)], dynamic.FieldStep(name)), rv.Field(i))
		byID := append(path[:len(path):len(path)], dynamic.IDStep(int16(id)))
		a, err1 := root.Get(byID)
		b, err2 := root.Get(append(path[:len(path):len(path)], dynamic.FieldStep(name)))
		if err1 != nil || err2 != nil || a.Exists() != b.Exists() || !bytes.Equal(a.Raw(), b.Raw()) {
			t.Fatalf("Get(%s) and Get(%s) differ", byID, name)
		}
	}
}

func mapKey(k reflect.Value) (dynamic.Key, bool) {
	switch k.Kind() {
	case reflect.String:
		return dynamic.StringKey(k.String()), true
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return dynamic.IntKey(k.Int()), true
	case reflect.Bool:
		return dynamic.BoolKey(k.Bool()), true
	}
	return dynamic.Key{}, false
}
