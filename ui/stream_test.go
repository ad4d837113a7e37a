package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func endOf(t *testing.T, f frame) callResult {
	t.Helper()
	var r callResult
	if err := json.Unmarshal(f.Result, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// A long server stream arrives in batches, in order, held back by the
// page's acks, with the exact count.
func TestServerStreamWindow(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	w := p.ws()
	const n = 20000
	w.send(inFrame{T: "open", ID: "s1", Conn: id, Method: "rpckit.test.v1.Test/Count", Body: json.RawMessage(`{"count":20000}`), TimeoutMS: 60000})
	got, batches := 0, 0
	end := w.until("end", func(f frame) {
		if f.T != "msgs" {
			return
		}
		batches++
		for _, it := range f.Items {
			got++
			if want := `{"number":"` + itoa(got) + `"}`; string(it) != want {
				t.Fatalf("message %d: %s, want %s", got, it, want)
			}
		}
		w.send(inFrame{T: "ack", ID: "s1", N: len(f.Items)})
	})
	r := endOf(t, end)
	if got != n || r.Received != n || r.CodeName != "OK" {
		t.Fatalf("got %d, result %+v", got, r)
	}
	if batches >= n/2 {
		t.Errorf("%d frames for %d messages: not batched", batches, n)
	}
}

// Without acks the server stops sending at the window.
func TestServerStreamBackpressure(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	w := p.ws()
	w.send(inFrame{T: "open", ID: "s", Conn: id, Method: "rpckit.test.v1.Test/Count", Body: json.RawMessage(`{"count":100000}`), TimeoutMS: 60000})
	got := 0
	for got < window {
		f := w.next()
		got += len(f.Items)
	}
	if got != window {
		t.Fatalf("received %d past the window of %d", got, window)
	}
	w.send(inFrame{T: "cancel", ID: "s"})
	start := time.Now()
	r := endOf(t, w.until("end", nil))
	if r.CodeName != "CANCELLED" || time.Since(start) > time.Second {
		t.Fatalf("cancel: %+v after %s", r, time.Since(start))
	}
}

func TestBidiOneByOne(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	w := p.ws()
	w.send(inFrame{T: "open", ID: "b", Conn: id, Method: "rpckit.test.v1.Test/Chat", Metadata: [][2]string{{"x-echo-a", "1"}}, TimeoutMS: 30000})
	for i := 1; i <= 3; i++ {
		w.send(inFrame{T: "send", ID: "b", Body: json.RawMessage(`{"number":` + itoa(i) + `}`)})
		f := w.until("msgs", func(f frame) {
			// The server sends its headers with its first message.
			if f.T == "header" && !hasRow(f.Rows, "x-echo-a", "1") {
				t.Errorf("headers %v", f.Rows)
			}
		})
		if string(f.Items[0]) != `{"number":"`+itoa(i)+`"}` {
			t.Fatalf("reply %d: %s", i, f.Items[0])
		}
	}
	w.send(inFrame{T: "send", ID: "b", Body: json.RawMessage(`{"number":"x"}`)})
	e := w.until("error", nil)
	if e.Path != "number" {
		t.Errorf("bad request: %+v", e)
	}
	w.send(inFrame{T: "half", ID: "b"})
	end := w.until("end", nil)
	r := endOf(t, end)
	if r.CodeName != "OK" || r.Received != 3 || end.N != 3 || !hasRow(r.Trailers, "x-trailer-a", "1") {
		t.Fatalf("end %+v sent %d", r, end.N)
	}
}

func TestBidiCancel(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	w := p.ws()
	w.send(inFrame{T: "open", ID: "b", Conn: id, Method: "rpckit.test.v1.Test/Chat", TimeoutMS: 30000})
	w.send(inFrame{T: "send", ID: "b", Body: json.RawMessage(`{"number":1}`)})
	w.until("msgs", nil)
	start := time.Now()
	w.send(inFrame{T: "cancel", ID: "b"})
	r := endOf(t, w.until("end", nil))
	if r.CodeName != "CANCELLED" || time.Since(start) > time.Second {
		t.Fatalf("cancel: %+v after %s", r, time.Since(start))
	}
}

func TestClientStreamAndErrors(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	w := p.ws()
	w.send(inFrame{T: "open", ID: "c", Conn: id, Method: "rpckit.test.v1.Test/Sum", TimeoutMS: 30000})
	for _, n := range []string{"1", "2", "39"} {
		w.send(inFrame{T: "send", ID: "c", Body: json.RawMessage(`{"number":` + n + `}`)})
	}
	w.send(inFrame{T: "half", ID: "c"})
	var items []json.RawMessage
	r := endOf(t, w.until("end", func(f frame) { items = append(items, f.Items...) }))
	if r.CodeName != "OK" || len(items) != 1 || string(items[0]) != `{"total":"42","messages":3}` {
		t.Fatalf("sum: %+v %s", r, items)
	}
	w.send(inFrame{T: "open", ID: "f", Conn: id, Method: "rpckit.test.v1.Test/Count", Body: json.RawMessage(`{"count":5,"failAfter":2,"failCode":9}`), TimeoutMS: 30000})
	items = nil
	r = endOf(t, w.until("end", func(f frame) { items = append(items, f.Items...) }))
	if r.CodeName != "FAILED_PRECONDITION" || len(items) != 2 || len(r.Details) != 2 {
		t.Fatalf("failed stream: %+v %s", r, items)
	}
	w.send(inFrame{T: "open", ID: "x", Conn: id, Method: "rpckit.test.v1.Test/Count", Body: json.RawMessage(`{"count":"many"}`)})
	e := w.until("error", nil)
	if e.ID != "x" || e.Path != "count" || !strings.Contains(e.Error, "count") {
		t.Fatalf("bad request: %+v", e)
	}
}

func itoa(i int) string { return jsonNum(i) }

func jsonNum(i int) string { b, _ := json.Marshal(i); return string(b) }
