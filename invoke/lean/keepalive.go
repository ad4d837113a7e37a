package lean

import (
	"encoding/binary"
	"fmt"
	"time"
)

// keepalive pings the server every Keepalive and closes the connection
// when a ping goes unanswered for KeepaliveTimeout.
func (t *transport) keepalive() {
	tick := time.NewTicker(t.opts.Keepalive)
	defer tick.Stop()
	var sent int64 // unix nanos of the ping awaiting its ack; 0: none
	for n := uint64(1); ; n++ {
		select {
		case <-t.closed:
			return
		case now := <-tick.C:
			if sent != 0 && t.pingAck.Load() < sent {
				if time.Duration(now.UnixNano()-sent) > t.opts.KeepaliveTimeout {
					t.fail(fmt.Errorf("keepalive ping not answered within %s", t.opts.KeepaliveTimeout))
					return
				}
				continue
			}
			sent = now.UnixNano()
			var data [8]byte
			binary.BigEndian.PutUint64(data[:], n)
			t.mu.Lock()
			if t.err == nil {
				t.fw.WritePing(false, data)
				t.kickLocked()
			}
			t.mu.Unlock()
		}
	}
}
