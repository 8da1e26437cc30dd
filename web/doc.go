// Package web is the HTTP edge of the playground: the page and the embed
// (templ templates), the embedded static assets, GET /ws (WebSocket
// sessions, each run through the server's engine.Engine), the endpoints for
// programs (/api/v1/ and /mcp, served by web/api on the same engine),
// /api/stats, /healthz, and the operator's /metrics and /readyz. It works
// out each client's IP once, here, believing X-Forwarded-For only from
// configured proxies, and bounds sockets and connections per client.
package web

//go:generate go tool templ generate
