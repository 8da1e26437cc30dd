package egress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// Config configures a Client. Policy is required; the rest have defaults.
type Config struct {
	// Policy is the operator's policy, from ParsePolicy or LoadPolicy.
	Policy *Policy
	// Resolve looks up a host name's addresses. Default
	// net.DefaultResolver.LookupNetIP(ctx, "ip", host). Tests put a fake
	// resolver here (DNS rebinding).
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Wrap, when set, wraps the client's transport: the pinned,
	// policy-checked dialer stays underneath whatever Wrap adds (for
	// example otelhttp.NewTransport, which propagates traceparent). The
	// wrapper sees each request after the policy's headers were attached:
	// it must not record header values.
	Wrap func(http.RoundTripper) http.RoundTripper
	// Now is the clock of the client budgets. Default time.Now.
	Now func() time.Time
	// Log receives one line per fetch at debug level (never a header).
	// Default: discard.
	Log *slog.Logger
}

// Client performs fetches under one policy. It is safe for concurrent use.
type Client struct {
	cfg   Config
	lim   Limits
	rules []*rule
	rt    http.RoundTripper

	mu      sync.Mutex                     // guards runs and clients
	runs    *simplelru.LRU[string, *usage] // per-run usage, by Who.Run
	clients *simplelru.LRU[string, *usage] // per-client usage in its current window
}

// usage is what a run or a client spent.
type usage struct {
	start    time.Time // the window's start (clients)
	requests int
	bytes    int64
}

// maxTracked bounds the runs and clients whose usage is kept: past it the
// least recently used are forgotten (a forgotten run gets a fresh budget,
// which needs this many runs fetching at once).
const maxTracked = 10_000

