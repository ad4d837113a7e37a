package cli

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	mrand "math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// The orders in which calls take the rows of --data-file.
const (
	orderSequential = "sequential" // in turn, over all calls
	orderRandom     = "random"     // any row, each call
	orderPerCaller  = "per-caller" // each closed-loop caller its own rows
)

// maxDataRows bounds the rows of a data file, so memory stays bounded.
const maxDataRows = 1 << 20

// A dataSet is the rows of --data-file and the order calls take them in;
// it counts the distinct rows used. Safe for concurrent use.
type dataSet struct {
	rows    []map[string]any
	order   string
	callers int // per-caller: the closed loop's callers
	next    atomic.Int64
	perW    []atomic.Int64
	used    []atomic.Uint64 // a bit per row
}

func checkDataOrder(order string) error {
	switch order {
	case orderSequential, orderRandom, orderPerCaller:
		return nil
	}
	return usagef("--data-order %q: want sequential, random or per-caller", order)
}

// readDataSet reads a data file: JSON lines (NDJSON), or CSV when the name
// ends in .csv, its header row naming the fields and each value typed by
// the field of input it names.
func readDataSet(path, order string, callers int, input protoreflect.MessageDescriptor) (*dataSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--data-file: %w", err)
	}
	defer f.Close()
	var rows []map[string]any
	if strings.HasSuffix(strings.ToLower(path), ".csv") {
		rows, err = readCSVRows(path, f, input)
	} else {
		rows, err = readJSONRows(path, f)
	}
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("--data-file %s: no rows", path)
	}
	d := &dataSet{rows: rows, order: order, callers: max(callers, 1)}
	d.perW = make([]atomic.Int64, d.callers)
	d.used = make([]atomic.Uint64, (len(rows)+63)/64)
	return d, nil
}

func readJSONRows(path string, r io.Reader) ([]map[string]any, error) {
	var out []map[string]any
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal(line, &v); err != nil {
			return nil, fmt.Errorf("--data-file %s:%d: want a JSON object: %w", path, n, err)
		}
		if len(out) == maxDataRows {
			return nil, fmt.Errorf("--data-file %s: more than %d rows", path, maxDataRows)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--data-file %s: %w", path, err)
	}
	return out, nil
}

func readCSVRows(path string, r io.Reader, input protoreflect.MessageDescriptor) ([]map[string]any, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("--data-file %s: header row: %w", path, err)
	}
	fields := make([]protoreflect.FieldDescriptor, len(header))
	for i, name := range header {
		if fields[i] = findField(input, strings.TrimSpace(name)); fields[i] == nil {
			return nil, fmt.Errorf("--data-file %s:1: column %q: %s has no such field", path, name, input.FullName())
		}
	}
	var out []map[string]any
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("--data-file %s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		row, err := csvRow(header, fields, rec)
		if err != nil {
			return nil, fmt.Errorf("--data-file %s:%d: %w", path, line, err)
		}
		if len(out) == maxDataRows {
			return nil, fmt.Errorf("--data-file %s: more than %d rows", path, maxDataRows)
		}
		out = append(out, row)
	}
}

// findField finds a field of md by its JSON or proto name.
func findField(md protoreflect.MessageDescriptor, name string) protoreflect.FieldDescriptor {
	if md == nil {
		return nil
	}
	if f := md.Fields().ByJSONName(name); f != nil {
		return f
	}
	return md.Fields().ByName(protoreflect.Name(name))
}

// csvRow types a CSV record's cells by their fields: numbers and bools as
// JSON numbers and bools, strings and enums as strings, lists, maps and
// messages as the JSON text in the cell (a well-known type such as a
// Duration as its JSON string). Empty cells are left out.
func csvRow(header []string, fields []protoreflect.FieldDescriptor, rec []string) (map[string]any, error) {
	row := make(map[string]any, len(rec))
	for i, cell := range rec {
		if cell == "" || i >= len(fields) {
			continue
		}
		v, err := csvValue(fields[i], cell)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", header[i], err)
		}
		row[fields[i].JSONName()] = v
	}
	return row, nil
}

func csvValue(f protoreflect.FieldDescriptor, cell string) (any, error) {
	if f.IsList() || f.IsMap() {
		return jsonCell(cell)
	}
	switch f.Kind() {
	case protoreflect.BoolKind:
		b, err := strconv.ParseBool(cell)
		if err != nil {
			return nil, fmt.Errorf("%q is not a bool", cell)
		}
		return b, nil
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.EnumKind:
		return cell, nil
	case protoreflect.MessageKind, protoreflect.GroupKind:
		if strings.HasPrefix(string(f.Message().FullName()), "google.protobuf.") && !strings.HasPrefix(strings.TrimSpace(cell), "{") {
			return cell, nil // a well-known type's JSON string: a Duration, a Timestamp
		}
		return jsonCell(cell)
	}
	if _, err := strconv.ParseFloat(cell, 64); err != nil {
		return nil, fmt.Errorf("%q is not a number", cell)
	}
	return json.Number(cell), nil
}

func jsonCell(cell string) (any, error) {
	var v any
	if err := json.Unmarshal([]byte(cell), &v); err != nil {
		return nil, fmt.Errorf("want JSON: %w", err)
	}
	return v, nil
}

// pick chooses the row of one call by worker, the caller making it.
func (d *dataSet) pick(worker int) int {
	var i int
	switch {
	case d.order == orderRandom:
		i = mrand.IntN(len(d.rows))
	case d.order == orderPerCaller && worker < d.callers && len(d.rows) >= d.callers:
		// Caller w cycles through rows w, w+callers, w+2·callers...
		k := d.perW[worker].Add(1) - 1
		share := (len(d.rows) - worker + d.callers - 1) / d.callers
		i = worker + d.callers*int(k%int64(share))
	case d.order == orderPerCaller:
		i = worker % len(d.rows)
	default:
		i = int((d.next.Add(1) - 1) % int64(len(d.rows)))
	}
	d.mark(i)
	return i
}

func (d *dataSet) mark(i int) {
	w, bit := &d.used[i/64], uint64(1)<<(i%64)
	if w.Load()&bit == 0 {
		w.Or(bit)
	}
}

// distinct is the number of rows calls have used.
func (d *dataSet) distinct() int64 {
	var n int64
	for i := range d.used {
		n += int64(bits.OnesCount64(d.used[i].Load()))
	}
	return n
}

// reset forgets the rows used so far and starts the orders over.
func (d *dataSet) reset() {
	d.next.Store(0)
	for i := range d.perW {
		d.perW[i].Store(0)
	}
	for i := range d.used {
		d.used[i].Store(0)
	}
}
