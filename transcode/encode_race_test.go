//go:build race

package transcode

// raceBuild is set under the race detector, whose sync.Pool drops items at
// random: allocation counts do not hold there.
const raceBuild = true
