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

// server writes the server API: its interface, the Unimplemented
// implementation to embed and the Unsafe interface.
func (s stubs) server() {
	unimpl := "Unimplemented" + s.name() + "Server"
	s.serverInterface(unimpl)
	s.unimplemented(unimpl)
	s.unsafeServer(unimpl)
}

// serverInterface writes the interface implementations satisfy.
func (s stubs) serverInterface(unimpl string) {
	g, name := s.g, s.name()
	g.P()
	g.P("// ", name, "Server is the server API for the ", name, " service.")
	g.P("// Implementations must embed ", unimpl, " for forward compatibility.")
	comments(g, s.svc.Comments.Leading)
	g.P("type ", name, "Server interface {")
	s.methodSet(s.serverSignature)
	g.P("mustEmbed", unimpl, "()")
	g.P("}")
}

// methodSet writes the methods of an interface of the service, with
// their comments; sig is a method's signature.
func (s stubs) methodSet(sig func(*protogen.Method) string) {
	for _, m := range s.svc.Methods {
		s.g.P(strings.TrimSuffix(m.Comments.Leading.String(), "\n"))
		s.g.P(sig(m))
	}
}

// unimplemented writes the type unimpl, whose methods all answer
// UNIMPLEMENTED.
func (s stubs) unimplemented(unimpl string) {
	g := s.g
	g.P()
	g.P("// ", unimpl, " answers every method with UNIMPLEMENTED. Embed it")
	g.P("// by value in implementations, so that methods added later compile.")
	g.P("type ", unimpl, " struct{}")
	g.P()
	for _, m := range s.svc.Methods {
		s.unimplementedMethod(unimpl, m)
	}
	g.P("func (", unimpl, ") mustEmbed", unimpl, "() {}")
	g.P("func (", unimpl, ") testEmbeddedByValue() {}")
}

// unimplementedMethod writes unimpl's method m.
func (s stubs) unimplementedMethod(unimpl string, m *protogen.Method) {
	g := s.g
	ret := "status.Error"
	if !isStream(m) {
		ret = "nil, status.Error"
	}
	ret = strings.Replace(ret, "status.Error", g.QualifiedGoIdent(statusPkg.Ident("Error")), 1)
	g.P("func (", unimpl, ") ", s.serverSignature(m), " {")
	g.P("return ", ret, "(", codesPkg.Ident("Unimplemented"), `, "method `, m.GoName, ` not implemented")`)
	g.P("}")
}

// unsafeServer writes the interface that opts out of forward
// compatibility.
func (s stubs) unsafeServer(unimpl string) {
	g, name := s.g, s.name()
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

// handler writes the handler function of m that the ServiceDesc names.
func (s stubs) handler(m *protogen.Method) {
	fn := "_" + s.name() + "_" + m.GoName + "_Handler"
	s.g.P()
	if !isStream(m) {
		s.unaryHandler(fn, m)
		return
	}
	s.streamHandler(fn, m)
	s.streamAlias(m, "Server")
}

// streamHandler writes the handler fn of a streaming method.
func (s stubs) streamHandler(fn string, m *protogen.Method) {
	g := s.g
	g.P("func ", fn, "(srv interface{}, stream ", grpcPkg.Ident("ServerStream"), ") error {")
	stream := "&" + g.QualifiedGoIdent(grpcPkg.Ident("GenericServerStream")) + "[" +
		g.QualifiedGoIdent(m.Input.GoIdent) + ", " + g.QualifiedGoIdent(m.Output.GoIdent) + "]{ServerStream: stream}"
	s.streamHandlerCall(m, stream)
	g.P("}")
}

// streamHandlerCall writes a stream handler's call of the method with
// stream, after receiving the one request when the client does not
// stream.
func (s stubs) streamHandlerCall(m *protogen.Method, stream string) {
	g, name := s.g, s.name()
	if m.Desc.IsStreamingClient() {
		g.P("return srv.(", name, "Server).", m.GoName, "(", stream, ")")
		return
	}
	g.P("m := new(", m.Input.GoIdent, ")")
	g.P("if err := stream.RecvMsg(m); err != nil {")
	g.P("return err")
	g.P("}")
	g.P("return srv.(", name, "Server).", m.GoName, "(m, ", stream, ")")
}

// streamAlias writes the older name of m's stream type on side, Client
// or Server.
func (s stubs) streamAlias(m *protogen.Method, side string) {
	s.g.P()
	s.g.P("// ", s.name(), "_", m.GoName, side, " is the stream type of ", m.GoName, " by its older name.")
	s.g.P("type ", s.name(), "_", m.GoName, side, " = ", s.streamType(m, side))
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
	s.descs(false)
	g.P("},")
	g.P("Streams: []", grpcPkg.Ident("StreamDesc"), "{")
	s.descs(true)
	g.P("},")
	g.P("Metadata: ", strconv.Quote(s.svc.Location.SourceFile), ",")
	g.P("}")
}

// descs writes the entries of the ServiceDesc's Streams (streams set) or
// Methods (the unary methods).
func (s stubs) descs(streams bool) {
	for _, m := range s.svc.Methods {
		if isStream(m) == streams {
			s.desc(m)
		}
	}
}

// desc writes the MethodDesc or StreamDesc of m.
func (s stubs) desc(m *protogen.Method) {
	key := "MethodName: "
	if isStream(m) {
		key = "StreamName: "
	}
	s.g.P("{")
	s.g.P(key, strconv.Quote(string(m.Desc.Name())), ",")
	s.g.P("Handler: _", s.name(), "_", m.GoName, "_Handler,")
	s.streamFlags(m)
	s.g.P("},")
}

// streamFlags writes the ServerStreams and ClientStreams of a StreamDesc.
func (s stubs) streamFlags(m *protogen.Method) {
	if m.Desc.IsStreamingServer() {
		s.g.P("ServerStreams: true,")
	}
	if m.Desc.IsStreamingClient() {
		s.g.P("ClientStreams: true,")
	}
}
