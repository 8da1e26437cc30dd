package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/ws/wstest"
)

func TestForeignOriginRefused(t *testing.T) {
	addr := server(t, "-origins", "docs.example.org")
	h := http.Header{"Origin": []string{"https://evil.example.com"}}
	_, resp, err := wstest.TryDial(t, "ws://"+addr+"/ws", wstest.Options{Header: h})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("dial from a foreign origin: err=%v resp=%v; want 403", err, resp)
	}
	h.Set("Origin", "https://docs.example.org")
	if _, _, err := wstest.TryDial(t, "ws://"+addr+"/ws", wstest.Options{Header: h}); err != nil {
		t.Fatalf("dial from an allowed origin: %v", err)
	}
}

func TestPageAndAssets(t *testing.T) {
	addr := server(t)
	for path, want := range map[string]string{
		"/":                         `data-testid="run-button"`,
		"/static/app.js":            `from "./app/connection.js"`,
		"/static/app/connection.js": "new PlaygroundClient()",
		"/favicon.ico":              "",
		"/static/editor.bundle.js":  "createEditor",
		"/static/client.js":         "playground.v1",
		"/healthz":                  "ok",
	} {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s = %d; want 200 containing %q", path, resp.StatusCode, want)
		}
		if path == "/" && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
			t.Errorf("GET / has no CSP")
		}
	}
}

func TestFlagsFromEnvironment(t *testing.T) {
	env := map[string]string{"PLAYGROUND_RATE": "10", "PLAYGROUND_BURST": "3", "PORT": "9999"}
	c, err := parseFlags([]string{"-burst", "5"}, func(k string) string { return env[k] }, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	if c.rate != 10 || c.burst != 5 || c.addr != "127.0.0.1:9999" {
		t.Errorf("rate=%v burst=%v addr=%v; want 10 (env), 5 (flag beats env), 127.0.0.1:9999 ($PORT)", c.rate, c.burst, c.addr)
	}
	if _, err := parseFlags(nil, func(k string) string {
		if k == "PLAYGROUND_RATE" {
			return "fast"
		}
		return ""
	}, &strings.Builder{}); err == nil || !strings.Contains(err.Error(), "PLAYGROUND_RATE") {
		t.Errorf("bad env value: err = %v; want an error naming PLAYGROUND_RATE", err)
	}
}

// TestHeaderBytesCapped: a header line past maxHeaderBytes is answered 431
// and the connection closed, so a stalled 1 MiB header line holds only
// the few KiB read before the cap, not the whole line.
func TestHeaderBytesCapped(t *testing.T) {
	addr := server(t)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // a guard only
	// Only part of the line is sent, and no end of headers: a client that
	// stalls. The server must answer without waiting for the rest.
	go fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\nX-Big: %s", addr, strings.Repeat("a", 4*maxHeaderBytes))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 431") {
		t.Fatalf("a stalled header line of %d bytes: %q, %v; want 431", 4*maxHeaderBytes, line, err)
	}
	// A request with ordinary headers still passes.
	status, _, _ := get(t, "http://"+addr+"/healthz")
	if status != http.StatusOK {
		t.Errorf("/healthz = %d; want 200", status)
	}
}
