package pipe

// FetchHost is the host function behind a snippet's fetch: the worker's
// fetch (sandbox/worker/js/webapi, polyfill.js's fetch group, and
// sandbox/worker/js/fetch.go) calls it with one argument, the request, and
// the server answers it (package egress, registered by cmd/playground
// when -fetch-policy is set; egress.Request and egress.Response are the
// JSON shapes). It is not a host.<name> function: the worker keeps it off
// the snippet's host object, and without it in Job.Host fetch rejects
// with a TypeError naming the policy.
const FetchHost = "fetch"
