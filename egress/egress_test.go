package egress

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/sandbox/pipe"
)

// fakeDNS answers names from a table, counting lookups; a name it lacks
// is not found.
type fakeDNS struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr // successive answers; the last repeats
	lookups map[string]int
}

func (f *fakeDNS) resolve(_ context.Context, host string) ([]netip.Addr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.lookups == nil {
		f.lookups = map[string]int{}
	}
	n := f.lookups[host]
	f.lookups[host]++
	as, ok := f.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return as[min(n, len(as)-1)], nil
}

func addrs(ss ...string) [][]netip.Addr {
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return [][]netip.Addr{out}
}

// testServer is the loopback API a policy names explicitly.
func testServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Add("Set-Cookie", "session=1")
		json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "auth": r.Header.Get("Authorization") != "", "x": r.Header.Get("X-Snippet")})
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", r.Header.Get("Content-Type"))
		w.Write(b)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		code := 302
		if c := r.URL.Query().Get("code"); c != "" {
			fmt.Sscan(c, &code)
		}
		http.Redirect(w, r, r.URL.Query().Get("to"), code)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) { w.Write(make([]byte, 2<<20)) })
	mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		buf := make([]byte, 32<<10)
		for r.Context().Err() == nil {
			if _, err := w.Write(buf); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	mux.HandleFunc("/binary", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte{0, 0xff, 0xfe, 1}) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, srv.URL
}

