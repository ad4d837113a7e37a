// Package sysconn makes a socket's reads and writes raw system calls on
// its non-blocking descriptor, for clients whose calls are each a write
// and a read or two: invoke/lean, thrift/client and internal/leanhttp.
// [Wrap] returns a net.Conn that waits in the runtime's poller as net.Conn
// does and fails with the same errors; elsewhere than on Linux it returns
// the conn as is.
// It imports only the standard library.
package sysconn
