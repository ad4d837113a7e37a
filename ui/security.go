package ui

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// contentSecurityPolicy allows the page's own scripts, styles, images and
// connections (fetch and the WebSocket) and nothing else: no inline script
// or style, no other host, no frames, no form posts.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; " +
	"form-action 'none'; frame-ancestors 'none'"

func setSecurityHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// guard admits a request only when its Host names this listener, it comes
// from the page's own origin (for anything but a plain GET), and it carries
// the session cookie (or, on the page's URL, the token it is exchanged for).
type guard struct {
	token  string
	cookie string // the cookie's name, unique to the token
	hosts  map[string]bool
	csrf   *http.CrossOriginProtection
}

func newGuard(token string, hosts []string) *guard {
	sum := sha256.Sum256([]byte(token))
	g := &guard{
		token:  token,
		cookie: "rpckit-ui-" + hex.EncodeToString(sum[:4]),
		hosts:  map[string]bool{"localhost": true},
		csrf:   http.NewCrossOriginProtection(),
	}
	for _, h := range hosts {
		g.hosts[strings.ToLower(h)] = true
	}
	return g
}

func (g *guard) allow(w http.ResponseWriter, r *http.Request) bool {
	if !g.hostAllowed(r.Host) {
		http.Error(w, "ui: forbidden: unexpected Host header "+quote(r.Host), http.StatusForbidden)
		return false
	}
	if err := g.csrf.Check(r); err != nil {
		http.Error(w, "ui: forbidden: cross-origin request", http.StatusForbidden)
		return false
	}
	if r.URL.Path == "/api/ws" && !sameOrigin(r) {
		http.Error(w, "ui: forbidden: WebSocket from another origin", http.StatusForbidden)
		return false
	}
	if r.URL.Path == "/" && r.URL.Query().Has("token") {
		g.exchangeToken(w, r)
		return false
	}
	if !g.hasCookie(r) {
		http.Error(w, "ui: forbidden: open the URL that rpckit ui printed, with its token", http.StatusForbidden)
		return false
	}
	return true
}

// hostAllowed accepts IP literals (which DNS rebinding cannot forge),
// localhost, and the configured names.
func (g *guard) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "" {
		return false
	}
	if net.ParseIP(host) != nil {
		return true
	}
	return g.hosts[strings.ToLower(strings.TrimSuffix(host, "."))]
}

// sameOrigin requires an Origin header whose host:port is the request's
// Host.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return false
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// exchangeToken sets the cookie for a right token and sends the page
// to its URL without the token, so it stays out of history and logs.
func (g *guard) exchangeToken(w http.ResponseWriter, r *http.Request) {
	if subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("token")), []byte(g.token)) != 1 {
		http.Error(w, "ui: forbidden: wrong token", http.StatusForbidden)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: g.cookie, Value: g.token, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (g *guard) hasCookie(r *http.Request) bool {
	c, err := r.Cookie(g.cookie)
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(g.token)) == 1
}

func quote(s string) string {
	if len(s) > 100 {
		s = s[:100]
	}
	return "\"" + strings.Map(func(r rune) rune {
		if r < ' ' || r == '"' {
			return '?'
		}
		return r
	}, s) + "\""
}