func newClient(t *testing.T, policy string, dns *fakeDNS, env map[string]string) *Client {
	t.Helper()
	p, err := ParsePolicy([]byte(policy), func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("ParsePolicy: %v", err)
	}
	cfg := Config{Policy: p}
	if dns != nil {
		cfg.Resolve = dns.resolve
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func do(c *Client, method, url string, headers [][2]string, body string) (Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	return c.Do(ctx, Request{URL: url, Method: method, Headers: headers}, Who{Run: "run", Client: "client"}, b)
}

// TestSSRFCorpus: every attempt is refused, each with an error that says why.
func TestSSRFCorpus(t *testing.T) {
	_, base := testServer(t)
	port := strings.TrimPrefix(base, "http://127.0.0.1:")
	dns := &fakeDNS{answers: map[string][][]netip.Addr{
		"a.evil.example": addrs("127.0.0.1"),
		"b.evil.example": addrs("10.1.2.3"),
		"c.evil.example": addrs("172.16.5.4"),
		"d.evil.example": addrs("192.168.0.1"),
		"e.evil.example": addrs("169.254.169.254"),
		"f.evil.example": addrs("::1"),
		"g.evil.example": addrs("::ffff:127.0.0.1"),
		"h.evil.example": addrs("64:ff9b::a9fe:a9fe"),
		"i.evil.example": addrs("fd00:ec2::254"),
		"j.evil.example": addrs("100.64.0.1"),
		"k.evil.example": addrs("224.0.0.1"),
		"l.evil.example": addrs("0.0.0.0"),
		"m.evil.example": addrs("fe80::1"),
		"n.evil.example": addrs("93.184.216.34", "10.0.0.1"),
		"o.evil.example": addrs("2002:7f00:1::1"),
		"p.evil.example": addrs("2001::1"),
		"r.evil.example": addrs("255.255.255.255"),
		"s.evil.example": addrs("192.0.0.192"),
		"t.evil.example": addrs("::"),
		"u.evil.example": addrs("ff02::1"),
	}}
	c := newClient(t, `{"allow":[
		{"origin":"`+base+`","methods":["GET","POST"],"headers":{"Authorization":"Bearer ${TOKEN}"}},
		{"origin":"http://*.evil.example"}],
		"limits":{"maxResponseBytes":1048576,"timeoutMs":2000}}`, dns, map[string]string{"TOKEN": "s3cret"})
	redirect := func(to string) string { return base + "/redirect?to=" + to }
	tests := []struct {
		name, method, url string
		headers           [][2]string
		body              string
		want              string
	}{
		// Schemes and URL forms.
		{"file scheme", "GET", "file:///etc/passwd", nil, "", `scheme "file:" is not allowed`},
		{"ftp scheme", "GET", "ftp://a.evil.example/", nil, "", `scheme "ftp:" is not allowed`},
		{"gopher scheme", "GET", "gopher://127.0.0.1:" + port + "/", nil, "", `scheme "gopher:" is not allowed`},
		{"javascript scheme", "GET", "javascript:alert(1)", nil, "", `scheme "javascript:" is not allowed`},
		{"data scheme", "GET", "data:text/plain,hi", nil, "", `scheme "data:" is not allowed`},
		{"no scheme", "GET", "//127.0.0.1/", nil, "", `scheme ":" is not allowed`},
		{"userinfo", "GET", "http://user:pw@127.0.0.1:" + port + "/json", nil, "", "user name or password"},
		{"user only", "GET", "http://user@127.0.0.1:" + port + "/json", nil, "", "user name or password"},
		{"no host", "GET", "http:///json", nil, "", "has no host"},
		{"bad port", "GET", "http://127.0.0.1:99999/", nil, "", "is not 1-65535"},
		{"percent in host", "GET", "http://[fe80::1%25eth0]/", nil, "", "holds characters a host may not"},
		// Numeric IPv4 forms: read as the address they are (WHATWG), then no entry names it.
		{"decimal loopback", "GET", "http://2130706433/", nil, "", "no request to http://127.0.0.1:80"},
		{"octal loopback", "GET", "http://017700000001/", nil, "", "no request to http://127.0.0.1:80"},
		{"hex loopback", "GET", "http://0x7f000001/", nil, "", "no request to http://127.0.0.1:80"},
		{"octal dotted", "GET", "http://0177.0.0.1/", nil, "", "no request to http://127.0.0.1:80"},
		{"hex dotted short", "GET", "http://0x7f.1/", nil, "", "no request to http://127.0.0.1:80"},
		{"short form", "GET", "http://127.1/", nil, "", "no request to http://127.0.0.1:80"},
		{"three parts", "GET", "http://127.0.1/", nil, "", "no request to http://127.0.0.1:80"},
		{"zero", "GET", "http://0/", nil, "", "no request to http://0.0.0.0:80"},
		{"decimal private", "GET", "http://167772161/", nil, "", "no request to http://10.0.0.1:80"},
		{"hex metadata", "GET", "http://0xa9fea9fe/", nil, "", "no request to http://169.254.169.254:80"},
		{"octal metadata", "GET", "http://0251.0376.0251.0376/", nil, "", "no request to http://169.254.169.254:80"},
		{"metadata", "GET", "http://169.254.169.254/latest/meta-data/", nil, "", "no request to http://169.254.169.254:80"},
		{"other loopback port", "GET", "http://127.0.0.1:1/", nil, "", "no request to http://127.0.0.1:1"},
		{"ipv6 loopback", "GET", "http://[::1]:" + port + "/", nil, "", "no request to http://[::1]:" + port},
		{"mapped loopback", "GET", "http://[::ffff:127.0.0.1]:" + port + "/json", nil, "", "no request to http://[::ffff:127.0.0.1]:" + port},
		{"mapped loopback hex", "GET", "http://[::ffff:7f00:1]:" + port + "/json", nil, "", "no request to http://[::ffff:127.0.0.1]:" + port},
		{"ipv6 metadata", "GET", "http://[fd00:ec2::254]/", nil, "", "no request to http://[fd00:ec2::254]:80"},
		{"localhost name", "GET", "http://localhost:" + port + "/json", nil, "", "no request to http://localhost:" + port},
		{"out of range part", "GET", "http://256.0.0.1/", nil, "", "over 255"},
		{"five parts", "GET", "http://1.2.3.4.5/", nil, "", "more than four parts"},
		{"too large", "GET", "http://0x100000000/", nil, "", "too large"},
		// Names that resolve to what no entry names (the resolver is the test's).
		{"dns loopback", "GET", "http://a.evil.example/", nil, "", "127.0.0.1, a loopback address"},
		{"dns private 10", "GET", "http://b.evil.example/", nil, "", "a private address (RFC 1918)"},
		{"dns private 172", "GET", "http://c.evil.example/", nil, "", "a private address (RFC 1918)"},
		{"dns private 192", "GET", "http://d.evil.example/", nil, "", "a private address (RFC 1918)"},
		{"dns metadata", "GET", "http://e.evil.example/", nil, "", "link-local"},
		{"dns ipv6 loopback", "GET", "http://f.evil.example/", nil, "", "::1, a loopback address"},
		{"dns mapped", "GET", "http://g.evil.example/", nil, "", "IPv4-mapped"},
		{"dns nat64", "GET", "http://h.evil.example/", nil, "", "NAT64"},
		{"dns ipv6 metadata", "GET", "http://i.evil.example/", nil, "", "unique local"},
		{"dns cgnat", "GET", "http://j.evil.example/", nil, "", "shared (carrier-grade NAT)"},
		{"dns multicast", "GET", "http://k.evil.example/", nil, "", "multicast"},
		{"dns unspecified", "GET", "http://l.evil.example/", nil, "", "this network"},
		{"dns ipv6 link-local", "GET", "http://m.evil.example/", nil, "", "link-local"},
		{"dns mixed answer", "GET", "http://n.evil.example/", nil, "", "10.0.0.1, a private address"},
		{"dns 6to4", "GET", "http://o.evil.example/", nil, "", "6to4"},
		{"dns teredo", "GET", "http://p.evil.example/", nil, "", "Teredo"},
		{"dns not found", "GET", "http://q.evil.example/", nil, "", "was not found"},
		{"dns broadcast", "GET", "http://r.evil.example/", nil, "", "reserved address"},
		{"dns oracle metadata", "GET", "http://s.evil.example/", nil, "", "IETF protocol"},
		{"dns ipv6 unspecified", "GET", "http://t.evil.example/", nil, "", "unspecified"},
		{"dns ipv6 multicast", "GET", "http://u.evil.example/", nil, "", "multicast"},
		{"trailing-dot name", "GET", "http://a.evil.example./", nil, "", "loopback"},
		// Methods and headers.
		{"method not allowed", "DELETE", base + "/json", nil, "", "allows GET, POST to http://127.0.0.1:" + port + ", not DELETE"},
		{"connect", "CONNECT", base + "/json", nil, "", "forbidden"},
		{"trace", "trace", base + "/json", nil, "", "forbidden"},
		{"bad method", "GE T", base + "/json", nil, "", "not a valid HTTP method"},
		{"header injection", "GET", base + "/json", [][2]string{{"X-A", "b\r\nHost: evil"}}, "", "CR, LF or NUL"},
		{"header LF", "GET", base + "/json", [][2]string{{"X-A", "b\nX-B: c"}}, "", "CR, LF or NUL"},
		{"header NUL", "GET", base + "/json", [][2]string{{"X-A", "b\x00"}}, "", "CR, LF or NUL"},
		{"header name", "GET", base + "/json", [][2]string{{"X A", "b"}}, "", "not a valid header name"},
		{"header name CRLF", "GET", base + "/json", [][2]string{{"X\r\nA", "b"}}, "", "not a valid header name"},
		{"host header", "GET", base + "/json", [][2]string{{"Host", "169.254.169.254"}}, "", "forbidden"},
		{"cookie header", "GET", base + "/json", [][2]string{{"Cookie", "a=b"}}, "", "forbidden"},
		{"content-length", "POST", base + "/echo", [][2]string{{"Content-Length", "1"}}, "xx", "forbidden"},
		{"transfer-encoding", "POST", base + "/echo", [][2]string{{"Transfer-Encoding", "chunked"}}, "xx", "forbidden"},
		{"proxy header", "GET", base + "/json", [][2]string{{"Proxy-Authorization", "x"}}, "", "forbidden"},
		{"sec header", "GET", base + "/json", [][2]string{{"Sec-Fetch-Site", "same-origin"}}, "", "forbidden"},
		{"method override", "GET", base + "/json", [][2]string{{"X-HTTP-Method-Override", "TRACE"}}, "", "may not name TRACE"},
		{"get with body", "GET", base + "/json", nil, "x", "cannot have a body"},
		// Redirects are checked as new requests.
		{"redirect to private", "GET", redirect("http://10.0.0.1/"), nil, "", "no request to http://10.0.0.1:80"},
		{"redirect to metadata", "GET", redirect("http://169.254.169.254/latest/meta-data/"), nil, "", "no request to http://169.254.169.254:80"},
		{"redirect to rebound name", "GET", redirect("http://a.evil.example/"), nil, "", "loopback"},
		{"redirect to file", "GET", redirect("file:///etc/passwd"), nil, "", `scheme "file:" is not allowed`},
		{"redirect to mapped", "GET", redirect("http://[::ffff:127.0.0.1]:" + port + "/json"), nil, "", "no request to http://[::ffff:127.0.0.1]"},
		{"redirect with userinfo", "GET", redirect("http://u:p@127.0.0.1:" + port + "/json"), nil, "", "user name or password"},
		{"redirect to decimal", "GET", redirect("http://2130706433/"), nil, "", "no request to http://127.0.0.1:80"},
		{"redirect loop", "GET", base + "/loop", nil, "", "more than 20 redirects"},
		{"307 keeps POST to a GET-only origin", "POST", redirect("http://v.evil.example/&code=307"), nil, "x", "allows GET, HEAD to http://v.evil.example:80, not POST"},
		// Responses are capped.
		{"huge response", "GET", base + "/huge", nil, "", "larger than the fetch policy's 1048576 bytes"},
		{"endless response", "GET", base + "/endless", nil, "", "larger than the fetch policy's 1048576 bytes"},
		{"hanging response", "GET", base + "/hang", nil, "", "longer than the fetch policy's 2000 ms"},
	}
	if len(tests) < 50 {
		t.Fatalf("the corpus has %d attempts; the issue asks for at least 50", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// A fresh budget each: the corpus is not about budgets.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var body []byte
			if tt.body != "" {
				body = []byte(tt.body)
			}
			res, err := c.Do(ctx, Request{URL: tt.url, Method: tt.method, Headers: tt.headers}, Who{Run: tt.name, Client: tt.name}, body)
			if err == nil {
				t.Fatalf("Do(%s %s) = %d %s; want refused with %q", tt.method, tt.url, res.Status, res.Body, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Do(%s %s) error = %q; want it to contain %q", tt.method, tt.url, err, tt.want)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error %q holds the policy's secret", err)
			}
		})
	}
}

// TestAllowedPath: the explicitly allowed loopback server answers; the
// policy's header reaches it and never the response; redirects are
// followed, and a header goes only to its own origin.
func TestAllowedPath(t *testing.T) {
	_, base := testServer(t)
	other, otherBase := testServer(t) // a second allowed origin, without headers
	_ = other
	c := newClient(t, `{"allow":[
		{"origin":"`+base+`","methods":["GET","POST"],"headers":{"Authorization":"Bearer ${TOKEN}"}},
		{"origin":"`+otherBase+`"}]}`, nil, map[string]string{"TOKEN": "s3cret"})

	res, err := do(c, "get", base+"/json#frag", [][2]string{{"X-Snippet", "hi"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != 200 || res.StatusText != "OK" || res.Body != `{"auth":true,"method":"GET","x":"hi"}`+"\n" {
		t.Errorf("GET /json = %d %q %q; want 200 OK with auth true", res.Status, res.StatusText, res.Body)
	}
	for _, h := range res.Headers {
		if h[0] == "set-cookie" {
			t.Errorf("the response passes Set-Cookie on")
		}
		if h[0] != strings.ToLower(h[0]) {
			t.Errorf("header name %q is not lower case", h[0])
		}
	}
	if res.URL != base+"/json" {
		t.Errorf("url = %q; want the fragment dropped", res.URL)
	}

	res, err = do(c, "POST", base+"/echo", [][2]string{{"Content-Type", "text/plain"}}, "héllo")
	if err != nil || res.Body != "héllo" {
		t.Errorf("POST /echo = %q, %v; want the body back", res.Body, err)
	}

	res, err = do(c, "GET", base+"/binary", nil, "")
	if err != nil || res.BodyBase64 != "AP/+AQ==" || res.Body != "" {
		t.Errorf("GET /binary = body %q base64 %q, %v; want base64 AP/+AQ==", res.Body, res.BodyBase64, err)
	}

	// Followed to the other origin: its entry has no headers, so the
	// secret does not follow.
	res, err = do(c, "GET", base+"/redirect?to="+otherBase+"/json", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Redirected || res.URL != otherBase+"/json" || !strings.Contains(res.Body, `"auth":false`) {
		t.Errorf("cross-origin redirect = %+v; want redirected to %s/json without the Authorization header", res, otherBase)
	}
	// A snippet's own Authorization is dropped on a cross-origin redirect too.
	res, err = do(c, "GET", otherBase+"/redirect?to="+base+"/json", [][2]string{{"Authorization", "mine"}}, "")
	if err != nil || !strings.Contains(res.Body, `"auth":true`) {
		t.Errorf("redirect back = %q, %v; want the policy's header at its origin", res.Body, err)
	}
	res, err = do(c, "GET", otherBase+"/redirect?to="+otherBase+"/json", [][2]string{{"Authorization", "mine"}}, "")
	if err != nil || !strings.Contains(res.Body, `"auth":true`) {
		t.Errorf("same-origin redirect = %q, %v; want the snippet's header kept", res.Body, err)
	}
	res, err = do(c, "GET", base+"/redirect?to=http://127.0.0.2:1/", [][2]string{{"Authorization", "mine"}}, "")
	if err == nil || !strings.Contains(err.Error(), "no request to http://127.0.0.2:1") {
		t.Errorf("redirect to an origin not allowed = %v; want refused", err)
	}
	// A 303 turns POST into GET.
	res, err = do(c, "POST", base+"/redirect?code=303&to=/json", nil, "data")
	if err != nil || !strings.Contains(res.Body, `"method":"GET"`) {
		t.Errorf("POST then 303 = %q, %v; want a GET", res.Body, err)
	}
	// Manual mode answers with the redirect itself.
	ctx := context.Background()
	res, err = c.Do(ctx, Request{URL: base + "/redirect?to=/json", Method: "GET", Redirect: "manual"}, Who{Run: "m", Client: "m"}, nil)
	if err != nil || res.Status != 302 || res.Redirected {
		t.Errorf("manual = %d redirected %v, %v; want the 302", res.Status, res.Redirected, err)
	}
	_, err = c.Do(ctx, Request{URL: base + "/redirect?to=/json", Method: "GET", Redirect: "error"}, Who{Run: "e", Client: "e"}, nil)
	if err == nil || !strings.Contains(err.Error(), `redirect mode is "error"`) {
		t.Errorf("redirect mode error: %v; want refused", err)
	}
}

// TestRebinding: a name is resolved once per connection and the checked
// address is the one dialled, so an answer that changes after the check
// reaches nothing new; the changed answer is refused on the next request.
func TestRebinding(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatalf("listen on 127.0.0.2: %v", err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "pinned") })}}
	srv.Start()
	t.Cleanup(srv.Close)
	port := ln.Addr().(*net.TCPAddr).Port
	dns := &fakeDNS{answers: map[string][][]netip.Addr{
		"rebind.example": {{netip.MustParseAddr("127.0.0.2")}, {netip.MustParseAddr("127.0.0.1")}},
	}}
	c := newClient(t, fmt.Sprintf(`{"allow":[{"origin":"http://rebind.example:%d","addresses":["127.0.0.2/32"]}]}`, port), dns, nil)
	res, err := do(c, "GET", fmt.Sprintf("http://rebind.example:%d/", port), nil, "")
	if err != nil || res.Body != "pinned" {
		t.Fatalf("first fetch = %q, %v; want the permitted address's answer", res.Body, err)
	}
	if n := dns.lookups["rebind.example"]; n != 1 {
		t.Errorf("lookups = %d; want one per connection", n)
	}
	_, err = do(c, "GET", fmt.Sprintf("http://rebind.example:%d/", port), nil, "")
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1, a loopback address") {
		t.Errorf("after rebinding: %v; want the new answer refused", err)
	}
}

