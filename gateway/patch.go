package gateway

import (
	"encoding/json"
	"fmt"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// A PATCH whose body is one message field of a request that has an
// update_mask field of type google.protobuf.FieldMask gets the mask filled
// from the keys the body sets, unless the query gives one: every complete
// path, not descending into repeated fields, maps or Any; into Struct
// and Value by their JSON keys; sorted. This is grpc-gateway's PATCH
// feature, so the same request means the same update behind either one.

// updateMaskField is the request's update_mask when the route fills it.
func (r *Route) updateMaskField() protoreflect.FieldDescriptor {
	if r.HTTPMethod != "PATCH" || r.Body == "" || r.Body == "*" {
		return nil
	}
	fd := r.Method.Input().Fields().ByName("update_mask")
	if fd == nil || fd.IsList() || fd.Message() == nil || fd.Message().FullName() != "google.protobuf.FieldMask" {
		return nil
	}
	if body, _ := fieldPath(r.Method.Input(), r.Body); body[len(body)-1].Message() == nil {
		return nil
	}
	return fd
}

// appendUpdateMask appends to wire the update_mask record of the paths the
// JSON body sets in a message of type md.
func appendUpdateMask(wire []byte, mask protoreflect.FieldDescriptor, md protoreflect.MessageDescriptor, body []byte) ([]byte, error) {
	paths, err := maskPaths(md, body)
	if err != nil {
		return nil, fmt.Errorf("update mask: %w", err)
	}
	wire = protowire.AppendTag(wire, mask.Number(), protowire.BytesType)
	return protowire.AppendBytes(wire, fieldMaskWire(paths)), nil
}

// maskPaths lists, sorted, the field paths a JSON body of a message md
// sets.
func maskPaths(md protoreflect.MessageDescriptor, body []byte) ([]string, error) {
	var root any
	if err := json.Unmarshal(body, &root); err != nil {
		return nil, err
	}
	var paths []string
	if err := collectPaths(&paths, "", md, root); err != nil {
		return nil, err
	}
	slices.Sort(paths)
	return paths, nil
}

// fieldMaskWire is the wire form of a google.protobuf.FieldMask of paths.
func fieldMaskWire(paths []string) []byte {
	var inner []byte
	for _, p := range paths {
		inner = protowire.AppendTag(inner, 1, protowire.BytesType)
		inner = protowire.AppendString(inner, p)
	}
	return inner
}

// collectPaths adds the complete paths under prefix that node sets in a
// message of type md.
func collectPaths(out *[]string, prefix string, md protoreflect.MessageDescriptor, node any) error {
	obj, ok := node.(map[string]any)
	if !ok || len(obj) == 0 {
		if prefix != "" {
			*out = append(*out, prefix)
		}
		return nil
	}
	for k, v := range obj {
		fd := md.Fields().ByName(protoreflect.Name(k))
		if fd == nil {
			fd = md.Fields().ByJSONName(k)
		}
		if fd == nil {
			return fmt.Errorf("%s has no field %q", md.FullName(), k)
		}
		if err := collectField(out, joinPath(prefix, string(fd.Name())), fd, v); err != nil {
			return err
		}
	}
	return nil
}

// collectField appends the paths of field fd, at path, set to node: the
// field itself when it is a leaf for masks, else the paths within it.
func collectField(out *[]string, path string, fd protoreflect.FieldDescriptor, node any) error {
	sub := fd.Message()
	switch {
	case fd.IsList() || fd.IsMap() || sub == nil || sub.FullName() == "google.protobuf.Any":
		*out = append(*out, path)
	case sub.FullName() == "google.protobuf.Struct" || sub.FullName() == "google.protobuf.Value":
		blindPaths(out, path, node)
	default:
		return collectPaths(out, path, sub, node)
	}
	return nil
}

// blindPaths adds the paths of a JSON value with no message type: object
// keys as path elements, anything else a leaf.
func blindPaths(out *[]string, prefix string, node any) {
	obj, ok := node.(map[string]any)
	if !ok || len(obj) == 0 {
		*out = append(*out, prefix)
		return
	}
	for k, v := range obj {
		blindPaths(out, joinPath(prefix, k), v)
	}
}

func joinPath(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