// New makes a Client for cfg.Policy.
func New(cfg Config) (*Client, error) {
	if cfg.Policy == nil {
		return nil, errors.New("egress: no policy")
	}
	rules := cfg.Policy.rules
	if rules == nil { // a Policy built in code
		for i := range cfg.Policy.Allow {
			r, err := compileRule(&cfg.Policy.Allow[i], nil)
			if err != nil {
				return nil, fmt.Errorf("egress: allow[%d]: %w", i, err)
			}
			rules = append(rules, r)
		}
	}
	if cfg.Resolve == nil {
		cfg.Resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	c := &Client{cfg: cfg, lim: cfg.Policy.Limits.withDefaults(), rules: rules}
	c.runs, _ = simplelru.NewLRU[string, *usage](maxTracked, nil)
	c.clients, _ = simplelru.NewLRU[string, *usage](maxTracked, nil)
	var rt http.RoundTripper = &http.Transport{
		Proxy:               nil, // never the environment's proxy: it would dial for us, unchecked
		DialContext:         c.dial,
		DisableKeepAlives:   true, // each request resolves and checks anew
		TLSHandshakeTimeout: 5 * time.Second,
		// No ResponseHeaderTimeout: Do's deadline (the policy's timeoutMs) bounds the
		// whole fetch, headers included, and names the limit; a second timer of
		// the same length raced it and, on a busy machine, won with net/http's words.
		MaxResponseHeaderBytes: 64 << 10,
		ForceAttemptHTTP2:      true,
	}
	if cfg.Wrap != nil {
		rt = cfg.Wrap(rt)
	}
	c.rt = rt
	return c, nil
}

// Limits returns the client's limits, defaults filled in.
func (c *Client) Limits() Limits { return c.lim }

// Who says whose fetch it is: Run keys the per-run budget, Client (an IP
// or API key name) the per-client one.
type Who struct {
	Run    string
	Client string
}

// Request and Response are the pipe's contract of a fetch (the host
// call's argument and result, shared with the worker).
type (
	Request  = pipe.FetchRequest
	Response = pipe.FetchResponse
)

// Do performs req for who under the policy. Its error says why a request
// was refused or failed, in words for the snippet; it never holds a
// header value the policy attached.
func (c *Client) Do(ctx context.Context, req Request, who Who, body []byte) (Response, error) {
	method, err := checkMethod(req.Method)
	if err != nil {
		return Response{}, err
	}
	if (method == "GET" || method == "HEAD") && len(body) > 0 {
		return Response{}, fmt.Errorf("a %s request cannot have a body", method)
	}
	if int64(len(body)) > c.lim.MaxRequestBytes {
		return Response{}, fmt.Errorf("the request body is %d bytes; the fetch policy's limit (maxRequestBytes) is %d", len(body), c.lim.MaxRequestBytes)
	}
	hdr := http.Header{}
	for _, kv := range req.Headers {
		if err := checkHeader(kv[0], kv[1]); err != nil {
			return Response{}, err
		}
		hdr.Add(kv[0], kv[1])
	}
	switch req.Redirect {
	case "", "follow", "error", "manual":
	default:
		return Response{}, fmt.Errorf("redirect mode %q: it must be follow, error or manual", req.Redirect)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, c.lim.timeout(), fmt.Errorf("the fetch took longer than the fetch policy's %d ms (timeoutMs)", c.lim.TimeoutMs))
	defer cancel()

	u, err := parseURL(req.URL)
	if err != nil {
		return Response{}, err
	}
	redirected := false
	for hop := 0; ; hop++ {
		r, err := c.rule(u, method)
		if err != nil {
			return Response{}, err
		}
		if err := c.spend(who, 1, int64(len(body))); err != nil {
			return Response{}, err
		}
		hreq, err := http.NewRequestWithContext(withRule(ctx, r), method, u.String(), nil)
		if err != nil {
			return Response{}, fmt.Errorf("%s: %v", u.Redacted(), err)
		}
		if body != nil {
			hreq.Body = io.NopCloser(strings.NewReader(string(body)))
			hreq.ContentLength = int64(len(body))
			hreq.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(string(body))), nil }
		}
		hreq.Header = hdr.Clone()
		if hreq.Header.Get("Accept") == "" {
			hreq.Header.Set("Accept", "*/*")
		}
		if hreq.Header.Get("User-Agent") == "" {
			hreq.Header.Set("User-Agent", "playground-fetch")
		}
		for _, h := range r.headers { // the policy's, last: the snippet never set them
			hreq.Header.Set(h[0], h[1])
		}
		start := time.Now()
		resp, err := c.rt.RoundTrip(hreq)
		if err != nil {
			return Response{}, c.failure(ctx, u, err)
		}
		loc := resp.Header.Get("Location")
		if isRedirect(resp.StatusCode) && loc != "" && req.Redirect != "manual" {
			_, _ = io.CopyN(io.Discard, resp.Body, 4<<10)
			resp.Body.Close()
			if req.Redirect == "error" {
				return Response{}, fmt.Errorf("%s redirected (%d) and the request's redirect mode is \"error\"", u.Redacted(), resp.StatusCode)
			}
			if hop >= MaxRedirects {
				return Response{}, fmt.Errorf("%s: more than %d redirects", req.URL, MaxRedirects)
			}
			next, err := u.Parse(loc)
			if err != nil {
				return Response{}, fmt.Errorf("%s redirected to %q, which is not a URL", u.Redacted(), loc)
			}
			if next, err = parseURL(next.String()); err != nil {
				return Response{}, fmt.Errorf("%s redirected: %v", u.Redacted(), err)
			}
			// https://fetch.spec.whatwg.org/#http-redirect-fetch steps 12-13.
			if (resp.StatusCode == 301 || resp.StatusCode == 302) && method == "POST" || resp.StatusCode == 303 && method != "GET" && method != "HEAD" {
				method, body = "GET", nil
				for _, h := range []string{"Content-Type", "Content-Encoding", "Content-Language", "Content-Location"} {
					hdr.Del(h)
				}
			}
			if origin(next) != origin(u) {
				hdr.Del("Authorization") // the snippet's own; the policy's go to their origin only
			}
			c.cfg.Log.Debug("fetch redirected", "run", who.Run, "url", u.Redacted(), "status", resp.StatusCode, "ms", time.Since(start).Milliseconds())
			u, redirected = next, true
			continue
		}
		out, err := c.read(resp, u, who)
		if err != nil {
			return Response{}, c.failure(ctx, u, err)
		}
		out.Redirected = redirected
		c.cfg.Log.Debug("fetch", "run", who.Run, "url", u.Redacted(), "status", resp.StatusCode, "ms", time.Since(start).Milliseconds())
		return out, nil
	}
}

// read reads resp's body within the caps and budgets into a Response.
func (c *Client) read(resp *http.Response, u *url.URL, who Who) (Response, error) {
	defer resp.Body.Close()
	max := c.lim.MaxResponseBytes
	b, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return Response{}, err
	}
	if int64(len(b)) > max {
		return Response{}, fmt.Errorf("%s: the response body is larger than the fetch policy's %d bytes (maxResponseBytes); it was cut there", u.Redacted(), max)
	}
	if err := c.spend(who, 0, int64(len(b))); err != nil {
		return Response{}, err
	}
	out := Response{URL: u.String(), Status: resp.StatusCode, StatusText: strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range resp.Header {
			if !yield(k) {
				return
			}
		}
	}) {
		lower := strings.ToLower(name)
		if lower == "set-cookie" || lower == "set-cookie2" {
			continue
		}
		out.Headers = append(out.Headers, [2]string{lower, strings.Join(resp.Header[name], ", ")})
	}
	if out.Headers == nil {
		out.Headers = [][2]string{}
	}
	if utf8.Valid(b) {
		out.Body = string(b)
	} else {
		out.BodyBase64 = base64Std(b)
	}
	return out, nil
}

