//go:build ignore

// gen.go rebuilds url.js, the WHATWG URL and URLSearchParams of
// core-js-pure (package.json pins the version; its LICENSE is kept beside
// it), lowered for goja as libraries are (libs.EngineFeatures). Run from
// the repository root:
//
//	(cd sandbox/worker/js/webapi/thirdparty && npm install --no-save) && go run ./sandbox/worker/js/webapi/thirdparty/gen.go
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/playground-dev/playground/sandbox/libs"
)

const entry = `import URL from "core-js-pure/actual/url/index.js";
import URLSearchParams from "core-js-pure/actual/url-search-params/index.js";
export { URL, URLSearchParams };
`

func main() {
	dir := filepath.Join("sandbox", "worker", "js", "webapi", "thirdparty")
	res := api.Build(api.BuildOptions{
		Stdin:             &api.StdinOptions{Contents: entry, ResolveDir: dir},
		Bundle:            true,
		Format:            api.FormatIIFE,
		GlobalName:        "__url",
		Target:            libs.Target,
		Supported:         libs.EngineFeatures(),
		Platform:          api.PlatformNeutral,
		MinifySyntax:      true,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		LegalComments:     api.LegalCommentsNone,
		Write:             false,
	})
	if len(res.Errors) > 0 {
		fmt.Fprintln(os.Stderr, res.Errors[0].Text)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(dir, "url.js"), res.OutputFiles[0].Contents, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
