package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestFrameAncestors(t *testing.T) {
	for _, c := range []struct {
		in       []string
		want     string
		rejected int
	}{
		{nil, "'self'", 0},
		{[]string{"https://docs.example.org", "http://127.0.0.2:8951/"}, "'self' https://docs.example.org http://127.0.0.2:8951", 0},
		{[]string{"https://*.example.com"}, "'self' https://*.example.com", 0},
		{[]string{"*"}, "*", 0},
		{[]string{"docs.example.org", "ftp://x.org", "https://x.org/path", "https://x.org; script-src *", "https://u@x.org", "https://ok.org"}, "'self' https://ok.org", 5},
	} {
		got, rejected := frameAncestors(c.in)
		if got != c.want || len(rejected) != c.rejected {
			t.Errorf("frameAncestors(%q) = %q, rejected %q; want %q and %d rejected", c.in, got, rejected, c.want, c.rejected)
		}
	}
}

func TestEmbedPage(t *testing.T) {
	srv := httptest.NewServer(NewServer(Config{EmbedOrigins: []string{"https://docs.example.org", "bad origin"}}))
	defer srv.Close()
	for _, c := range []struct{ query, theme string }{{"?theme=dark", `data-theme="dark"`}, {"?theme=light", `data-theme="light"`}, {"?theme=<x>", ""}} {
		res, err := http.Get(srv.URL + "/embed" + c.query)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := res.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		res.Body.Close()
		body := b.String()
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self' https://docs.example.org") || strings.Contains(csp, "bad") {
			t.Errorf("CSP %q", csp)
		}
		if c.theme != "" && !strings.Contains(body, c.theme) || c.theme == "" && strings.Contains(body, "data-theme") {
			t.Errorf("%s: theme attribute wrong in %.300s", c.query, body)
		}
		if !strings.Contains(body, "/static/embed-app.js") {
			t.Errorf("%s: no embed script", c.query)
		}
	}
}
