package egress

import (
	"errors"
	"fmt"
	"math/big"
	"net/netip"
	"strings"
)

// blockedPrefixes are the addresses a fetch may not reach unless its
// policy entry names them (Rule.Addresses, or an IP-literal origin), with
// why. IPv4 from the IANA special-purpose registry (RFC 6890) and the
// cloud metadata services; IPv6 ranges that embed or translate IPv4
// addresses are refused whole, since the IPv4 inside may be any of these.
var blockedPrefixes = func() []struct {
	p   netip.Prefix
	why string
} {
	var out []struct {
		p   netip.Prefix
		why string
	}
	for _, b := range [][2]string{
		{"0.0.0.0/8", "a \"this network\" address (RFC 791)"},
		{"10.0.0.0/8", "a private address (RFC 1918)"},
		{"100.64.0.0/10", "a shared (carrier-grade NAT) address (RFC 6598)"},
		{"127.0.0.0/8", "a loopback address"},
		{"169.254.0.0/16", "a link-local address (and cloud metadata, 169.254.169.254)"},
		{"172.16.0.0/12", "a private address (RFC 1918)"},
		{"192.0.0.0/24", "an IETF protocol address (RFC 6890; cloud metadata at 192.0.0.192)"},
		{"192.0.2.0/24", "a documentation address (RFC 5737)"},
		{"192.88.99.0/24", "a 6to4 relay address (RFC 7526)"},
		{"192.168.0.0/16", "a private address (RFC 1918)"},
		{"198.18.0.0/15", "a benchmarking address (RFC 2544)"},
		{"198.51.100.0/24", "a documentation address (RFC 5737)"},
		{"203.0.113.0/24", "a documentation address (RFC 5737)"},
		{"224.0.0.0/4", "a multicast address"},
		{"240.0.0.0/4", "a reserved address (and the broadcast address)"},
		{"::/128", "the unspecified address"},
		{"::1/128", "a loopback address"},
		{"::ffff:0:0/96", "an IPv4-mapped IPv6 address"},
		{"::/96", "an IPv4-compatible IPv6 address (RFC 4291, deprecated)"},
		{"64:ff9b::/96", "a NAT64 address (RFC 6052): it reaches an IPv4 address"},
		{"64:ff9b:1::/48", "a local-use NAT64 address (RFC 8215)"},
		{"100::/64", "a discard address (RFC 6666)"},
		{"2001::/32", "a Teredo address (RFC 4380): it reaches an IPv4 address"},
		{"2001:db8::/32", "a documentation address (RFC 3849)"},
		{"2002::/16", "a 6to4 address (RFC 3056): it reaches an IPv4 address"},
		{"fc00::/7", "a unique local address (RFC 4193; cloud metadata at fd00:ec2::254)"},
		{"fe80::/10", "a link-local address"},
		{"fec0::/10", "a site-local address (RFC 3879)"},
		{"ff00::/8", "a multicast address"},
	} {
		out = append(out, struct {
			p   netip.Prefix
			why string
		}{netip.MustParsePrefix(b[0]), b[1]})
	}
	return out
}()

// blocked says why a is refused without an explicit policy entry, or ""
// when a is a public unicast address.
func blocked(a netip.Addr) string {
	if !a.IsValid() {
		return "not an address"
	}
	a = a.WithZone("")
	for _, b := range blockedPrefixes {
		if b.p.Contains(a) {
			return b.why
		}
	}
	if !a.IsGlobalUnicast() {
		return "not a global unicast address"
	}
	return ""
}

// errIPv4 is a host that the WHATWG URL parser reads as an IPv4 address
// but whose numbers are out of range (https://url.spec.whatwg.org/#concept-ipv4-parser).
var errIPv4 = errors.New("the host is a malformed IPv4 address")

// parseWHATWGIPv4 parses host as the WHATWG URL standard parses a host
// that ends in a number: one to four parts in decimal, octal (leading 0)
// or hex (0x), the last filling the remaining bytes. ok is false when host
// does not end in a number (it is a name). 0x7f.1 and 2130706433 are
// 127.0.0.1; Go's net/url keeps them as names, which a resolver might
// read either way, so they are decided here.
func parseWHATWGIPv4(host string) (a netip.Addr, ok bool, err error) {
	parts := strings.Split(host, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if !isNumber(last) {
		return netip.Addr{}, false, nil
	}
	if len(parts) > 4 {
		return netip.Addr{}, true, fmt.Errorf("%w: %q has more than four parts", errIPv4, host)
	}
	nums := make([]*big.Int, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return netip.Addr{}, true, fmt.Errorf("%w: %q is not a number in %q", errIPv4, p, host)
		}
		nums[i] = n
	}
	limit := big.NewInt(256)
	for _, n := range nums[:len(nums)-1] {
		if n.Cmp(limit) >= 0 {
			return netip.Addr{}, true, fmt.Errorf("%w: a part of %q is over 255", errIPv4, host)
		}
	}
	max := new(big.Int).Lsh(big.NewInt(1), uint(8*(5-len(nums))))
	if nums[len(nums)-1].Cmp(max) >= 0 {
		return netip.Addr{}, true, fmt.Errorf("%w: the last part of %q is too large", errIPv4, host)
	}
	v := new(big.Int).Set(nums[len(nums)-1])
	for i, n := range nums[:len(nums)-1] {
		v.Add(v, new(big.Int).Lsh(n, uint(8*(3-i))))
	}
	u := v.Uint64()
	return netip.AddrFrom4([4]byte{byte(u >> 24), byte(u >> 16), byte(u >> 8), byte(u)}), true, nil
}

// isNumber: https://url.spec.whatwg.org/#ends-in-a-number-checker.
func isNumber(s string) bool {
	if s == "" {
		return false
	}
	if strings.Trim(s, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(s)
	return ok && (strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"))
}

func parseIPv4Number(s string) (*big.Int, bool) {
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		s, base = s[2:], 16
		if s == "" {
			return new(big.Int), true
		}
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	if s == "" {
		return new(big.Int), true
	}
	n, ok := new(big.Int).SetString(s, base)
	if !ok || n.Sign() < 0 || strings.ContainsAny(s, "+-_") {
		return nil, false
	}
	return n, true
}
