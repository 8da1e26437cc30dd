//go:build ignore

// gen bundles the npm packages of package.json (installed by `npm ci` in
// this folder) into dist/: one script per package that evaluates to the
// package's exports, its license, and manifest.json with each package's
// version and export names. The export names are read by evaluating each
// bundle in goja, which also proves the package runs there. Run it with
// `go generate ./sandbox/libs`; dist/ is committed and CI checks it is fresh.
package main

import (
	"bytes"
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

// esmEntries overrides the module whose ESM source a package's named
// imports are tree-shaken from (libs.ESMSource). A package absent here
// uses its own name; one whose entry is not ES modules gets no ESM source
// (lodash, papaparse, jstat: CommonJS). validator publishes ES modules
// only as a default export, so a generated entry re-exports each function
// module by name (validatorEntry).
var esmEntries = map[string]func(dir string, exports []string) (string, error){
	"validator": validatorEntry,
	"lodash":    func(string, []string) (string, error) { return `export * from "lodash-es";`, nil },
	"date-fns/locale": func(dir string, exports []string) (string, error) {
		return subpathEntry(dir, "date-fns/locale", exports)
	},
}

// sourceOnly are packages of package.json that are not importable
// themselves: only the ES module source of another (lodash-es is lodash's,
// the same code and version as ES modules).
var sourceOnly = map[string]string{"lodash-es": "lodash"}

// defaultIsExports are the packages whose default export (or CommonJS
// exports) is an object of their named exports, so that `_.name` is the
// named export `name` (libs.ESMSource.DefaultIsExports).
var defaultIsExports = map[string]bool{"lodash": true, "validator": true}

// wholeFor lists names that need a package's whole evaluation
// (libs.ESMSource.Whole): lodash's chain (and a call of _ itself, which
// the usage scan counts as whole) wraps a value whose methods are read by
// name from the full lodash object; mixin and runInContext change or copy
// it; template compiles code that reads any method of _ by a name the
// program does not spell (<% _.forEach(xs, …) %>). A chain used to get a
// chunk of lodash-es's lodash.default.js cut to the methods the run
// spells: 18–24 ms of esbuild and compiling for each new set of methods
// (every agent's run) against 12 ms of compiling the whole library once
// per worker and 2–3 ms of evaluating it per run (docs/benchmarks.md,
// "Libraries: cold and warm").
// namespaceExports names a package's named export that is an object of
// its other named exports (zod's z: z.object is object), so `z.name` is
// read as the named export name (libs.ESMSource.Namespace).
var namespaceExports = map[string]string{"zod": "z"}

var wholeFor = map[string][]string{"lodash": {"chain", "mixin", "runInContext", "template", "templateSettings"}}

// sectionScripts are CommonJS packages with no ES modules whose script is
// a core followed by sections that each add methods to the core object:
// jstat's dist/jstat.js (core, vector, special functions, distributions,
// linear algebra, tests, models). gen.go cuts it into a libs.ESMWrapper
// (sections) so that a run evaluates the sections whose names it uses,
// plus the sections those need (sectionNeeds): statistics on arrays skip
// the distributions, most of the evaluation time.
var sectionScripts = map[string]string{"jstat": "jstat/dist/jstat.js"}

// sectionNeeds lists, per section (by index; the first three, core,
// vector and special functions, are always kept), the other sections its
// functions call: the tests call distributions (jStat.normal), the models
// the tests, distributions and linear algebra. sections checks it against
// the script's text.
var sectionNeeds = map[string]map[int][]int{"jstat": {5: {3}, 6: {3, 4, 5}}}

// sectionBase is how many leading sections are always kept.
const sectionBase = 3

// lighterEntries are entry points that export a subset of a package's
// names and evaluate in a fraction of the time: mathjs/number is mathjs
// for plain JavaScript numbers (no BigNumber, Fraction, Complex, Unit or
// Matrix types). A snippet gets the lighter entry only when every name it
// uses is in lighterSame.
var lighterEntries = map[string]string{
	"mathjs": "mathjs/number",
}

// lighterSame lists, per library, the names whose results from the lighter
// entry equal the full library's, checked with Node over numbers, arrays,
// nested arrays, strings, booleans, null and NaN (testdata/lighter.mjs, run
// by TestLighterEntryMatchesFullLibrary). Left out: names
// whose full-library result is a Complex, Matrix or Unit (mathjs's
// sqrt(-4) is 2i, mathjs/number's NaN; xgcd returns a Matrix) and names
// mathjs applies element-wise to arrays that mathjs/number refuses
// (larger, gcd, isInteger, ...). Four element-wise names are in anyway,
// because agent code rounds its statistics and a name outside this list
// costs the snippet the full library (seconds in goja): mean, round, abs
// and floor/ceil give the same numbers, but mathjs/number throws a
// TypeError for an array argument (round([1.5])) or a dimension
// (mean(A, 0)), where mathjs maps over it.
var lighterSame = map[string][]string{
	"mathjs": {
		"mean", "median", "std", "variance", "min", "max", "sum", "prod", "mode", "mad", "quantileSeq",
		"round", "abs", "floor", "ceil",
		"exp", "expm1", "cube", "square", "hypot", "sin", "cos", "tan", "atan", "sinh", "cosh", "tanh", "asinh",
		"factorial", "gamma", "combinations", "permutations", "isPrime", "isNumber", "isNumeric", "deepEqual",
		"pi", "e", "tau", "phi", "format", "random", "randomInt", "pickRandom",
	},
}

// Library is one entry of dist/manifest.json.
type Library struct {
	Name     string            `json:"name"`
	Version  string            `json:"version"`
	License  string            `json:"license"`
	Exports  []string          `json:"exports"`
	Subpaths map[string]string `json:"subpaths,omitempty"`
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
		if _, ok := sourceOnly[n]; !ok {
			names = append(names, n)
		}
	}
	for n, of := range subpathLibraries {
		if _, ok := pkg.Dependencies[of]; !ok {
			return fmt.Errorf("%s: its package %s is not in package.json", n, of)
		}
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
		Metafile:          true,
		LogLevel:          api.LogLevelWarning,
	})
	if len(res.Errors) > 0 {
		return Library{}, fmt.Errorf("esbuild: %s", res.Errors[0].Text)
	}
	code := hexTable(globalThisLookup(res.OutputFiles[0].Contents))
	pkg := packageOf(name) // the package whose package.json and license it has
	deps, err := bundledPackages(res.Metafile, pkg)
	if err != nil {
		return Library{}, err
	}

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
	mb, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
	if err != nil {
		return Library{}, err
	}
	if err := json.Unmarshal(mb, &meta); err != nil {
		return Library{}, err
	}
	license, err := findLicense(filepath.Join(dir, "node_modules", pkg))
	if err != nil {
		return Library{}, err
	}
	for src, of := range sourceOnly { // its ES module source's license
		if of == name {
			deps = append(deps, src)
		}
	}
	for _, d := range deps { // the licenses of the packages bundled with it
		l, err := findLicense(filepath.Join(dir, "node_modules", d))
		if err != nil {
			// No license file published: name the license its package.json declares.
			var dm struct {
				Version, License string
				Author           json.RawMessage
			}
			b, rerr := os.ReadFile(filepath.Join(dir, "node_modules", d, "package.json"))
			if rerr != nil || json.Unmarshal(b, &dm) != nil || dm.License == "" {
				return Library{}, err
			}
			l = fmt.Appendf(nil, "%s %s publishes no license file; its package.json declares the %s license (author %s).\n", d, dm.Version, dm.License, dm.Author)
		}
		license = fmt.Appendf(license, "\n---\n%s (bundled with %s):\n\n%s", d, name, l)
	}
	file := libs.DistName(name)
	header := fmt.Sprintf("// %s %s (%s), bundled for the playground by sandbox/libs/gen.go; license in %s.LICENSE\n", name, meta.Version, meta.License, file)
	if err := os.WriteFile(filepath.Join(dist, file+".js"), append([]byte(header), code...), 0o644); err != nil {
		return Library{}, err
	}
	if err := os.WriteFile(filepath.Join(dist, file+".LICENSE"), license, 0o644); err != nil {
		return Library{}, err
	}
	if err := buildESM(dir, dist, name, exports); err != nil {
		return Library{}, fmt.Errorf("esm source: %w", err)
	}
	lib := Library{Name: name, Version: meta.Version, License: meta.License, Exports: exports}
	if _, ok := subpathLibraries[name]; ok {
		if lib.Subpaths, err = subpathMembers(dir, name, exports); err != nil {
			return Library{}, err
		}
	}
	return lib, nil
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

