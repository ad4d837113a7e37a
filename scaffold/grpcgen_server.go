package scaffold

import (
	"strconv"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
)

func (s stubs) serverSignature(m *protogen.Method) string {
	g := s.g
	switch {
	case !isStream(m):
		return m.GoName + "(" + g.QualifiedGoIdent(contextPkg.Ident("Context")) + ", *" +
			g.QualifiedGoIdent(m.Input.GoIdent) + ") (*" + g.QualifiedGoIdent(m.Output.GoIdent) + ", error)"
	case m.Desc.IsStreamingClient():
		return m.GoName + "(" + s.streamType(m, "Server") + ") error"
	}
	return m.GoName + "(*" + g.QualifiedGoIdent(m.Input.GoIdent) + ", " + s.streamType(m, "Server") + ") error"
}

func (s stubs) server() {
	g, name := s.g, s.name()
	unimpl := "Unimplemented" + name + "Server"
	g.P()
	g.P("// ", name, "Server is the server API for the ", name, " service.")
	g.P("// Implementations must embed ", unimpl, " for forward compatibility.")
	comments(g, s.svc.Comments.Leading)
	g.P("type ", name, "Server interface {")
	for _, m := range s.svc.Methods {
		g.P(strings.TrimSuffix(m.Comments.Leading.String(), "\n"))
		g.P(s.serverSignature(m))
	}
	g.P("mustEmbed", unimpl, "()")
	g.P("}")
	g.P()
	g.P("// ", unimpl, " answers every method with UNIMPLEMENTED. Embed it")
	g.P("// by value in implementations, so that methods added later compile.")
	g.P("type ", unimpl, " struct{}")
	g.P()
	for _, m := range s.svc.Methods {
		ret := "status.Error"
		if !isStream(m) {
			ret = "nil, status.Error"
		}
		ret = strings.Replace(ret, "status.Error", g.QualifiedGoIdent(statusPkg.Ident("Error")), 1)
		g.P("func (", unimpl, ") ", s.serverSignature(m), " {")
		g.P("return ", ret, "(", codesPkg.Ident("Unimplemented"), `, "method `, m.GoName, ` not implemented")`)
		g.P("}")
	}
	g.P("func (", unimpl, ") mustEmbed", unimpl, "() {}")
	g.P("func (", unimpl, ") testEmbeddedByValue() {}")
	g.P()
	g.P("// Unsafe", name, "Server may be embedded to opt out of forward compatibility:")
	g.P("// methods added to ", name, "Server then break the build.")
	g.P("type Unsafe", name, "Server interface {")
	g.P("mustEmbed", unimpl, "()")
	g.P("}")
}

func (s stubs) register() {
	g, name := s.g, s.name()
	g.P()
	g.P("// Register", name, "Server registers srv on s.")
	g.P("func Register", name, "Server(s ", grpcPkg.Ident("ServiceRegistrar"), ", srv ", name, "Server) {")
	g.P("// Calling a method of a nil *Unimplemented", name, "Server embedded by")
	g.P("// pointer panics: find out now rather than on a call.")
	g.P("if t, ok := srv.(interface{ testEmbeddedByValue() }); ok {")
	g.P("t.testEmbeddedByValue()")
	g.P("}")
	g.P("s.RegisterService(&", name, "_ServiceDesc, srv)")
	g.P("}")
}

func (s stubs) handler(m *protogen.Method) {
	g, name := s.g, s.name()
	fn := "_" + name + "_" + m.GoName + "_Handler"
	g.P()
	if !isStream(m) {
		s.unaryHandler(fn, m)
		return
	}
	g.P("func ", fn, "(srv interface{}, stream ", grpcPkg.Ident("ServerStream"), ") error {")
	stream := "&" + g.QualifiedGoIdent(grpcPkg.Ident("GenericServerStream")) + "[" +
		g.QualifiedGoIdent(m.Input.GoIdent) + ", " + g.QualifiedGoIdent(m.Output.GoIdent) + "]{ServerStream: stream}"
	if m.Desc.IsStreamingClient() {
		g.P("return srv.(", name, "Server).", m.GoName, "(", stream, ")")
	} else {
		g.P("m := new(", m.Input.GoIdent, ")")
		g.P("if err := stream.RecvMsg(m); err != nil {")
		g.P("return err")
		g.P("}")
		g.P("return srv.(", name, "Server).", m.GoName, "(m, ", stream, ")")
	}
	g.P("}")
	g.P()
	g.P("// ", name, "_", m.GoName, "Server is the stream type of ", m.GoName, " by its older name.")
	g.P("type ", name, "_", m.GoName, "Server = ", s.streamType(m, "Server"))
}

func (s stubs) unaryHandler(fn string, m *protogen.Method) {
	g, name := s.g, s.name()
	g.P("func ", fn, "(srv interface{}, ctx ", contextPkg.Ident("Context"), ", dec func(interface{}) error, interceptor ",
		grpcPkg.Ident("UnaryServerInterceptor"), ") (interface{}, error) {")
	g.P("in := new(", m.Input.GoIdent, ")")
	g.P("if err := dec(in); err != nil {")
	g.P("return nil, err")
	g.P("}")
	g.P("if interceptor == nil {")
	g.P("return srv.(", name, "Server).", m.GoName, "(ctx, in)")
	g.P("}")
	g.P("info := &", grpcPkg.Ident("UnaryServerInfo"), "{")
	g.P("Server: srv,")
	g.P("FullMethod: ", s.fullMethodName(m), ",")
	g.P("}")
	g.P("handler := func(ctx ", contextPkg.Ident("Context"), ", req interface{}) (interface{}, error) {")
	g.P("return srv.(", name, "Server).", m.GoName, "(ctx, req.(*", m.Input.GoIdent, "))")
	g.P("}")
	g.P("return interceptor(ctx, in, info, handler)")
	g.P("}")
}

func (s stubs) serviceDesc() {
	g, name := s.g, s.name()
	g.P()
	g.P("// ", name, "_ServiceDesc describes the ", name, " service to grpc.RegisterService.")
	g.P("var ", name, "_ServiceDesc = ", grpcPkg.Ident("ServiceDesc"), "{")
	g.P("ServiceName: ", strconv.Quote(string(s.svc.Desc.FullName())), ",")
	g.P("HandlerType: (*", name, "Server)(nil),")
	g.P("Methods: []", grpcPkg.Ident("MethodDesc"), "{")
	for _, m := range s.svc.Methods {
		if isStream(m) {
			continue
		}
		g.P("{")
		g.P("MethodName: ", strconv.Quote(string(m.Desc.Name())), ",")
		g.P("Handler: _", name, "_", m.GoName, "_Handler,")
		g.P("},")
	}
	g.P("},")
	g.P("Streams: []", grpcPkg.Ident("StreamDesc"), "{")
	for _, m := range s.svc.Methods {
		if !isStream(m) {
			continue
		}
		g.P("{")
		g.P("StreamName: ", strconv.Quote(string(m.Desc.Name())), ",")
		g.P("Handler: _", name, "_", m.GoName, "_Handler,")
		if m.Desc.IsStreamingServer() {
			g.P("ServerStreams: true,")
		}
		if m.Desc.IsStreamingClient() {
			g.P("ClientStreams: true,")
		}
		g.P("},")
	}
	g.P("},")
	g.P("Metadata: ", strconv.Quote(s.svc.Location.SourceFile), ",")
	g.P("}")
}
