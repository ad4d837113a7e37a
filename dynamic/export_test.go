package dynamic

// ValidFast is validFast, for tests that hold it to the messages it must
// take without falling back to the recursive walk.
var ValidFast = validFast
