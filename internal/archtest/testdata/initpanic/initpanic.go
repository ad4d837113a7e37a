// Package initpanic has init functions that can fail, and a function that
// may panic because it is not init.
package initpanic

import (
	"os"
	"regexp"
)

var re *regexp.Regexp

func init() {
	if len(os.Args) > 5 {
		panic("too many")
	}
}

func init() { re = regexp.MustCompile("a+") }

func fine() { panic("not init") }
