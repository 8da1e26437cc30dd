package libs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// loadDir adds every ESM bundle in dir: <dir>/<name>.js (or .mjs;
// <dir>/@scope/<name>.js for a scoped name) becomes importable as <name>.
// Each file must be self-contained (no imports); a name that shadows a
// vendored library is an error. The files are trusted operator input,
// converted with esbuild once per process (the server and each worker).
func (r *Set) loadDir(dir string) error {
	if dir == "" {
		return nil
	}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(path)
		if ext != ".js" && ext != ".mjs" {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(strings.TrimSuffix(rel, ext))
		if _, ok := r.libs[name]; ok {
			return fmt.Errorf("%s: %q is already a library", path, name)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lib, script, err := convertESM(name, string(src))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		r.libs[name], r.operator[name] = lib, script
		return nil
	})
	if err != nil {
		return fmt.Errorf("load libraries: %w", err)
	}
	return nil
}

// convertESM turns an ESM bundle into a script that evaluates to its
// exports, and reads its export names from esbuild's metafile.
func convertESM(name, src string) (Library, string, error) {
	opts := func(format api.Format) api.BuildOptions {
		return api.BuildOptions{
			Stdin:     &api.StdinOptions{Contents: src, Sourcefile: name + ".js", Loader: api.LoaderJS},
			Bundle:    true,
			Format:    format,
			Target:    Target,
			Supported: EngineFeatures(),
			Metafile:  true,
			Outfile:   "lib.js",
			LogLevel:  api.LogLevelSilent,
			Plugins: []api.Plugin{{Name: "no-imports", Setup: func(b api.PluginBuild) {
				b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
					return api.OnResolveResult{}, fmt.Errorf("imports %q: an operator library must be a self-contained bundle", args.Path)
				})
			}}},
		}
	}
	esm := api.Build(opts(api.FormatESModule))
	if len(esm.Errors) > 0 {
		return Library{}, "", fmt.Errorf("esbuild: %s", esm.Errors[0].Text)
	}
	exports, err := metafileExports(esm.Metafile)
	if err != nil {
		return Library{}, "", err
	}
	o := opts(api.FormatIIFE)
	o.GlobalName = "__library"
	o.Footer = map[string]string{"js": "__library;"}
	o.Metafile = false
	iife := api.Build(o)
	if len(iife.Errors) > 0 {
		return Library{}, "", fmt.Errorf("esbuild: %s", iife.Errors[0].Text)
	}
	lib := Library{Name: name, Version: "operator", License: "see the operator", Exports: exports}
	return lib, string(iife.OutputFiles[0].Contents), nil
}

func metafileExports(meta string) ([]string, error) {
	var m struct {
		Outputs map[string]struct {
			Exports []string `json:"exports"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(meta), &m); err != nil {
		return nil, err
	}
	var out []string
	for _, o := range m.Outputs {
		for _, e := range o.Exports {
			if e != "default" && identifier.MatchString(e) {
				out = append(out, e)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// identifier matches the export names the facade can re-export by name (a
// JavaScript IdentifierName, approximately: letters, digits, _ and $).
var identifier = regexp.MustCompile(`^[\p{L}_$][\p{L}\p{N}_$]*$`)
