package web

import (
	"net/http"

	"github.com/a-h/templ"
)

// contentSecurityPolicy keeps the page to its own scripts and socket; the
// editor injects style elements, hence style-src 'unsafe-inline'.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	templ.Handler(Page(PageData{Title: "playground"})).ServeHTTP(w, r)
}

// handleWatch serves the watch window (WatchPage): the run and its token are
// in the URL's fragment, which browsers never send, so this page is the
// same for every run and reveals nothing.
func (s *Server) handleWatch(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	templ.Handler(WatchPage(PageData{Title: "playground: watching a run"})).ServeHTTP(w, r)
}