func TestBudgets(t *testing.T) {
	_, base := testServer(t)
	now := time.Unix(0, 0)
	p, err := ParsePolicy([]byte(`{"allow":[{"origin":"`+base+`","methods":["GET","POST"]}],
		"limits":{"runRequests":3,"runBytes":250,"clientRequests":5,"clientBytes":1000,"clientWindowMs":60000,"maxRequestBytes":150}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(Config{Policy: p, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	get := func(run string) error {
		_, err := c.Do(ctx, Request{URL: base + "/json", Method: "GET"}, Who{Run: run, Client: "ip"}, nil)
		return err
	}
	for i := range 3 {
		if err := get("r1"); err != nil {
			t.Fatalf("request %d of run r1: %v", i+1, err)
		}
	}
	if err := get("r1"); err == nil || !strings.Contains(err.Error(), "made its 3 requests") {
		t.Errorf("4th request of a run: %v; want the run budget", err)
	}
	for i := range 2 {
		if err := get("r2"); err != nil {
			t.Fatalf("request %d of run r2: %v", i+1, err)
		}
	}
	if err := get("r3"); err == nil || !strings.Contains(err.Error(), "this client made its 5 requests") {
		t.Errorf("6th request of a client: %v; want the client budget", err)
	}
	now = now.Add(time.Minute)
	if err := get("r3"); err != nil {
		t.Errorf("after the window: %v; want a fresh client budget", err)
	}
	_, err = c.Do(ctx, Request{URL: base + "/echo", Method: "POST"}, Who{Run: "r4", Client: "ip"}, make([]byte, 151))
	if err == nil || !strings.Contains(err.Error(), "maxRequestBytes") {
		t.Errorf("a 151-byte body: %v; want maxRequestBytes", err)
	}
	_, err = c.Do(ctx, Request{URL: base + "/echo", Method: "POST"}, Who{Run: "r5", Client: "ip"}, make([]byte, 100))
	if err != nil {
		t.Fatal(err)
	}
	// 100 out, 100 back: another 100 out crosses runBytes.
	_, err = c.Do(ctx, Request{URL: base + "/echo", Method: "POST"}, Who{Run: "r5", Client: "ip"}, make([]byte, 100))
	if err == nil || !strings.Contains(err.Error(), "runBytes") {
		t.Errorf("past 250 bytes in a run: %v; want runBytes", err)
	}
}

func TestParsePolicy(t *testing.T) {
	env := map[string]string{"TOKEN": "abc", "BAD": "a\r\nb"}
	getenv := func(k string) string { return env[k] }
	tests := []struct{ name, in, want string }{
		{"not json", `{`, "not a fetch policy"},
		{"unknown field", `{"alow":[]}`, `unknown field "alow"`},
		{"unknown rule field", `{"allow":[{"origin":"https://a.example","method":["GET"]}]}`, `unknown field "method"`},
		{"trailing data", `{"allow":[{"origin":"https://a.example"}]} {}`, "data after"},
		{"empty allow", `{"allow":[]}`, `"allow" is empty`},
		{"no origin", `{"allow":[{}]}`, `"origin" is missing`},
		{"bad scheme", `{"allow":[{"origin":"ftp://a.example"}]}`, "must be http or https"},
		{"path", `{"allow":[{"origin":"https://a.example/v1"}]}`, "without a path"},
		{"userinfo", `{"allow":[{"origin":"https://u:p@a.example"}]}`, "user name or password"},
		{"bad port", `{"allow":[{"origin":"https://a.example:0"}]}`, "not 1-65535"},
		{"broad pattern", `{"allow":[{"origin":"https://*.org"}]}`, "too broad"},
		{"pattern ip", `{"allow":[{"origin":"https://*.1.2.3"}]}`, "pattern"},
		{"mid wildcard", `{"allow":[{"origin":"https://a.*.example"}]}`, "not a host name"},
		{"numeric host", `{"allow":[{"origin":"http://2130706433"}]}`, "write the address 127.0.0.1"},
		{"lower method", `{"allow":[{"origin":"https://a.example","methods":["get"]}]}`, "upper-case"},
		{"forbidden method", `{"allow":[{"origin":"https://a.example","methods":["CONNECT"]}]}`, "forbidden"},
		{"bad header", `{"allow":[{"origin":"https://a.example","headers":{"X A":"b"}}]}`, "not a header name"},
		{"host header", `{"allow":[{"origin":"https://a.example","headers":{"Host":"b"}}]}`, "not a policy"},
		{"missing env", `{"allow":[{"origin":"https://a.example","headers":{"Authorization":"Bearer ${MISSING}"}}]}`, "MISSING is not set"},
		{"bad env name", `{"allow":[{"origin":"https://a.example","headers":{"Authorization":"${1X}"}}]}`, "not an environment variable"},
		{"crlf env", `{"allow":[{"origin":"https://a.example","headers":{"X-A":"${BAD}"}}]}`, "CR, LF or NUL"},
		{"bad address", `{"allow":[{"origin":"https://a.example","addresses":["10.0.0.0/33"]}]}`, "not a CIDR"},
		{"negative limit", `{"allow":[{"origin":"https://a.example"}],"limits":{"runRequests":-1}}`, "limits.runRequests is -1"},
		{"huge response cap", `{"allow":[{"origin":"https://a.example"}],"limits":{"maxResponseBytes":1000000000}}`, "at most 8388608"},
		{"huge request cap", `{"allow":[{"origin":"https://a.example"}],"limits":{"maxRequestBytes":9000000}}`, "at most 8388608"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePolicy([]byte(tt.in), getenv)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParsePolicy(%s) = %v; want an error containing %q", tt.in, err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "abc") {
				t.Errorf("error %q holds a secret", err)
			}
		})
	}
	p, err := ParsePolicy([]byte(`{"allow":[{"origin":"https://*.Example.org","headers":{"authorization":"Bearer ${TOKEN}"}},{"origin":"http://[::1]:8080"}]}`), getenv)
	if err != nil {
		t.Fatal(err)
	}
	r := p.rules[0]
	if !r.matches("https", "a.b.example.org", "443") || r.matches("https", "example.org", "443") || r.matches("http", "a.example.org", "443") || r.matches("https", "evilexample.org", "443") {
		t.Errorf("the pattern *.example.org matches wrongly")
	}
	if len(r.headers) != 1 || r.headers[0] != [2]string{"Authorization", "Bearer abc"} || len(r.methods) != 2 {
		t.Errorf("rule = %+v; want the template resolved and GET, HEAD", r)
	}
	if !p.rules[1].matches("http", "::1", "8080") || p.rules[1].permits(netip.MustParseAddr("::1")) != "" || p.rules[1].permits(netip.MustParseAddr("127.0.0.1")) == "" {
		t.Errorf("an IP-literal entry must permit its own address only")
	}
}

func TestWHATWGIPv4(t *testing.T) {
	for in, want := range map[string]string{
		"2130706433": "127.0.0.1", "0x7f.1": "127.0.0.1", "0177.0.0.01": "127.0.0.1", "127.1": "127.0.0.1",
		"0": "0.0.0.0", "1.2.3.4.": "1.2.3.4", "0x": "0.0.0.0", "192.168.0x1.1": "192.168.1.1",
	} {
		a, ok, err := parseWHATWGIPv4(in)
		if !ok || err != nil || a.String() != want {
			t.Errorf("parseWHATWGIPv4(%q) = %v %v %v; want %s", in, a, ok, err, want)
		}
	}
	for _, name := range []string{"example.org", "1.example", "0x7g", "a1"} {
		if _, ok, err := parseWHATWGIPv4(name); ok || err != nil {
			t.Errorf("parseWHATWGIPv4(%q) = %v %v; want a name", name, ok, err)
		}
	}
}

func TestHostFuncDeterministic(t *testing.T) {
	c := newClient(t, `{"allow":[{"origin":"https://a.example"}]}`, nil, nil)
	_, err := c.HostFunc()(context.Background(), hostCall(`{"url":"https://a.example/","method":"GET"}`, true, false))
	if err == nil || err.Error() != ErrDeterministic.Error() {
		t.Errorf("deterministic, not recording: %v; want ErrDeterministic", err)
	}
	_, err = c.HostFunc()(context.Background(), hostCall(`{"url":"https://a.example/","method":"GET","extra":1}`, false, false))
	if err == nil || !strings.Contains(err.Error(), "not a fetch request") {
		t.Errorf("an unknown field: %v; want refused", err)
	}
}

func hostCall(arg string, deterministic, recording bool) sandbox.HostCall {
	return sandbox.HostCall{Name: pipe.FetchHost, Args: []json.RawMessage{json.RawMessage(arg)}, Deterministic: deterministic, Recording: recording, Key: "k", Run: 1}
}

// TestHostFuncReplyFitsThePipe: a body JSON would escape past the pipe's
// line cap (control characters take six bytes each) goes as base64.
func TestHostFuncReplyFitsThePipe(t *testing.T) {
	const n = 8 << 20
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("\x01", n)))
	}))
	t.Cleanup(srv.Close)
	c := newClient(t, `{"allow":[{"origin":"`+srv.URL+`"}],"limits":{"maxResponseBytes":8388608}}`, nil, nil)
	b, err := c.HostFunc()(context.Background(), hostCall(`{"url":"`+srv.URL+`/","method":"GET"}`, false, false))
	if err != nil {
		t.Fatal(err)
	}
	var res Response
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(b) >= 16<<20 || res.Body != "" || len(res.BodyBase64) != (n+2)/3*4 {
		t.Errorf("reply of %d bytes (body %d, base64 %d); want base64 under the pipe's 16 MiB", len(b), len(res.Body), len(res.BodyBase64))
	}
}
