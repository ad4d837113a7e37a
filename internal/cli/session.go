package cli

import (
	"context"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/transcode"
)

// session is a command's connection (nil without a target) and schema.
type session struct {
	conn   *invoke.Conn
	source schema.Source
	close  func()
	// endSchema ends what the schema source holds open on the server (the
	// reflection stream), for commands done asking it; close does it too.
	endSchema func()
}

// open dials target (when not empty) and builds the schema source.
func open(ctx context.Context, target string, cf *connFlags, sf *schemaFlags) (*session, error) {
	s := &session{close: func() {}, endSchema: func() {}}
	if target != "" {
		conn, err := cf.dial(ctx, target)
		if err != nil {
			return nil, err
		}
		s.conn = conn
		s.close = func() { conn.Close() }
	}
	src, cleanup, err := sf.source(ctx, s.conn, cf)
	if err != nil {
		s.close()
		return nil, err
	}
	s.source, s.endSchema = src, cleanup
	connClose := s.close
	s.close = func() { cleanup(); connClose() }
	return s, nil
}

// codec is the JSON codec for this session's messages.
func (s *session) codec(ctx context.Context, opts transcode.MarshalOptions) (invoke.Transcode, error) {
	files, err := s.source.Files(ctx)
	if err != nil {
		return invoke.Transcode{}, err
	}
	opts.Resolver = schema.Types(files)
	return invoke.Transcode{Options: opts}, nil
}
