// Package egress performs snippets' fetch requests under the operator's
// policy (-fetch-policy, docs/fetch.md). It runs in the server process,
// never in a worker: a worker's fetch is a host call (pipe.FetchHost) that
// the pool hands to Client.HostFunc, so the network, the policy and the
// secrets stay out of the process that runs snippet code.
//
// Deny by default. A request goes out only when an entry of the policy's
// allow list names its origin (a scheme, host or host pattern, and port)
// and allows its method; the entry's header templates (environment
// variables resolved at start, LoadPolicy) are attached here, after the
// request was checked and described for the Calls panel, so that the
// snippet, its errors and its call events never hold them.
//
// Against server-side request forgery (the checks are the SSRF corpus of
// egress_test.go):
//   - only http: and https:, no userinfo, hosts parsed as the WHATWG URL
//     standard parses them (decimal, octal and hex IPv4 forms are their
//     address: https://url.spec.whatwg.org/#concept-ipv4-parser);
//   - a name is resolved once per connection (Config.Resolve) and the
//     connection dials the address that was checked, never the name again,
//     so a DNS answer that changes between check and use (rebinding) cannot
//     reach another address; the dialer's Control re-checks the address
//     actually dialled;
//   - loopback, private (RFC 1918, RFC 4193), link-local, multicast,
//     unspecified, shared (RFC 6598), IPv4-mapped and NAT64 IPv6, and the
//     cloud metadata addresses are refused unless the matching entry names
//     the address itself or lists it under addresses;
//   - every redirect is checked again as a new request (origin, method,
//     the budgets), at most MaxRedirects of them, as browsers do; an
//     entry's headers go only to its own origin;
//   - header names and values with CR, LF or NUL, and the Fetch standard's
//     forbidden request headers (Host, Content-Length, Cookie, …), are
//     refused;
//   - responses are capped in bytes and time: an endless body is cut with
//     an error naming the cap.
//
// Budgets: requests and bytes per run and per client (a fixed window per
// client, bounded in memory), beside the pool's own host-call limit and
// timeout, which a fetch counts against like any host call.
//
// Tracing: Config.Wrap wraps the pinned transport (for example with
// OpenTelemetry's otelhttp); this package imports no tracing library.
//
// Concurrency: a Client is safe for concurrent use; its HostFunc is called
// from many runs at once.
package egress
