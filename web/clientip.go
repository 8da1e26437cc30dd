package web

import (
	"net/http"
	"net/netip"
	"strings"
)

// clientIP returns the key a client is rate limited by: the peer's address,
// or, when the peer is a trusted proxy, the right-most address in
// X-Forwarded-For that is not itself a trusted proxy. IPv6 addresses are
// keyed by their /64, since one host usually holds a whole /64.
func clientIP(r *http.Request, trusted []netip.Prefix) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	ip := ap.Addr().Unmap()
	if inAny(ip, trusted) {
		if fwd, ok := forwardedFor(r.Header, trusted); ok {
			ip = fwd
		}
	}
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// forwardedFor walks X-Forwarded-For from the right (the hop nearest us)
// past trusted proxies and returns the first other address.
func forwardedFor(h http.Header, trusted []netip.Prefix) (netip.Addr, bool) {
	var hops []string
	for _, v := range h.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		ip, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return netip.Addr{}, false
		}
		ip = ip.Unmap()
		if !inAny(ip, trusted) {
			return ip, true
		}
	}
	return netip.Addr{}, false
}

func inAny(ip netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
