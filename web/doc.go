// Package web is the HTTP edge of the playground: the page (a templ
// template), the embedded static assets, GET /ws (WebSocket sessions), and
// the JSON endpoints /api/stats and /healthz. It works out each client's IP
// once, here, believing X-Forwarded-For only from configured proxies.
package web

//go:generate go tool templ generate
