//go:build !race

package transcode

const raceBuild = false
