package pipe

// FetchHost is the host function behind a snippet's fetch: the worker's
// fetch (sandbox/worker/js/webapi, polyfill.js's fetch group, and
// sandbox/worker/js/fetch.go) calls it with one argument, the request, and
// the server answers it (package egress, registered by cmd/playground
// when -fetch-policy is set); FetchRequest and FetchResponse are the JSON
// of its argument and result. It is not a host.<name> function: the worker keeps it off
// the snippet's host object, and without it in Job.Host fetch rejects
// with a TypeError naming the policy.
const FetchHost = "fetch"

// FetchRequest is a snippet's fetch as the worker sends it (FetchHost's
// argument). Body or BodyBase64 holds the body, if any.
type FetchRequest struct {
	URL        string      `json:"url"`
	Method     string      `json:"method"`
	Headers    [][2]string `json:"headers,omitempty"`
	Body       *string     `json:"body,omitempty"`
	BodyBase64 *string     `json:"bodyBase64,omitempty"`
	// Redirect is the request's redirect mode: "follow" (default),
	// "error" or "manual" (the 3xx response itself is the answer, as in
	// Node's fetch).
	Redirect string `json:"redirect,omitempty"`
}

// FetchResponse is FetchHost's result, which the worker turns into a
// Response object. Body holds a body that is valid UTF-8, BodyBase64 any
// other. Header names are lower case, sorted, one entry per name (values
// joined with ", "); Set-Cookie is never passed on (a forbidden response
// header name).
type FetchResponse struct {
	URL        string      `json:"url"`
	Status     int         `json:"status"`
	StatusText string      `json:"statusText"`
	Redirected bool        `json:"redirected"`
	Headers    [][2]string `json:"headers"`
	Body       string      `json:"body,omitempty"`
	BodyBase64 string      `json:"bodyBase64,omitempty"`
}
