package egress

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Policy is the operator's fetch policy: the -fetch-policy file, JSON,
// documented in docs/fetch.md. Deny by default: a request goes out only
// when an entry of Allow matches its origin and method.
//
//	{"allow": [{"origin": "https://api.example.org", "methods": ["GET"],
//	            "headers": {"Authorization": "Bearer ${EXAMPLE_TOKEN}"}}],
//	 "limits": {"runRequests": 20}}
type Policy struct {
	Allow  []Rule `json:"allow"`
	Limits Limits `json:"limits"`

	rules []*rule // Allow compiled, templates resolved (ParsePolicy)
}

// Rule is one entry of the allow list.
type Rule struct {
	// Origin is scheme://host[:port] with scheme http or https. The host
	// is a name (api.example.org), a pattern of one leading wildcard
	// label that matches any deeper name (*.example.org matches
	// a.example.org and a.b.example.org, not example.org), or an IP
	// literal (127.0.0.1, [::1]). The port defaults to the scheme's.
	Origin string `json:"origin"`
	// Methods are the methods allowed, upper case. Default GET and HEAD.
	Methods []string `json:"methods,omitempty"`
	// Headers are attached to every request to this origin, in the
	// server, after the snippet's request was checked and described:
	// the snippet never sees them. A value may hold ${NAME}, replaced at
	// start by the environment variable NAME (a missing or empty one is
	// a start error naming it). They replace a snippet's header of the
	// same name.
	Headers map[string]string `json:"headers,omitempty"`
	// Addresses are CIDR prefixes (10.0.0.0/8, fd00::/8) that this
	// entry's names may resolve to although they are loopback, private,
	// link-local… (refused otherwise). An entry whose host is an IP
	// literal permits that address without listing it.
	Addresses []string `json:"addresses,omitempty"`
}

// Limits are the budgets and caps of fetch. A zero field takes its
// default (DefaultLimits); sizes are bytes, times milliseconds.
type Limits struct {
	// RunRequests caps the requests of one run (each redirect is a
	// request). Default 50.
	RunRequests int `json:"runRequests,omitempty"`
	// RunBytes caps the bytes one run sends and receives (request and
	// response bodies). Default 16 MiB.
	RunBytes int64 `json:"runBytes,omitempty"`
	// ClientRequests caps the requests of one client (its IP or API key)
	// per ClientWindowMs, over all its runs. Default 600.
	ClientRequests int `json:"clientRequests,omitempty"`
	// ClientBytes caps the bytes of one client per window. Default 64 MiB.
	ClientBytes int64 `json:"clientBytes,omitempty"`
	// ClientWindowMs is the client budgets' window. Default 60000 (a minute).
	ClientWindowMs int64 `json:"clientWindowMs,omitempty"`
	// MaxRequestBytes caps one request's body. Default 1 MiB, at most 8 MiB.
	MaxRequestBytes int64 `json:"maxRequestBytes,omitempty"`
	// MaxResponseBytes caps one response's body (after decompression).
	// Default 1 MiB, at most 8 MiB. A larger body fails the fetch with an error naming
	// the cap; an endless one is cut there.
	MaxResponseBytes int64 `json:"maxResponseBytes,omitempty"`
	// TimeoutMs caps one fetch, redirects and the body included. Default
	// 8000; the pool's host-call timeout (10 s) bounds it too.
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
}

// DefaultLimits are the limits of a policy that sets none.
func DefaultLimits() Limits {
	return Limits{RunRequests: 50, RunBytes: 16 << 20, ClientRequests: 600, ClientBytes: 64 << 20,
		ClientWindowMs: 60_000, MaxRequestBytes: 1 << 20, MaxResponseBytes: 1 << 20, TimeoutMs: 8_000}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	setI := func(v *int, dv int) {
		if *v == 0 {
			*v = dv
		}
	}
	set64 := func(v *int64, dv int64) {
		if *v == 0 {
			*v = dv
		}
	}
	setI(&l.RunRequests, d.RunRequests)
	set64(&l.RunBytes, d.RunBytes)
	setI(&l.ClientRequests, d.ClientRequests)
	set64(&l.ClientBytes, d.ClientBytes)
	set64(&l.ClientWindowMs, d.ClientWindowMs)
	set64(&l.MaxRequestBytes, d.MaxRequestBytes)
	set64(&l.MaxResponseBytes, d.MaxResponseBytes)
	set64(&l.TimeoutMs, d.TimeoutMs)
	return l
}

func (l Limits) timeout() time.Duration { return time.Duration(l.TimeoutMs) * time.Millisecond }
func (l Limits) window() time.Duration  { return time.Duration(l.ClientWindowMs) * time.Millisecond }

