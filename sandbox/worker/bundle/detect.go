package bundle

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// assignsOutput finds an assignment to a free `output` (output = …,
// output.x = …, output[k] = …), not a declaration of a variable of that name.
var (
	assignsOutput  = regexp.MustCompile(`(^|[^.\w$])output\s*(=[^=]|\.[\w$]+\s*=[^=]|\[)`)
	declaresOutput = regexp.MustCompile(`\b(let|const|var|function|class)\s+output\b`)
	hasExport      = regexp.MustCompile(`(?m)^\s*export\b`)
	hasStatic      = regexp.MustCompile(`(?m)^\s*(import\s*[\w{*'"]|export\b)`) // an import or export statement
)

// Detect reports whether a run that names no mode is a script (agent code,
// pipe.ModeScript): a single file without import or export statements that
// calls require, assigns the output global, or returns at top level.
// esbuild parses the file to tell (its metafile says whether the file is an
// ES module, CommonJS — top-level return, module, exports — and lists its
// require calls); a file esbuild cannot parse is not a script (the module
// bundle reports its syntax error). It is safe for concurrent use.
func Detect(files []pipe.File, entry string) bool {
	if len(files) != 1 || files[0].Path != entry {
		return false
	}
	src := files[0].Source
	if !strings.Contains(src, "require") && !strings.Contains(src, "output") && !strings.Contains(src, "return") {
		return false // the common case costs no parse
	}
	loader := loaderFor(entry)
	if loader == api.LoaderJSON {
		return false
	}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{entry},
		Bundle:      true,
		Write:       false,
		Metafile:    true,
		Format:      api.FormatESModule,
		Platform:    api.PlatformNeutral,
		Supported:   supported,
		LogLevel:    api.LogLevelSilent,
		Outfile:     "detect.js",
		Plugins: []api.Plugin{{Name: "detect", Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				if args.Kind == api.ResolveEntryPoint {
					return api.OnResolveResult{Path: entry, Namespace: "detect"}, nil
				}
				return api.OnResolveResult{Path: args.Path, External: true}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "detect"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
				return api.OnLoadResult{Contents: &src, Loader: loader}, nil
			})
		}}},
	})
	if len(res.Errors) > 0 {
		// Top-level await makes esbuild read the file as an ES module,
		// where a top-level return is an error: a script that uses both.
		for _, m := range res.Errors {
			if !strings.Contains(m.Text, "Top-level return") {
				return false
			}
		}
		return !hasStatic.MatchString(src)
	}
	var meta struct {
		Inputs map[string]struct {
			Format  string `json:"format"`
			Imports []struct {
				Path string `json:"path"`
				Kind string `json:"kind"`
			} `json:"imports"`
		} `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return false
	}
	in, ok := meta.Inputs["detect:"+entry]
	if !ok {
		return false
	}
	for _, imp := range in.Imports {
		if imp.Path == "<runtime>" {
			continue // esbuild's own helpers
		}
		if imp.Kind == "import-statement" || imp.Kind == "dynamic-import" {
			return false
		}
	}
	if in.Format == "esm" && hasExport.MatchString(src) {
		return false // esm without an export: top-level await
	}
	if in.Format == "cjs" && topLevelReturn(src, loader) {
		return true // cjs is also a file that mentions module or exports
	}
	for _, imp := range in.Imports {
		if imp.Kind == "require-call" {
			return true
		}
	}
	return assignsOutput.MatchString(src) && !declaresOutput.MatchString(src)
}

// topLevelReturn reports whether src returns at top level: as an ES module
// (how the module mode bundles it) esbuild refuses exactly that.
func topLevelReturn(src string, loader api.Loader) bool {
	res := api.Transform(src+"\nexport {};", api.TransformOptions{Loader: loader, Format: api.FormatESModule, LogLevel: api.LogLevelSilent})
	for _, m := range res.Errors {
		if strings.Contains(m.Text, "Top-level return") {
			return true
		}
	}
	return false
}
