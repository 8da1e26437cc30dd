package web

import (
	_ "embed"
	"net/http"
)

// The page's icon: favicon.svg (a play mark on a blue rounded square) for
// browsers that take SVG icons, and favicon.ico, the same drawing as one
// 32×32 PNG inside an ICO container, for /favicon.ico requests that every
// browser and crawler makes unasked.
var (
	//go:embed favicon.svg
	faviconSVG []byte
	//go:embed favicon.ico
	faviconICO []byte
)

// serveBytes serves a fixed asset with its type and a day of caching.
func serveBytes(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "public, max-age=86400")
		w.Write(body)
	}
}
