package web

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestFavicon(t *testing.T) {
	srv := httptest.NewServer(NewServer(Config{}))
	defer srv.Close()
	for _, c := range []struct{ path, typ, magic string }{
		{"/favicon.ico", "image/x-icon", "\x00\x00\x01\x00"},
		{"/favicon.svg", "image/svg+xml", "<svg"},
	} {
		res, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != c.typ || !bytes.HasPrefix(body, []byte(c.magic)) {
			t.Errorf("%s: %d %q, body starts %q", c.path, res.StatusCode, res.Header.Get("Content-Type"), body[:min(len(body), 8)])
		}
	}
}
