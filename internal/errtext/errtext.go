// Package errtext builds the parts of error messages that library packages
// share: the closest known names to suggest for an unknown one, and field
// paths cut to a length a message can carry. It is a leaf: the standard
// library only, so that schema, dynamic and transcode may all import it.
// Nothing here runs unless there is an error to report.
package errtext

import (
	"slices"
	"strings"
)

// Closest returns up to n of candidates nearest to name by edit distance
// (case-insensitive), nearest first. A candidate is kept when the distance
// could be a typo in name's last component (after the last '.' or '/'),
// or when the last components are equal (a typo in what comes before).
func Closest(name string, candidates []string, n int) []string {
	lname := strings.ToLower(name)
	var hits []scored
	for _, c := range candidates {
		if d, ok := near(lname, strings.ToLower(c)); ok {
			hits = append(hits, scored{c, d})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int { return a.d - b.d })
	out := make([]string, 0, min(n, len(hits)))
	for _, h := range hits[:min(n, len(hits))] {
		out = append(out, h.s)
	}
	return out
}

// scored is a candidate name and its distance.
type scored struct {
	s string
	d int
}

// near returns the distance between the lower-cased name and candidate,
// and whether the candidate is near enough to suggest.
func near(name, candidate string) (int, bool) {
	d := distance(name, candidate)
	return d, d <= max(1, len(lastPart(name))/3) || lastPart(candidate) == lastPart(name)
}

func lastPart(s string) string {
	return s[strings.LastIndexAny(s, "./")+1:]
}

// distance is the edit distance between a and b counting insertions,
// deletions, substitutions and swaps of adjacent bytes (optimal string
// alignment), so "Itme" is one edit from "Item".
func distance(a, b string) int {
	d := table(len(a), len(b))
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			d[i][j] = cell(d, a, b, i, j)
		}
	}
	return d[len(a)][len(b)]
}

// table returns the (n+1) x (m+1) distance table with its first row and
// column filled: the distances from and to the empty string.
func table(n, m int) [][]int {
	d := make([][]int, n+1)
	for i := range d {
		d[i] = make([]int, m+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	return d
}

// cell is the distance between a[:i] and b[:j], from the cells before it.
func cell(d [][]int, a, b string, i, j int) int {
	cost := 1
	if a[i-1] == b[j-1] {
		cost = 0
	}
	v := min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
	if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
		v = min(v, d[i-2][j-2]+1)
	}
	return v
}

// DidYouMean returns "; did you mean "a" or "b"?" for the suggestions, or
// "" when there are none.
func DidYouMean(suggestions []string) string {
	if len(suggestions) == 0 {
		return ""
	}
	q := make([]string, len(suggestions))
	for i, s := range suggestions {
		q[i] = `"` + s + `"`
	}
	return "; did you mean " + strings.Join(q, " or ") + "?"
}

// PathEnds is how many steps ShortPath keeps at each end of a long path.
const PathEnds = 4

// ShortPath returns a field path such as a.b[2].c["k"] with at most
// 2*PathEnds+1 steps: a longer one keeps its first and last PathEnds
// steps with "..." between, so that an error in deeply nested input
// names where it is without repeating the whole way down. A path built
// one step at a time may be cut at each step: an earlier cut is a step of
// its own, and falls in the part a later cut leaves out.
func ShortPath(path string) string {
	starts := stepStarts(path)
	if len(starts) <= 2*PathEnds+1 {
		return path
	}
	head := strings.TrimSuffix(path[:starts[PathEnds]], cut)
	tail := path[starts[len(starts)-PathEnds]:]
	tail = strings.TrimPrefix(strings.TrimPrefix(tail, cut), ".")
	return head + cut + tail
}

const cut = "..."

// stepStarts returns where each step of path starts: at the start, at each
// '.' or '[' outside a bracket, and after the "..." of a cut.
func stepStarts(path string) []int {
	starts := []int{0}
	bracket, quoted := false, false
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case quoted && c == '\\':
			i++
		case c == '"' && bracket:
			quoted = !quoted
		case quoted:
		case c == ']':
			bracket = false
		case c == '[':
			if i > 0 {
				starts = append(starts, i)
			}
			bracket = true
		case c == '.' && !bracket && i > 0:
			starts = append(starts, i)
			i, starts = pastCut(path, i, starts)
		}
	}
	return starts
}

// pastCut skips the "..." of a cut at i, if there is one, and starts a
// step after it unless one starts there anyway.
func pastCut(path string, i int, starts []int) (int, []int) {
	if !strings.HasPrefix(path[i:], cut) {
		return i, starts
	}
	i += len(cut) - 1
	if i+1 < len(path) && path[i+1] != '.' && path[i+1] != '[' {
		starts = append(starts, i+1)
	}
	return i, starts
}