// failure words a transport error for the snippet: the policy's timeout
// or the run's end, else the error itself (our dialer's refusals read as
// they are).
func (c *Client) failure(ctx context.Context, u *url.URL, err error) error {
	if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(cause, context.DeadlineExceeded) {
			return fmt.Errorf("%s: %v", u.Redacted(), cause)
		}
		return fmt.Errorf("%s: %v", u.Redacted(), ctx.Err())
	}
	var re *refusal
	if errors.As(err, &re) {
		return fmt.Errorf("%s: %v", u.Redacted(), re)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("%s: %v", u.Redacted(), err)
}

// rule finds the entry that allows method to u's origin.
func (c *Client) rule(u *url.URL, method string) (*rule, error) {
	scheme, host, port := u.Scheme, canonicalHost(u.Hostname()), u.Port()
	if port == "" {
		port = defaultPort(scheme)
	}
	var methodsOf *rule
	for _, r := range c.rules {
		if !r.matches(scheme, host, port) {
			continue
		}
		if r.allowsMethod(method) {
			return r, nil
		}
		if methodsOf == nil {
			methodsOf = r
		}
	}
	if methodsOf != nil {
		return nil, fmt.Errorf("the fetch policy allows %s to %s, not %s", strings.Join(methodsOf.methods, ", "), origin(u), method)
	}
	return nil, fmt.Errorf("the fetch policy allows no request to %s (-fetch-policy names the origins a snippet may fetch)", origin(u))
}

// spend takes n requests and b bytes from who's budgets, or says which
// budget they would cross (and takes nothing).
func (c *Client) spend(who Who, n int, b int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.cfg.Now()
	run, ok := c.runs.Get(who.Run)
	if !ok {
		run = &usage{}
		c.runs.Add(who.Run, run)
	}
	cl, ok := c.clients.Get(who.Client)
	if !ok || now.Sub(cl.start) >= c.lim.window() {
		cl = &usage{start: now}
		c.clients.Add(who.Client, cl)
	}
	switch {
	case run.requests+n > c.lim.RunRequests:
		return fmt.Errorf("this run made its %d requests, the fetch policy's limit (runRequests)", c.lim.RunRequests)
	case run.bytes+b > c.lim.RunBytes:
		return fmt.Errorf("this run would move more than the fetch policy's %d bytes (runBytes)", c.lim.RunBytes)
	case cl.requests+n > c.lim.ClientRequests:
		return fmt.Errorf("this client made its %d requests of the last %d ms, the fetch policy's limit (clientRequests); retry in %d ms", c.lim.ClientRequests, c.lim.ClientWindowMs, (c.lim.window() - now.Sub(cl.start)).Milliseconds())
	case cl.bytes+b > c.lim.ClientBytes:
		return fmt.Errorf("this client would move more than the fetch policy's %d bytes per %d ms (clientBytes); retry in %d ms", c.lim.ClientBytes, c.lim.ClientWindowMs, (c.lim.window() - now.Sub(cl.start)).Milliseconds())
	}
	run.requests += n
	run.bytes += b
	cl.requests += n
	cl.bytes += b
	return nil
}

// refusal is the dialer's refusal of an address.
type refusal struct{ msg string }

func (r *refusal) Error() string { return r.msg }

type ruleKey struct{}

func withRule(ctx context.Context, r *rule) context.Context {
	return context.WithValue(ctx, ruleKey{}, r)
}