// maxBodyBytes bounds maxRequestBytes and maxResponseBytes: a body
// crosses the worker pipe in one line, base64 in the worst case (4/3 of
// its size), and a line to a worker holds at most pipe.MaxCommandBytes
// (16 MiB).
const maxBodyBytes = 8 << 20

// MaxRedirects is how many redirects one fetch follows, as browsers do
// (https://fetch.spec.whatwg.org/#http-redirect-fetch, step 5: 20).
const MaxRedirects = 20

// LoadPolicy reads and checks the policy file at path, resolving header
// templates with getenv (os.Getenv when nil). Every error names the file,
// the entry and the field.
func LoadPolicy(path string, getenv func(string) string) (*Policy, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := ParsePolicy(b, getenv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// ParsePolicy decodes a policy strictly (an unknown field is an error),
// checks it and resolves its header templates with getenv (os.Getenv when
// nil). The returned policy is compiled: pass it to New.
func ParsePolicy(b []byte, getenv func(string) string) (*Policy, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p Policy
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("not a fetch policy (docs/fetch.md): %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not a fetch policy (docs/fetch.md): data after the JSON object")
	}
	if len(p.Allow) == 0 {
		return nil, errors.New(`"allow" is empty: a policy names at least one origin (without -fetch-policy, fetch is off)`)
	}
	if err := checkLimits(p.Limits); err != nil {
		return nil, err
	}
	for i := range p.Allow {
		r := &p.Allow[i]
		c, err := compileRule(r, getenv)
		if err != nil {
			return nil, fmt.Errorf("allow[%d] (%q): %w", i, r.Origin, err)
		}
		p.rules = append(p.rules, c)
	}
	return &p, nil
}

func checkLimits(l Limits) error {
	for _, f := range []struct {
		name string
		v    int64
	}{{"runRequests", int64(l.RunRequests)}, {"runBytes", l.RunBytes}, {"clientRequests", int64(l.ClientRequests)},
		{"clientBytes", l.ClientBytes}, {"clientWindowMs", l.ClientWindowMs}, {"maxRequestBytes", l.MaxRequestBytes},
		{"maxResponseBytes", l.MaxResponseBytes}, {"timeoutMs", l.TimeoutMs}} {
		if f.v < 0 {
			return fmt.Errorf("limits.%s is %d: it must be positive (0 or absent for the default)", f.name, f.v)
		}
	}
	if l.MaxResponseBytes > maxBodyBytes {
		return fmt.Errorf("limits.maxResponseBytes is %d: at most %d (a response crosses to the worker in one pipe message, pipe.MaxCommandBytes)", l.MaxResponseBytes, maxBodyBytes)
	}
	if l.MaxRequestBytes > maxBodyBytes {
		return fmt.Errorf("limits.maxRequestBytes is %d: at most %d (a request crosses from the worker in one pipe message, within the run's output limit)", l.MaxRequestBytes, maxBodyBytes)
	}
	return nil
}

// rule is a Rule compiled.
type rule struct {
	origin   string // as written, for errors
	scheme   string
	host     string     // lower case; without the "*." of a pattern
	wildcard bool       // host is a pattern: any name under host
	ip       netip.Addr // the host is this IP literal
	port     string
	methods  []string
	headers  [][2]string // resolved, canonical names, sorted
	prefixes []netip.Prefix
}

var (
	tokenRE    = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$") // RFC 9110 §5.6.2
	templateRE = regexp.MustCompile(`\$\{([^}]*)\}`)
	envNameRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	labelRE    = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)
)