// buildESM writes dist/<name>.esm.json (libs.ESMSource): every module the
// package's ESM entry reaches, syntax-minified one by one (module boundaries,
// import/export and /* @__PURE__ */ annotations kept, so a worker's esbuild
// can still tree-shake them), how each import resolves, and which modules
// are free of side effects (their package.json says "sideEffects": false).
func buildESM(dir, dist, name string, exports []string) error {
	entry := "export * from " + strconvQuote(name) + ";"
	if f, ok := esmEntries[name]; ok {
		var err error
		if entry, err = f(dir, exports); err != nil {
			return err
		}
	}
	src := libs.ESMSource{Files: map[string]string{}, Resolve: map[string]map[string]string{}}
	if script, ok := sectionScripts[name]; ok {
		w, err := sections(dir, script, sectionNeeds[name])
		if err != nil {
			return err
		}
		src.Exports, src.DefaultIsExports, src.Namespace, src.Wrapper = exports, true, name2namespace(exports), w
		return writeESM(dist, name, &src)
	}
	mainInputs, err := collectESM(dir, entry, &src)
	if err != nil || mainInputs == nil {
		return err // nil, nil: not ES modules
	}
	src.Entry = entry
	src.Exports, err = src.EntryExports(libs.ESMEntry)
	if err != nil {
		return err
	}
	src.DefaultIsExports, src.Whole, src.Namespace = defaultIsExports[name], wholeFor[name], namespaceExports[name]
	if lighter, ok := lighterEntries[name]; ok {
		le := "export * from " + strconvQuote(lighter) + ";"
		if _, err := collectESM(dir, le, &src); err != nil {
			return err
		}
		src.Lighter = le
		exported, err := src.EntryExports(libs.ESMLighter)
		if err != nil {
			return err
		}
		for _, n := range lighterSame[name] {
			if !slices.Contains(exported, n) {
				return fmt.Errorf("%s: lighterSame names %q, which %s does not export", name, n, lighter)
			}
		}
		src.LighterExports = slices.Sorted(slices.Values(lighterSame[name]))
	}
	if entry, ok := instanceEntries[name]; ok {
		if src.Instance, err = src.InstanceScript(entry); err != nil {
			return fmt.Errorf("%s: the instance: %w", name, err)
		}
		if src.InstanceNames, err = instanceNames(src.Instance, src.Exports, notFromInstance[name]); err != nil {
			return fmt.Errorf("%s: the instance: %w", name, err)
		}
	}
	return writeESM(dist, name, &src)
}

