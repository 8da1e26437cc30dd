package egress

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkFetch measures one allowed GET to a loopback server through the
// policy (match, budgets, pinned dial, body cap), beside the same GET with
// a plain net/http client without keep-alives (each fetch dials anew, as
// egress does).
func BenchmarkFetch(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"ok":true}`) }))
	b.Cleanup(srv.Close)
	b.Run("egress", func(b *testing.B) {
		p, err := ParsePolicy([]byte(`{"allow":[{"origin":"`+srv.URL+`","headers":{"Authorization":"Bearer x"}}],"limits":{"runRequests":1000000000,"clientRequests":1000000000}}`), nil)
		if err != nil {
			b.Fatal(err)
		}
		c, err := New(Config{Policy: p})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		for b.Loop() {
			if _, err := c.Do(ctx, Request{URL: srv.URL + "/", Method: "GET"}, Who{Run: "r", Client: "c"}, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("net-http", func(b *testing.B) {
		hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		for b.Loop() {
			resp, err := hc.Get(srv.URL + "/")
			if err != nil {
				b.Fatal(err)
			}
			io.ReadAll(resp.Body)
			resp.Body.Close()
		}
	})
}
