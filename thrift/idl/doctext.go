package idl

import "strings"

// docs follows the doc comments, /** ... */, as the Apache compiler
// attaches them: a doc comment is pending until the next definition,
// field, enum value or function takes it, a newer one replaces it, and
// headers drop it. The first doc comment of a file is also the file's
// doc when it comes before the headers end, unless, with no header before
// the first definition, that definition takes it.
type docs struct {
	pending   string
	seq       int // counts doc comments; the pending one's number
	program   string
	programAt int // the program doc's number, 0 for none
	status    programDocStatus
}

type programDocStatus uint8

const (
	docUndecided programDocStatus = iota // no header yet
	docCandidate                         // a doc comment before any header
	docProgram                           // a header came after it: the file's
	docNone                              // a header came first
	docTaken                             // a definition took it before any header
)

func (d *docs) lexed(body string) {
	d.seq++
	d.pending = cleanDoc(body + " ")
	if d.pending != "" && d.status == docUndecided {
		d.program, d.programAt, d.status = d.pending, d.seq, docCandidate
	}
}

// take returns the pending doc comment for the element being parsed.
func (d *docs) take() string {
	doc := d.pending
	if doc != "" && d.seq == d.programAt && d.status == docCandidate {
		d.status = docTaken
	}
	d.pending = ""
	return doc
}

// header marks a header (include, namespace, cpp_include) parsed.
func (d *docs) header() {
	if d.status == docCandidate {
		d.status = docProgram
	} else if d.status == docUndecided {
		d.status = docNone
	}
}

func (d *docs) drop() { d.pending = "" }

// file returns the file's doc once it is parsed.
func (d *docs) file() string {
	if d.status == docProgram || d.status == docCandidate {
		return d.program
	}
	return ""
}

// cleanDoc tidies a doc comment's text as the Apache compiler does: the
// first line without its leading blanks, a " * " margin shared by the
// other lines removed, then their common indentation and every line's
// trailing blanks, blank first and last lines dropped, each line ending in
// a newline. It returns "" for a comment with no text.
func cleanDoc(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r", ""), "\n")
	if strings.Trim(lines[len(lines)-1], " \t") == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return ""
	}
	lines[0] = strings.TrimLeft(lines[0], " \t")
	if margin, ok := starMargin(lines[1:]); ok {
		cut(lines[1:], margin+1)
	}
	cut(lines[1:], indentation(lines[1:]))
	for i, l := range lines {
		if t := strings.TrimRight(l, " \t"); t != "" {
			lines[i] = t
		}
	}
	if lines[0] == "" {
		lines = lines[1:]
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// starMargin finds the column of the * that starts every non-blank line,
// clearing blank lines; ok is false when a line has no * there.
func starMargin(lines []string) (int, bool) {
	margin := -1
	for i, l := range lines {
		if l == "" {
			continue
		}
		pos := strings.IndexFunc(l, notBlank)
		switch {
		case pos < 0:
			lines[i] = ""
		case margin < 0 && l[pos] == '*':
			margin = pos
		case margin < 0 || l[pos] != '*' || pos != margin:
			return 0, false
		}
	}
	if margin < 0 {
		margin = 0
	}
	return margin, true
}

// indentation is the least leading blank space of the non-blank lines.
func indentation(lines []string) int {
	least := -1
	for _, l := range lines {
		if pos := strings.IndexFunc(l, notBlank); pos >= 0 && (least < 0 || pos < least) {
			least = pos
		}
	}
	return max(least, 0)
}

func cut(lines []string, n int) {
	for i, l := range lines {
		lines[i] = l[min(n, len(l)):]
	}
}

func notBlank(r rune) bool { return r != ' ' && r != '\t' }
