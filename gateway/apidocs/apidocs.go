// Package apidocs serves a page that documents a REST API from its OpenAPI
// document: Swagger UI (npm's swagger-ui-dist, vendored by vendor.sh at a
// pinned version with its license, embedded, never fetched at run time)
// started by a static module of ours, under a Content-Security-Policy that
// allows scripts, styles and requests from the page's own origin only.
//
// apidocs imports the standard library only.
package apidocs

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed static
var static embed.FS

// contentSecurityPolicy lets the page load its own files, call its own
// origin (the document, and "Try it out"), and show the data: images of
// Swagger UI's stylesheet; nothing inline runs.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; " +
	"form-action 'none'; frame-ancestors 'none'"

// Options configure the page.
type Options struct {
	// Prefix is the path the page is served under; empty means "/docs/".
	// The page reads the document from ../openapi.json (/openapi.json for
	// /docs/), where the gateway serves it.
	Prefix string
}

// Handler serves the page at Prefix and its files under it; a request
// for Prefix without its trailing slash is redirected to it.
func Handler(opts Options) http.Handler {
	prefix := prefixOf(opts.Prefix)
	sub, _ := fs.Sub(static, "static") // the directory is embedded: no error
	return page{prefix: prefix, files: http.StripPrefix(prefix, http.FileServerFS(sub))}
}

// prefixOf is the path the page is served under: prefix ("/docs/" when
// empty) with a trailing slash.
func prefixOf(prefix string) string {
	if prefix == "" {
		return "/docs/"
	}
	if !strings.HasSuffix(prefix, "/") {
		return prefix + "/"
	}
	return prefix
}

// page serves the page's files under prefix.
type page struct {
	prefix string
	files  http.Handler
}

func (p page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == strings.TrimSuffix(p.prefix, "/") {
		http.Redirect(w, r, p.prefix, http.StatusMovedPermanently)
		return
	}
	setHeaders(w.Header())
	p.files.ServeHTTP(w, r)
}

// setHeaders sets the page's security and caching headers.
func setHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
}

// Path reports whether a request path belongs to the page at prefix
// (empty: "/docs/").
func Path(prefix, path string) bool {
	if prefix == "" {
		prefix = "/docs/"
	}
	return path == strings.TrimSuffix(prefix, "/") || strings.HasPrefix(path, prefix)
}
