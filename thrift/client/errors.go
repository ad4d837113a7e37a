package client

import (
	"errors"
	"strconv"

	"github.com/rpckit/rpckit/thrift/wire"
)

// ExceptionType is a TApplicationException's type.
type ExceptionType int32

// The exception types, numbered as in Apache Thrift.
const (
	Unknown               ExceptionType = 0
	UnknownMethod         ExceptionType = 1
	InvalidMessageType    ExceptionType = 2
	WrongMethodName       ExceptionType = 3
	BadSequenceID         ExceptionType = 4
	MissingResult         ExceptionType = 5
	InternalError         ExceptionType = 6
	ProtocolError         ExceptionType = 7
	InvalidTransform      ExceptionType = 8
	InvalidProtocol       ExceptionType = 9
	UnsupportedClientType ExceptionType = 10
)

var exceptionNames = [...]string{
	Unknown:               "UNKNOWN",
	UnknownMethod:         "UNKNOWN_METHOD",
	InvalidMessageType:    "INVALID_MESSAGE_TYPE",
	WrongMethodName:       "WRONG_METHOD_NAME",
	BadSequenceID:         "BAD_SEQUENCE_ID",
	MissingResult:         "MISSING_RESULT",
	InternalError:         "INTERNAL_ERROR",
	ProtocolError:         "PROTOCOL_ERROR",
	InvalidTransform:      "INVALID_TRANSFORM",
	InvalidProtocol:       "INVALID_PROTOCOL",
	UnsupportedClientType: "UNSUPPORTED_CLIENT_TYPE",
}

// String returns the Apache name of the type (UNKNOWN_METHOD, ...).
func (t ExceptionType) String() string {
	if t >= 0 && int(t) < len(exceptionNames) {
		return exceptionNames[t]
	}
	return "TYPE_" + strconv.Itoa(int(t))
}

// ApplicationError is a TApplicationException the server sent in place
// of a reply: a message of type EXCEPTION.
type ApplicationError struct {
	Type    ExceptionType
	Message string
}

func (e *ApplicationError) Error() string {
	if e.Message == "" {
		return "application exception " + e.Type.String()
	}
	return "application exception " + e.Type.String() + ": " + e.Message
}

// Errors a caller can test for with errors.Is. Call wraps them, naming the
// package and the method.
var (
	// ErrFrameTooLarge: a reply larger than Options.MaxFrameSize.
	ErrFrameTooLarge = errors.New("reply larger than the frame size limit")
	// ErrClosed: the client was closed.
	ErrClosed = errors.New("client closed")

	errClosedBeforeReply = errors.New("connection closed by the server before the reply " +
		"(do client and server use the same transport and protocol?)")
)

// decodeApplicationError reads the TApplicationException struct
// {1: string message, 2: i32 type} at b[off:].
func decodeApplicationError(p wire.Protocol, b []byte, off int) (*ApplicationError, error) {
	e := &ApplicationError{}
	it := wire.NewIter(p, b, off)
	for it.Next() {
		f := it.Field()
		switch {
		case f.ID == 1 && f.Type == wire.String:
			msg, _, err := p.ConsumeBinary(b, f.Value)
			if err != nil {
				return nil, err
			}
			e.Message = string(msg)
		case f.ID == 2 && f.Type == wire.I32:
			t, _, err := p.ConsumeI32(b, f.Value)
			if err != nil {
				return nil, err
			}
			e.Type = ExceptionType(t)
		}
	}
	return e, it.Err()
}
