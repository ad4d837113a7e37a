package scaffold

import (
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
)

func (s stubs) clientSignature(m *protogen.Method) string {
	g := s.g
	sig := m.GoName + "(ctx " + g.QualifiedGoIdent(contextPkg.Ident("Context"))
	if !m.Desc.IsStreamingClient() {
		sig += ", in *" + g.QualifiedGoIdent(m.Input.GoIdent)
	}
	sig += ", opts ..." + g.QualifiedGoIdent(grpcPkg.Ident("CallOption")) + ") ("
	if isStream(m) {
		return sig + s.streamType(m, "Client") + ", error)"
	}
	return sig + "*" + g.QualifiedGoIdent(m.Output.GoIdent) + ", error)"
}

// client writes the client API: its interface, the implementation and
// its constructor, and the methods.
func (s stubs) client() {
	lower := unexport(s.name()) + "Client"
	s.clientInterface()
	s.g.P()
	s.clientConstructor(lower)
	for _, m := range s.svc.Methods {
		s.clientMethod(lower, m)
	}
}

// clientInterface writes the interface of the service's client.
func (s stubs) clientInterface() {
	g, name := s.g, s.name()
	g.P()
	g.P("// ", name, "Client is the client API for the ", name, " service.")
	comments(g, s.svc.Comments.Leading)
	g.P("type ", name, "Client interface {")
	s.methodSet(s.clientSignature)
	g.P("}")
}

// clientConstructor writes the client's type, lower, and its New
// function.
func (s stubs) clientConstructor(lower string) {
	g, name := s.g, s.name()
	g.P("type ", lower, " struct {")
	g.P("cc ", grpcPkg.Ident("ClientConnInterface"))
	g.P("}")
	g.P()
	g.P("// New", name, "Client returns the client of the ", name, " service calling over cc.")
	g.P("func New", name, "Client(cc ", grpcPkg.Ident("ClientConnInterface"), ") ", name, "Client {")
	g.P("return &", lower, "{cc}")
	g.P("}")
}

// clientMethod writes the client's method m, on receiver type recv.
func (s stubs) clientMethod(recv string, m *protogen.Method) {
	s.g.P()
	s.g.P("func (c *", recv, ") ", s.clientSignature(m), " {")
	s.g.P("cOpts := append([]", grpcPkg.Ident("CallOption"), "{", grpcPkg.Ident("StaticMethod"), "()}, opts...)")
	if isStream(m) {
		s.streamCall(m)
	} else {
		s.unaryCall(m)
	}
}

// unaryCall writes the body of a unary method's client call.
func (s stubs) unaryCall(m *protogen.Method) {
	g := s.g
	g.P("out := new(", m.Output.GoIdent, ")")
	g.P("if err := c.cc.Invoke(ctx, ", s.fullMethodName(m), ", in, out, cOpts...); err != nil {")
	g.P("return nil, err")
	g.P("}")
	g.P("return out, nil")
	g.P("}")
}

// streamCall writes the body of a streaming method's client call, and
// the stream type's older name.
func (s stubs) streamCall(m *protogen.Method) {
	g := s.g
	g.P("stream, err := c.cc.NewStream(ctx, &", s.name(), "_ServiceDesc.Streams[", s.streamIndex(m), "], ", s.fullMethodName(m), ", cOpts...)")
	g.P("if err != nil {")
	g.P("return nil, err")
	g.P("}")
	g.P("x := &", grpcPkg.Ident("GenericClientStream"), "[", m.Input.GoIdent, ", ", m.Output.GoIdent, "]{ClientStream: stream}")
	s.sendRequest(m)
	g.P("return x, nil")
	g.P("}")
	s.streamAlias(m, "Client")
}

// sendRequest writes the sending of the one request of a server stream,
// and the half-close; a client stream sends its own.
func (s stubs) sendRequest(m *protogen.Method) {
	if m.Desc.IsStreamingClient() {
		return
	}
	s.g.P("if err := x.ClientStream.SendMsg(in); err != nil {")
	s.g.P("return nil, err")
	s.g.P("}")
	s.g.P("if err := x.ClientStream.CloseSend(); err != nil {")
	s.g.P("return nil, err")
	s.g.P("}")
}

func unexport(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