// instanceEntries are modules whose default export is an instance of a
// package that makes its members on first read (libs.ESMSource.Instance):
// mathjs's create(all) registers every factory and makes a function when
// a program first reads it, and what it reaches then. Importing
// `evaluate` from mathjs's entry made every function of mathjs at once
// (2–5 s in goja); evaluating `sqrt(3^2 + 4^2)` from an instance makes
// the parser and the few functions the expression names (docs/benchmarks.md,
// "mathjs from a lazy instance").
var instanceEntries = map[string]string{
	"mathjs": "import { create, all } from " + strconvQuote(libs.ESMEntry) + ";\nexport default create(all);\n",
}

// notFromInstance are exports that are members of the instance but not
// the same thing as the package's export: mathjs's config and create
// change or copy the instance they are called on (the package's config is
// read-only), factory and typed are the instance's own.
var notFromInstance = map[string][]string{
	"mathjs": {"config", "create", "factory", "typed"},
}

// instanceNames evaluates script (an Instance) in goja and returns the
// exports that are members of the instance, less excluded, sorted.
// Reading `name in instance` makes nothing.
func instanceNames(script string, exports, excluded []string) ([]string, error) {
	vm := goja.New()
	m, err := vm.RunString(script)
	if err != nil {
		return nil, err
	}
	in, err := vm.RunString("(m, n) => n in m")
	if err != nil {
		return nil, err
	}
	has, _ := goja.AssertFunction(in)
	var out []string
	for _, n := range exports {
		if slices.Contains(excluded, n) {
			continue
		}
		v, err := has(goja.Undefined(), m, vm.ToValue(n))
		if err != nil {
			return nil, err
		}
		if v.ToBoolean() {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no export is a member of the instance")
	}
	return out, nil
}

func writeESM(dist, name string, src *libs.ESMSource) error {
	out, err := json.Marshal(src)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dist, libs.DistName(name)+".esm.json"), append(out, '\n'), 0o644)
}

