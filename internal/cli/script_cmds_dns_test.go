package cli_test

import (
	"encoding/binary"
	"net"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// A DNS server on loopback for dns://SERVER/name targets:
//
//	dnsserver NAME HOST IP...   answers A queries for HOST with the IPs
//	                            (every other name: NXDOMAIN; other types
//	                            of HOST: no records); $NAME is its address
func init() {
	scriptCmds["dnsserver"] = cmdDNSServer
}

func cmdDNSServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: dnsserver NAME HOST IP...")
	}
	var ips []net.IP
	for _, a := range args[2:] {
		ip := net.ParseIP(a).To4()
		if ip == nil {
			ts.Fatalf("dnsserver: %q is not an IPv4 address", a)
		}
		ips = append(ips, ip)
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	ts.Check(err)
	ts.Defer(func() { pc.Close() })
	go serveDNS(pc, strings.TrimSuffix(strings.ToLower(args[1]), "."), ips)
	ts.Setenv(args[0], pc.LocalAddr().String())
}

// serveDNS answers queries on pc until it closes.
func serveDNS(pc net.PacketConn, host string, ips []net.IP) {
	buf := make([]byte, 1500)
	for {
		n, from, err := pc.ReadFrom(buf)
		if err != nil {
			return
		}
		if resp := dnsAnswer(buf[:n], host, ips); resp != nil {
			pc.WriteTo(resp, from)
		}
	}
}

// dnsAnswer is the response to the query q, or nil for a query it cannot
// read.
func dnsAnswer(q []byte, host string, ips []net.IP) []byte {
	name, end, ok := dnsQuestion(q)
	if !ok || end+4 > len(q) {
		return nil
	}
	qtype := binary.BigEndian.Uint16(q[end:])
	resp := append([]byte(nil), q[:end+4]...)
	binary.BigEndian.PutUint16(resp[2:], 0x8400|uint16(q[2]&1)<<8) // response, authoritative, RD echoed
	binary.BigEndian.PutUint16(resp[4:], 1)                        // one question
	clear(resp[6:12])                                              // no answers yet, no authority or extra records
	switch {
	case name != host:
		resp[3] |= 3 // NXDOMAIN
	case qtype == 1: // A
		binary.BigEndian.PutUint16(resp[6:], uint16(len(ips)))
		for _, ip := range ips {
			resp = append(resp, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4)
			resp = append(resp, ip...)
		}
	}
	return resp
}

// dnsQuestion reads the name of q's one question; end is where its type
// starts.
func dnsQuestion(q []byte) (name string, end int, ok bool) {
	if len(q) < 12 || binary.BigEndian.Uint16(q[4:]) != 1 {
		return "", 0, false
	}
	var labels []string
	i := 12
	for i < len(q) && q[i] != 0 {
		n := int(q[i])
		if n > 63 || i+1+n > len(q) {
			return "", 0, false
		}
		labels = append(labels, strings.ToLower(string(q[i+1:i+1+n])))
		i += 1 + n
	}
	return strings.Join(labels, "."), i + 1, i < len(q)
}
