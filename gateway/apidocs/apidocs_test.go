package apidocs

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func serve(t *testing.T, h http.Handler, path string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Result(), string(body)
}

// TestPage: the page, its module and Swagger UI's files come from the
// embedded files under the policy; the page runs no inline script and
// loads nothing from another host.
func TestPage(t *testing.T) {
	h := Handler(Options{})
	resp, page := serve(t, h, "/docs/")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Security-Policy") != contentSecurityPolicy {
		t.Fatalf("GET /docs/: %d, CSP %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
	if !strings.Contains(contentSecurityPolicy, "script-src 'self';") || strings.Contains(contentSecurityPolicy, "unsafe") {
		t.Fatalf("the policy allows more than the page's own scripts: %s", contentSecurityPolicy)
	}
	if regexp.MustCompile(`<script(?:\s[^>]*)?>[^<]`).MatchString(page) || strings.Contains(page, "//") {
		t.Fatalf("the page has an inline script or a link to another host:\n%s", page)
	}
	for _, src := range regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if strings.HasPrefix(src[1], "data:") {
			continue // the empty icon: no request for /favicon.ico
		}
		resp, body := serve(t, h, "/docs/"+src[1])
		if resp.StatusCode != http.StatusOK || len(body) == 0 {
			t.Errorf("GET /docs/%s: %d, %d bytes", src[1], resp.StatusCode, len(body))
		}
	}
	for _, f := range []string{"swagger-ui/LICENSE", "swagger-ui/NOTICE", "swagger-ui/VERSION"} {
		if resp, _ := serve(t, h, "/docs/"+f); resp.StatusCode != http.StatusOK {
			t.Errorf("GET /docs/%s: %d", f, resp.StatusCode)
		}
	}
	if _, init := serve(t, h, "/docs/init.js"); !strings.Contains(init, `"../openapi.json"`) || !strings.Contains(init, "validatorUrl: null") {
		t.Errorf("init.js does not read ../openapi.json with the validator badge off:\n%s", init)
	}
}

func TestPrefix(t *testing.T) {
	h := Handler(Options{Prefix: "/api/docs"})
	if resp, _ := serve(t, h, "/api/docs"); resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/api/docs/" {
		t.Fatalf("GET /api/docs: %d to %q, want a redirect to /api/docs/", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := serve(t, h, "/api/docs/init.js"); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/docs/init.js: %d", resp.StatusCode)
	}
	for path, want := range map[string]bool{"/docs/": true, "/docs": true, "/docs/x.js": true, "/docsx": false, "/v1/docs/": false} {
		if Path("", path) != want {
			t.Errorf("Path(%q) = %v, want %v", path, !want, want)
		}
	}
}
