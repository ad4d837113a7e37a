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

func (s stubs) client() {
	g, name := s.g, s.name()
	g.P()
	g.P("// ", name, "Client is the client API for the ", name, " service.")
	comments(g, s.svc.Comments.Leading)
	g.P("type ", name, "Client interface {")
	for _, m := range s.svc.Methods {
		g.P(strings.TrimSuffix(m.Comments.Leading.String(), "\n"))
		g.P(s.clientSignature(m))
	}
	g.P("}")
	g.P()
	lower := unexport(name) + "Client"
	g.P("type ", lower, " struct {")
	g.P("cc ", grpcPkg.Ident("ClientConnInterface"))
	g.P("}")
	g.P()
	g.P("// New", name, "Client returns the client of the ", name, " service calling over cc.")
	g.P("func New", name, "Client(cc ", grpcPkg.Ident("ClientConnInterface"), ") ", name, "Client {")
	g.P("return &", lower, "{cc}")
	g.P("}")
	for _, m := range s.svc.Methods {
		s.clientMethod(lower, m)
	}
}

func (s stubs) clientMethod(recv string, m *protogen.Method) {
	g := s.g
	g.P()
	g.P("func (c *", recv, ") ", s.clientSignature(m), " {")
	g.P("cOpts := append([]", grpcPkg.Ident("CallOption"), "{", grpcPkg.Ident("StaticMethod"), "()}, opts...)")
	if !isStream(m) {
		g.P("out := new(", m.Output.GoIdent, ")")
		g.P("if err := c.cc.Invoke(ctx, ", s.fullMethodName(m), ", in, out, cOpts...); err != nil {")
		g.P("return nil, err")
		g.P("}")
		g.P("return out, nil")
		g.P("}")
		return
	}
	g.P("stream, err := c.cc.NewStream(ctx, &", s.name(), "_ServiceDesc.Streams[", s.streamIndex(m), "], ", s.fullMethodName(m), ", cOpts...)")
	g.P("if err != nil {")
	g.P("return nil, err")
	g.P("}")
	g.P("x := &", grpcPkg.Ident("GenericClientStream"), "[", m.Input.GoIdent, ", ", m.Output.GoIdent, "]{ClientStream: stream}")
	if !m.Desc.IsStreamingClient() {
		g.P("if err := x.ClientStream.SendMsg(in); err != nil {")
		g.P("return nil, err")
		g.P("}")
		g.P("if err := x.ClientStream.CloseSend(); err != nil {")
		g.P("return nil, err")
		g.P("}")
	}
	g.P("return x, nil")
	g.P("}")
	g.P()
	g.P("// ", s.name(), "_", m.GoName, "Client is the stream type of ", m.GoName, " by its older name.")
	g.P("type ", s.name(), "_", m.GoName, "Client = ", s.streamType(m, "Client"))
}

func unexport(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