// dial resolves addr's host once, checks every address against the
// request's rule and dials a checked address itself: the name is never
// resolved again for this connection (DNS rebinding). The dialer's Control
// checks the address the socket actually connects to as well.
func (c *Client) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	r, _ := ctx.Value(ruleKey{}).(*rule)
	if r == nil {
		return nil, &refusal{"no policy entry for this connection"}
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		addrs, err = c.cfg.Resolve(ctx, host)
		if err != nil {
			var dnsErr *net.DNSError
			if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
				return nil, &refusal{fmt.Sprintf("the host %s was not found (DNS)", host)}
			}
			return nil, fmt.Errorf("resolve %s: %v", host, err)
		}
		if len(addrs) == 0 {
			return nil, &refusal{fmt.Sprintf("the host %s has no address", host)}
		}
	}
	for _, a := range addrs {
		if why := r.permits(a); why != "" {
			return nil, &refusal{fmt.Sprintf("%s resolves to %s, %s; the fetch policy's entry %s does not name it", host, a, why, r.origin)}
		}
	}
	var firstErr error
	for _, a := range addrs {
		d := net.Dialer{Timeout: 5 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return &refusal{fmt.Sprintf("dialling %s: not an address", address)}
			}
			if why := r.permits(ap.Addr()); why != "" {
				return &refusal{fmt.Sprintf("%s is %s", ap.Addr(), why)}
			}
			return nil
		}}
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(a.WithZone("").String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

// parseURL parses a fetch URL and refuses what no fetch may name.
func parseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%q is not a URL", s)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%q: the scheme %q is not allowed (only http: and https:)", s, u.Scheme+":")
	case u.User != nil:
		return nil, fmt.Errorf("%s: a URL with a user name or password is not allowed (credentials come from the fetch policy)", u.Redacted())
	case u.Opaque != "":
		return nil, fmt.Errorf("%q is not a hierarchical URL", s)
	}
	h := u.Hostname()
	if h == "" {
		return nil, fmt.Errorf("%q has no host", s)
	}
	if strings.ContainsAny(h, "%\\ \t\r\n\x00") {
		return nil, fmt.Errorf("%q: the host %q holds characters a host may not", s, h)
	}
	port := u.Port()
	if trimmed := strings.TrimSuffix(h, "."); trimmed != h && trimmed != "" {
		h = trimmed // a.example. is a.example
		u.Host = hostPort(h, port)
	}
	if !strings.Contains(h, ":") { // not an IPv6 literal
		if a, ok, err := parseWHATWGIPv4(strings.ToLower(h)); ok || err != nil {
			if err != nil {
				return nil, fmt.Errorf("%q: %v", s, err)
			}
			u.Host = hostPort(a.String(), port)
		}
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%q: port %q is not 1-65535", s, p)
		}
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// hostPort is host[:port] as a URL writes it.
func hostPort(host, port string) string {
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "" {
		return host
	}
	return host + ":" + port
}

// canonicalHost is a URL's host as rules hold it: lower case, an IP
// literal in netip's form (zone dropped).
func canonicalHost(h string) string {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if a, err := netip.ParseAddr(h); err == nil {
		return a.WithZone("").String()
	}
	return h
}

// origin is scheme://host:port of u, the port always written.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = defaultPort(u.Scheme)
	}
	return u.Scheme + "://" + net.JoinHostPort(canonicalHost(u.Hostname()), port)
}

func isRedirect(code int) bool {
	switch code {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// checkMethod normalizes m (https://fetch.spec.whatwg.org/#concept-method-normalize)
// and refuses a forbidden one.
func checkMethod(m string) (string, error) {
	if m == "" {
		return "GET", nil
	}
	if !tokenRE.MatchString(m) {
		return "", fmt.Errorf("%q is not a valid HTTP method", m)
	}
	switch up := strings.ToUpper(m); up {
	case "DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT":
		m = up
	}
	if forbiddenMethod(m) {
		return "", fmt.Errorf("the method %s is forbidden (Fetch standard)", strings.ToUpper(m))
	}
	return m, nil
}

// checkHeader refuses a malformed header and the Fetch standard's
// forbidden request headers (https://fetch.spec.whatwg.org/#forbidden-request-header).
func checkHeader(name, value string) error {
	if !tokenRE.MatchString(name) {
		return fmt.Errorf("%q is not a valid header name", name)
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("the value of header %s holds CR, LF or NUL", name)
	}
	lower := strings.ToLower(name)
	if strings.HasPrefix(lower, "proxy-") || strings.HasPrefix(lower, "sec-") {
		return fmt.Errorf("the header %s is forbidden (Fetch standard: Proxy- and Sec- headers)", name)
	}
	switch lower {
	case "accept-charset", "accept-encoding", "access-control-request-headers", "access-control-request-method",
		"connection", "content-length", "cookie", "cookie2", "date", "dnt", "expect", "host", "keep-alive",
		"origin", "referer", "set-cookie", "te", "trailer", "transfer-encoding", "upgrade", "via":
		return fmt.Errorf("the header %s is forbidden (Fetch standard's forbidden request headers)", name)
	case "x-http-method", "x-http-method-override", "x-method-override":
		if forbiddenMethod(value) {
			return fmt.Errorf("the header %s may not name %s (Fetch standard)", name, value)
		}
	}
	return nil
}
