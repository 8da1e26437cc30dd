package web

import (
	"net"
	"net/http"
	"net/netip"
	"path"
	"strings"
)

// hostAllowed reports whether a request's Host header names this server,
// against DNS rebinding: a page on an attacker's name that resolves to the
// server would otherwise be same-origin with it, its Host and Origin both
// the attacker's name. patterns are host names, "*.example.com" for
// subdomains; an empty list allows every host. An IP literal is always
// allowed: rebinding needs a name, and load balancers' health checks use
// the instance's address.
func hostAllowed(host string, patterns []string) bool {
	if len(patterns) == 0 {
		return true
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	for _, p := range patterns {
		if ok, _ := path.Match(strings.ToLower(p), host); ok {
			return true
		}
	}
	return false
}

// LoopbackHosts are the allowed hosts of a server that listens on
// loopback and names none (-hosts): localhost and its subdomains.
var LoopbackHosts = []string{"localhost", "*.localhost"}

// checkHost refuses a request whose Host is not allowed with 403 and a
// reason that names the flag.
func checkHost(h http.Handler, patterns []string) http.Handler {
	if len(patterns) == 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, patterns) {
			http.Error(w, "host "+r.Host+" is not served here (allowed hosts: -hosts)", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}
