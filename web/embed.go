package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
)

// embedCSP is the embed page's policy: the page's own policy, except that
// frame-ancestors lists who may frame it (filled in by frameAncestors).
const embedCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors %s"

// frameAncestors builds the CSP frame-ancestors source list from the
// configured embedding origins: 'self' and each valid origin
// (scheme://host[:port], the host may start with "*."), or * for "*".
// It returns the entries it rejected so NewServer can log them.
func frameAncestors(origins []string) (list string, rejected []string) {
	parts := []string{"'self'"}
	for _, o := range origins {
		if o == "*" {
			return "*", rejected
		}
		if err := checkOrigin(o); err != nil {
			rejected = append(rejected, fmt.Sprintf("%q: %v", o, err))
			continue
		}
		parts = append(parts, strings.TrimSuffix(o, "/"))
	}
	return strings.Join(parts, " "), rejected
}

// checkOrigin accepts scheme://host[:port] with scheme http or https; no
// path, query, user or characters a CSP source list would misread.
func checkOrigin(o string) error {
	if strings.ContainsAny(o, " ;,'\"\t\r\n") {
		return fmt.Errorf("an origin has no spaces, quotes, commas or semicolons")
	}
	u, err := url.Parse(strings.Replace(o, "://*.", "://wildcard.", 1))
	if err != nil {
		return err
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("scheme must be http or https")
	case u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("want scheme://host[:port] and nothing more")
	}
	return nil
}

// handleEmbed serves the embed page. ?theme=light|dark picks its colours
// (anything else follows the system); the rest of its options are read by
// the page's script.
func (s *Server) handleEmbed(w http.ResponseWriter, r *http.Request) {
	theme := r.URL.Query().Get("theme")
	if theme != "light" && theme != "dark" {
		theme = ""
	}
	w.Header().Set("Content-Security-Policy", fmt.Sprintf(embedCSP, s.frameAncestors))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	templ.Handler(Embed(EmbedData{Theme: theme})).ServeHTTP(w, r)
}
