// Package static holds the browser assets, embedded in the binary: the
// page's app (app.js, app.css, examples.js) and the CodeMirror bundle
// (editor.bundle.js), which `go generate ./static` rebuilds from
// editor/editor.js with esbuild's Go API.
package static

import (
	"embed"
	"io/fs"
)

//go:generate go run ./editor/build.go

//go:embed *.js *.css app/*.js
var files embed.FS

// FS returns the embedded assets.
func FS() fs.FS { return files }