func compileRule(r *Rule, getenv func(string) string) (*rule, error) {
	c := &rule{origin: r.Origin}
	u, err := url.Parse(r.Origin)
	switch {
	case r.Origin == "":
		return nil, errors.New(`"origin" is missing`)
	case err != nil:
		return nil, fmt.Errorf(`"origin" is not a URL: %v`, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf(`"origin": the scheme must be http or https, not %q`, u.Scheme)
	case u.User != nil:
		return nil, errors.New(`"origin" holds a user name or password: put credentials in "headers"`)
	case u.Opaque != "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "":
		return nil, errors.New(`"origin" is scheme://host[:port] only, without a path, query or fragment`)
	case u.Hostname() == "":
		return nil, errors.New(`"origin" has no host`)
	}
	c.scheme = u.Scheme
	c.port = u.Port()
	if c.port == "" {
		c.port = defaultPort(u.Scheme)
	} else if n, err := strconv.Atoi(c.port); err != nil || n < 1 || n > 65535 {
		return nil, fmt.Errorf(`"origin": port %q is not 1-65535`, c.port)
	}
	host := strings.ToLower(u.Hostname())
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		c.wildcard = true
		host = rest
		if !strings.Contains(host, ".") {
			return nil, fmt.Errorf(`"origin": the pattern *.%s is too broad; a pattern names a domain under a public suffix (*.example.org)`, host)
		}
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if c.wildcard {
			return nil, errors.New(`"origin": a pattern cannot hold an IP address`)
		}
		c.ip = a.WithZone("")
		host = c.ip.String()
	} else if a, ok, err := parseWHATWGIPv4(host); err != nil || ok {
		if c.wildcard {
			return nil, errors.New(`"origin": a pattern cannot hold an IP address`)
		}
		if err != nil {
			return nil, fmt.Errorf(`"origin": %v`, err)
		}
		return nil, fmt.Errorf(`"origin": write the address %s as it is, not %q`, a, host)
	} else {
		for _, l := range strings.Split(host, ".") {
			if !labelRE.MatchString(l) {
				return nil, fmt.Errorf(`"origin": %q is not a host name (letters, digits and hyphens in dot-separated labels; one leading "*." for a pattern)`, u.Hostname())
			}
		}
	}
	c.host = host

	if len(r.Methods) == 0 {
		c.methods = []string{"GET", "HEAD"}
	}
	for _, m := range r.Methods {
		if !tokenRE.MatchString(m) || m != strings.ToUpper(m) {
			return nil, fmt.Errorf(`"methods": %q is not an upper-case method name`, m)
		}
		if forbiddenMethod(m) {
			return nil, fmt.Errorf(`"methods": %s is forbidden by the Fetch standard`, m)
		}
		c.methods = append(c.methods, m)
	}

	for _, name := range slicesSorted(r.Headers) {
		if !tokenRE.MatchString(name) {
			return nil, fmt.Errorf(`"headers": %q is not a header name`, name)
		}
		switch strings.ToLower(name) {
		case "host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer":
			return nil, fmt.Errorf(`"headers": %s is set by the server's HTTP client, not a policy`, name)
		}
		val, err := expand(r.Headers[name], getenv)
		if err != nil {
			return nil, fmt.Errorf(`"headers": %s: %v`, name, err)
		}
		c.headers = append(c.headers, [2]string{canonical(name), val})
	}

	for _, s := range r.Addresses {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return nil, fmt.Errorf(`"addresses": %q is not a CIDR prefix (10.0.0.0/8) or an address`, s)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		c.prefixes = append(c.prefixes, p.Masked())
	}
	return c, nil
}

// expand replaces each ${NAME} of v by getenv(NAME).
func expand(v string, getenv func(string) string) (string, error) {
	var bad error
	out := templateRE.ReplaceAllStringFunc(v, func(m string) string {
		name := m[2 : len(m)-1]
		if !envNameRE.MatchString(name) {
			bad = fmt.Errorf("${%s} is not an environment variable's name", name)
			return ""
		}
		val := getenv(name)
		if val == "" && bad == nil {
			bad = fmt.Errorf("the environment variable %s is not set (the value's template names it)", name)
		}
		return val
	})
	if bad != nil {
		return "", bad
	}
	if strings.ContainsAny(out, "\r\n\x00") {
		return "", errors.New("the value (after templates) holds CR, LF or NUL")
	}
	return out, nil
}

func slicesSorted(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// canonical is name as Go's http.Header keys it.
func canonical(name string) string { return http.CanonicalHeaderKey(name) }

// matches reports whether the rule names the origin scheme://host:port
// (host canonical: lower case, an IP in netip's form).
func (r *rule) matches(scheme, host, port string) bool {
	if scheme != r.scheme || port != r.port {
		return false
	}
	if r.wildcard {
		return strings.HasSuffix(host, "."+r.host)
	}
	return host == r.host
}

func (r *rule) allowsMethod(m string) bool { return slices.Contains(r.methods, m) }

// permits reports why address a may not be dialled under r ("" if it may).
func (r *rule) permits(a netip.Addr) string {
	a = a.WithZone("")
	why := blocked(a)
	if why == "" {
		return ""
	}
	if r.ip.IsValid() && r.ip == a {
		return ""
	}
	for _, p := range r.prefixes {
		if p.Contains(a) {
			return ""
		}
	}
	return why
}

// forbiddenMethod: https://fetch.spec.whatwg.org/#forbidden-method.
func forbiddenMethod(m string) bool {
	switch strings.ToUpper(m) {
	case "CONNECT", "TRACE", "TRACK":
		return true
	}
	return false
}