// name2namespace is the named export of a sectioned package that is the
// callable object itself (jstat's jStat, exported as jStat.jStat).
func name2namespace(exports []string) string {
	if slices.Contains(exports, "jStat") {
		return "jStat"
	}
	return ""
}

// collectESM bundles entry with a metafile and adds every input module to
// src. It returns nil when the entry's own module is not an ES module.
func collectESM(dir, entry string, src *libs.ESMSource) ([]string, error) {
	res := api.Build(api.BuildOptions{
		Stdin:     &api.StdinOptions{Contents: entry, ResolveDir: dir, Sourcefile: "<stdin>", Loader: api.LoaderJS},
		Bundle:    true,
		Metafile:  true,
		Write:     false,
		Outfile:   "out.js",
		Format:    api.FormatESModule,
		Platform:  api.PlatformBrowser,
		Target:    libs.Target,
		Supported: libs.EngineFeatures(),
		NodePaths: []string{filepath.Join(dir, "node_modules")},
		LogLevel:  api.LogLevelWarning,
	})
	if len(res.Errors) > 0 {
		return nil, fmt.Errorf("esbuild: %s", res.Errors[0].Text)
	}
	var meta struct {
		Inputs map[string]struct {
			Format  string `json:"format"`
			Imports []struct {
				Path     string `json:"path"`
				Original string `json:"original"`
				External bool   `json:"external"`
			} `json:"imports"`
		} `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return nil, err
	}
	stdin := meta.Inputs["<stdin>"]
	for _, imp := range stdin.Imports {
		if meta.Inputs[imp.Path].Format != "esm" {
			return nil, nil
		}
	}
	var paths []string
	for p, in := range meta.Inputs {
		from := trimModules(p)
		for _, imp := range in.Imports {
			if imp.External || imp.Path == "<runtime>" {
				continue
			}
			if src.Resolve[from] == nil {
				src.Resolve[from] = map[string]string{}
			}
			src.Resolve[from][imp.Original] = trimModules(imp.Path)
		}
		if p == "<stdin>" {
			continue
		}
		paths = append(paths, p)
		if _, ok := src.Files[from]; ok {
			continue
		}
		if strings.HasPrefix(p, "(disabled):") {
			src.Files[from] = "" // a browser field's false: an empty module, as esbuild makes it
			continue
		}
		code, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".mjs") || strings.HasSuffix(p, ".cjs") {
			t := api.Transform(string(code), api.TransformOptions{
				Loader: api.LoaderJS, Target: libs.Target, Supported: libs.EngineFeatures(),
				// MinifyWhitespace would drop the /* @__PURE__ */ annotations tree shaking needs.
				MinifySyntax: true, LegalComments: api.LegalCommentsNone, Charset: api.CharsetUTF8,
				Define: map[string]string{"process.env.NODE_ENV": `"production"`}, LogLevel: api.LogLevelWarning,
			})
			if len(t.Errors) > 0 {
				return nil, fmt.Errorf("%s: %s", p, t.Errors[0].Text)
			}
			code = hexTable(globalThisLookup(t.Code))
		}
		src.Files[from] = string(code)
		if pure, err := sideEffectFree(dir, p); err != nil {
			return nil, err
		} else if pure {
			src.Pure = append(src.Pure, from)
		}
	}
	slices.Sort(src.Pure)
	src.Pure = slices.Compact(src.Pure)
	return paths, nil
}

// sideEffectFree reports whether the package.json nearest to file (below
// node_modules) says "sideEffects": false.
func sideEffectFree(dir, file string) (bool, error) {
	for d := filepath.Dir(file); strings.HasPrefix(d, "node_modules/"); d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(dir, d, "package.json"))
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			return false, err
		}
		var pkg map[string]json.RawMessage
		if err := json.Unmarshal(b, &pkg); err != nil {
			return false, fmt.Errorf("%s/package.json: %w", d, err)
		}
		if se, ok := pkg["sideEffects"]; ok {
			return string(se) == "false", nil
		}
		if _, ok := pkg["name"]; ok {
			return false, nil
		}
	}
	return false, nil
}

// globalThisLookup replaces the global object lookup `Function("return
// this")()` (lodash's root; esbuild's minifier writes it with double
// quotes) with globalThis, the same object: a function made by the Function
// constructor is sloppy, so its this is the global object. goja parses and
// compiles the body on every call of the constructor; in each run that
// imports lodash that was ≈40 µs, 8% of a `_.chunk` run.
func globalThisLookup(code []byte) []byte {
	return bytes.ReplaceAll(code, []byte(`Function("return this")()`), []byte("globalThis"))
}

// byteToHexLoop is uuid's table of the 256 two-digit hex strings, built by
// a loop in every runtime that imports uuid (stringify.js:
// `for (let i = 0; i < 256; ++i) byteToHex.push((i + 256).toString(16).slice(1));`),
// in its ES module and its minified form.
var byteToHexLoop = regexp.MustCompile(`for\s*\(let (\w+)\s*=\s*0;\s*(\w+)\s*<\s*256;\s*\+\+(\w+)\)\s*(\w+)\.push\(\((\w+)\s*\+\s*256\)\.toString\(16\)\.slice\(1\)\);?`)

// hexTable writes that table out: one push of the 256 strings, the same
// array in the same order. goja ran the loop in ≈120 µs per run (a quarter
// of a uuid v4 run's worker time); the push takes a few µs.
func hexTable(code []byte) []byte {
	return byteToHexLoop.ReplaceAllFunc(code, func(m []byte) []byte {
		g := byteToHexLoop.FindSubmatch(m)
		if i := string(g[1]); string(g[2]) != i || string(g[3]) != i || string(g[5]) != i {
			return m // not the loop: its counter differs
		}
		var b bytes.Buffer
		b.Write(g[4])
		b.WriteString(".push(")
		for i := range 256 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%02x"`, i)
		}
		b.WriteString(");")
		return b.Bytes()
	})
}

func trimModules(p string) string { return strings.TrimPrefix(p, "node_modules/") }

// validatorEntry re-exports each validator function module (es/lib/<name>.js)
// with a default export under the name validator's default export gives it;
// the other names come from the whole package (the facade falls back).
func validatorEntry(dir string, exports []string) (string, error) {
	var b strings.Builder
	for _, e := range exports {
		code, err := os.ReadFile(filepath.Join(dir, "node_modules/validator/es/lib", e+".js"))
		if err == nil && bytes.Contains(code, []byte("export default")) {
			fmt.Fprintf(&b, "export { default as %s } from %s;\n", e, strconvQuote("validator/es/lib/"+e+".js"))
		}
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("validator: no es/lib modules for its exports")
	}
	return b.String(), nil
}

// bundledPackages lists the packages other than name whose modules the
// build's metafile names, sorted.
func bundledPackages(metafile, name string) ([]string, error) {
	var meta struct {
		Inputs map[string]json.RawMessage `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(metafile), &meta); err != nil {
		return nil, err
	}
	var out []string
	for p := range meta.Inputs {
		rest, ok := strings.CutPrefix(p, "node_modules/")
		if !ok {
			continue
		}
		parts := strings.SplitN(rest, "/", 3)
		pkg := parts[0]
		if strings.HasPrefix(pkg, "@") && len(parts) > 1 {
			pkg += "/" + parts[1]
		}
		if pkg != name && !slices.Contains(out, pkg) {
			out = append(out, pkg)
		}
	}
	slices.Sort(out)
	return out, nil
}
