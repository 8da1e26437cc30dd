//go:build ignore

// gen bundles the npm packages of package.json (installed by `npm ci` in
// this folder) into dist/: one script per package that evaluates to the
// package's exports, its license, and manifest.json with each package's
// version and export names. The export names are read by evaluating each
// bundle in goja, which also proves the package runs there. Run it with
// `go generate ./sandbox/libs`; dist/ is committed and CI checks it is fresh.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/playground-dev/playground/sandbox/libs"
)

// Library is one entry of dist/manifest.json.
type Library struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	License string   `json:"license"`
	Exports []string `json:"exports"`
}

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "libs:", err)
		os.Exit(1)
	}
}

func run() error {
	dir := "." // go generate runs in sandbox/libs
	var pkg struct{ Dependencies map[string]string }
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return err
	}
	names := make([]string, 0, len(pkg.Dependencies))
	for n := range pkg.Dependencies {
		names = append(names, n)
	}
	slices.Sort(names)
	dist := filepath.Join(dir, "dist")
	if err := os.RemoveAll(dist); err != nil {
		return err
	}
	if err := os.MkdirAll(dist, 0o755); err != nil {
		return err
	}
	var manifest []Library
	for _, name := range names {
		lib, err := build(dir, dist, name)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		manifest = append(manifest, lib)
	}
	out, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dist, "manifest.json"), append(out, '\n'), 0o644)
}

func build(dir, dist, name string) (Library, error) {
	contents := "module.exports = require(" + strconvQuote(name) + ");"
	res := api.Build(api.BuildOptions{
		Stdin:             &api.StdinOptions{Contents: contents, ResolveDir: dir, Sourcefile: name + "-entry.js", Loader: api.LoaderJS},
		Bundle:            true,
		Format:            api.FormatIIFE,
		GlobalName:        "__library",
		Platform:          api.PlatformBrowser,
		Target:            libs.Target,
		Supported:         libs.EngineFeatures(),
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
		Define:            map[string]string{"process.env.NODE_ENV": `"production"`},
		Footer:            map[string]string{"js": "__library;"},
		NodePaths:         []string{filepath.Join(dir, "node_modules")},
		Write:             false,
		LogLevel:          api.LogLevelWarning,
	})
	if len(res.Errors) > 0 {
		return Library{}, fmt.Errorf("esbuild: %s", res.Errors[0].Text)
	}
	code := res.OutputFiles[0].Contents

	// Evaluate it in goja: it must run there, and its keys are the exports.
	vm := goja.New()
	v, err := vm.RunScript(name+".js", string(code))
	if err != nil {
		return Library{}, fmt.Errorf("goja: %w", err)
	}
	obj := v.ToObject(vm)
	var exports []string
	for _, k := range obj.Keys() {
		if k != "default" && k != "__esModule" && identifier.MatchString(k) {
			exports = append(exports, k)
		}
	}
	slices.Sort(exports)

	var meta struct{ Version, License string }
	mb, err := os.ReadFile(filepath.Join(dir, "node_modules", name, "package.json"))
	if err != nil {
		return Library{}, err
	}
	if err := json.Unmarshal(mb, &meta); err != nil {
		return Library{}, err
	}
	license, err := findLicense(filepath.Join(dir, "node_modules", name))
	if err != nil {
		return Library{}, err
	}
	header := fmt.Sprintf("// %s %s (%s), bundled for the playground by sandbox/libs/gen.go; license in %s.LICENSE\n", name, meta.Version, meta.License, name)
	if err := os.WriteFile(filepath.Join(dist, name+".js"), append([]byte(header), code...), 0o644); err != nil {
		return Library{}, err
	}
	if err := os.WriteFile(filepath.Join(dist, name+".LICENSE"), license, 0o644); err != nil {
		return Library{}, err
	}
	return Library{Name: name, Version: meta.Version, License: meta.License, Exports: exports}, nil
}

func findLicense(pkgDir string) ([]byte, error) {
	entries, err := os.ReadDir(pkgDir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if n := strings.ToUpper(e.Name()); strings.HasPrefix(n, "LICENSE") || strings.HasPrefix(n, "LICENCE") {
			return os.ReadFile(filepath.Join(pkgDir, e.Name()))
		}
	}
	return nil, fmt.Errorf("no license file in %s", pkgDir)
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
