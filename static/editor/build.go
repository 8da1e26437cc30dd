//go:build ignore

// build bundles editor.js and its CodeMirror dependencies (installed by
// `npm ci` in this folder) into ../editor.bundle.js with esbuild's Go API.
// Run it with `go generate ./static`; the output is committed and CI checks
// that it is fresh.
package main

import (
	"fmt"
	"os"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{"editor/editor.js"},
		Bundle:            true,
		Format:            api.FormatESModule,
		Target:            api.ES2020,
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		LegalComments:     api.LegalCommentsEndOfFile,
		Outfile:           "editor.bundle.js",
		NodePaths:         []string{"editor/node_modules"},
		Write:             true,
		LogLevel:          api.LogLevelWarning,
	})
	if len(res.Errors) > 0 {
		fmt.Fprintln(os.Stderr, "editor bundle failed")
		os.Exit(1)
	}
}
