// Package bundle turns a run's files into one script with esbuild's Go API,
// in memory: every import resolves to a file of the run, the "playground"
// runtime module or an allowed library (sandbox/libs); anything else is an
// error that names what may be imported. It runs in the worker process
// only: esbuild has no nesting limit and deeply nested source overflows the
// Go stack, a fatal error that must cost a worker, never the server.
// contract.go holds the names the bundle and the runtime agree on.
package bundle

import (
	"fmt"
	"maps"
	"path"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
)

// Namespaces of the esbuild plugin that serves every module from memory
// (FileNamespace, for the run's files, is in contract.go).
const (
	nsRuntime = libs.RuntimeModule // the "playground" module
	nsEntry   = "entry"            // the generated entry that imports the user's entry
	nsLibrary = "library"          // an allowlisted npm package
	nsRequire = "require"          // an allowlisted npm package, required (script mode)
	nsSubpath = "subpath"          // one export of a package's subpath (libs.Set.Subpath): lodash/groupBy
	nsSubReq  = "subpath-require"  // the same, required
	entryName = "entry"
)

// runtimeModuleSource is the "playground" module: it re-exports what the
// runtime passes into the bundle function.
const runtimeModuleSource = `export const facts = ` + RuntimeParam + `.` + FieldFacts + `;
export const input = ` + RuntimeParam + `.` + FieldInput + `;
export const host = ` + RuntimeParam + `.` + FieldHost + `;
`

// supported is esbuild's feature table for snippets: the engine's
// (libs.EngineFeatures), plus top-level await, which runs because the bundle
// is an async function (Banner).
var supported = func() map[string]bool {
	m := libs.EngineFeatures()
	m["top-level-await"] = true
	m["import-meta"] = false // what rewriteModuleMeta leaves becomes an empty object
	return m
}()

// hostAliases renames require before esbuild sees it: esbuild would
// otherwise replace it with its own __require shim, and `typeof require`
// would not be "undefined" as in a browser. Using it is then a
// ReferenceError that securityError reports under its real name. (module
// and exports need no alias: every snippet file is an ES module, see the
// file loader.)
var hostAliases = map[string]string{
	"require": AliasPrefix + "require",
}

// extensions are the file extensions a snippet may use, in the order an
// extensionless import tries them.
var extensions = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".json"}

// Result is the result of bundling: JavaScript with an inline source map,
// or the diagnostics that stopped it.
type Result struct {
	Code   string
	Errors []pipe.Error
	// Libraries are the libraries the bundle imports, sorted.
	Libraries []string
	// Uses says, for each of Libraries in order, what the bundle
	// evaluates of it: the whole library, or a chunk of some names.
	Uses []LibraryUse
	// Mode is the mode the bundle was built for: the requested one, or the
	// detected one (Detect) when none was.
	Mode string
}

// Bundle builds files into one script. It never touches the filesystem:
// every import resolves to a file of the request, the runtime module, or an
// error naming what may be imported. It is safe for concurrent use.
//
// esbuild's parser has no nesting limit; deeply nested input overflows the Go
// stack, which is fatal. Callers run bundle only where that costs a worker.
func Bundle(files []pipe.File, entry string, set *libs.Set) Result {
	return BundleMode(files, entry, pipe.ModeModule, set)
}

// BundleMode is Bundle for a mode: pipe.ModeModule, pipe.ModeScript (the
// entry is a script body, see ScriptPrefix), or "" to detect it (Detect).
// Any other mode is an INVALID_REQUEST error.
func BundleMode(files []pipe.File, entry, mode string, set *libs.Set) Result {
	byPath := make(map[string]string, len(files))
	for _, f := range files {
		byPath[f.Path] = f.Source
	}
	if _, ok := byPath[entry]; !ok {
		return Result{Errors: []pipe.Error{{Kind: pipe.KindInvalidRequest, Message: fmt.Sprintf("entry %q is not one of the files", entry)}}}
	}
	switch mode {
	case "":
		mode = pipe.ModeModule
		if Detect(files, entry) {
			mode = pipe.ModeScript
		}
	case pipe.ModeModule, pipe.ModeScript:
	default:
		return Result{Errors: []pipe.Error{{Kind: pipe.KindInvalidRequest, Message: fmt.Sprintf("invalid run: mode %q; want %q or %q", mode, pipe.ModeModule, pipe.ModeScript)}}}
	}
	define, format, banner, footer := hostAliases, api.FormatESModule, Banner, Footer
	if mode == pipe.ModeScript {
		// require is the script's: esbuild resolves require("name") of a
		// string literal through the plugin and leaves any other call to
		// the runtime's global require. CommonJS, so that esbuild lets the
		// script be sloppy (ScriptBanner).
		define, format, banner, footer = nil, api.FormatCommonJS, ScriptBanner, ScriptFooter
	}
	used := &usedLibraries{m: map[string]bool{}}
	usage := libraryUsage(files, set)
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{entryName},
		Bundle:      true,
		Write:       false,
		Format:      format,
		Platform:    api.PlatformNeutral,
		Target:      libs.Target,
		Supported:   supported,
		Define:      define,
		Sourcemap:   api.SourceMapInline,
		// The map must let errors point into the user's files; their text is already there.
		SourcesContent: api.SourcesContentExclude,
		Banner:         map[string]string{"js": banner},
		Footer:         map[string]string{"js": footer},
		LogLevel:       api.LogLevelSilent,
		Charset:        api.CharsetUTF8,
		LegalComments:  api.LegalCommentsNone,
		TreeShaking:    api.TreeShakingFalse, // a snippet's unused code still runs its side effects as written
		// Bundling makes a top-level class a class expression, and one that
		// refers to itself is renamed (var Self = class _Self): its name, and
		// every instance's preview, would read _Self. esbuild's keepNames
		// sets the names as written.
		KeepNames: true,
		Outfile:   "bundle.js",
		Plugins:   []api.Plugin{memoryPlugin(byPath, entry, mode, set, used, usage)},
	})
	if len(res.Errors) > 0 {
		errs := diagnostics(res.Errors)
		if mode == pipe.ModeScript {
			for i := range errs {
				if errs[i].File == entry && errs[i].Line == 1 && errs[i].Column > len(ScriptPrefix) {
					errs[i].Column -= len(ScriptPrefix)
					errs[i].Stack = fmt.Sprintf("%s:%d:%d", errs[i].File, errs[i].Line, errs[i].Column)
				}
			}
		}
		return Result{Errors: errs, Mode: mode}
	}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			names := used.sorted()
			uses := make([]LibraryUse, len(names))
			for i, n := range names {
				uses[i] = LibraryUse{Name: n, Names: usage[n]}
			}
			return Result{Code: string(f.Contents), Libraries: names, Uses: uses, Mode: mode}
		}
	}
	return Result{Errors: []pipe.Error{{Kind: pipe.KindInternal, Message: "esbuild produced no JavaScript"}}}
}

// LibraryUse is what a bundle evaluates of one library (FieldLib): Names
// nil for the whole library, else the chunk of just those exports, sorted
// (LibraryChunk).
type LibraryUse struct {
	Name  string
	Names []string
}

// String is the use as a cache key part: "name" or "name(a,b)".
func (u LibraryUse) String() string {
	if u.Names == nil {
		return u.Name
	}
	return u.Name + "(" + strings.Join(u.Names, ",") + ")"
}

// usedLibraries collects the libraries a bundle imports; esbuild may
// resolve concurrently.
type usedLibraries struct {
	mu sync.Mutex
	m  map[string]bool
}

func (u *usedLibraries) add(name string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.m[name] = true
}

func (u *usedLibraries) sorted() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make([]string, 0, len(u.m))
	for n := range u.m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func memoryPlugin(files map[string]string, entry, mode string, set *libs.Set, used *usedLibraries, usage map[string][]string) api.Plugin {
	return api.Plugin{
		Name: "playground",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				r := resolve(files, entry, set, args)
				if mode == pipe.ModeScript && args.Kind == api.ResolveEntryPoint {
					// The script is the entry point: no module wrapper
					// (ScriptFooter calls it).
					r = api.OnResolveResult{Path: entry, Namespace: FileNamespace}
				}
				if mode == pipe.ModeScript {
					r = refuseAsScript(r, set, args)
				}
				if r.Namespace == nsLibrary && args.Kind == api.ResolveJSRequireCall {
					r.Namespace = nsRequire
				}
				switch r.Namespace {
				case nsLibrary, nsRequire:
					used.add(r.Path)
				case nsSubReq: // its module calls lib itself (nsSubpath imports the library)
					m, _ := set.Subpath(r.Path)
					used.add(m.Lib)
				}
				return r, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsEntry}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
				src := "import * as entry from " + jsString(entry) + ";\n" +
					"if (\"default\" in entry) " + RuntimeParam + "." + FieldDone + "(await entry.default);\n"
				return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsLibrary}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				l, _ := set.Lookup(args.Path)
				src := libraryFacade(l, usage[args.Path])
				return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsRequire}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				// CommonJS interop: require returns the library's exports
				// object itself (lodash's callable _), not a namespace.
				src := "module.exports = " + libCall(args.Path, usage[args.Path]) + ";\n"
				return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsSubpath}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				// lodash/groupBy: that export as the module's default (and
				// named), read from the library's chunk.
				m, _ := set.Subpath(args.Path)
				src := "export { " + m.Export + " as default, " + m.Export + " } from " + jsString(m.Lib) + ";\n"
				return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsSubReq}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				// As in Node: require('lodash/groupBy') is the function,
				// require('date-fns/addDays') { addDays },
				// require('validator/lib/isEmail') the function with
				// itself as default.
				m, _ := set.Subpath(args.Path)
				f := libCall(m.Lib, usage[m.Lib]) + "[" + jsString(m.Export) + "]"
				switch m.Required {
				case libs.RequireObject:
					f = "{ " + jsString(m.Export) + ": " + f + " }"
				case libs.RequireSelfDefault:
					f = "((f) => (f.default = f, f))(" + f + ")"
				}
				src := "module.exports = " + f + ";\n"
				return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsRuntime}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
				src := runtimeModuleSource
				return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: FileNamespace}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				src := files[args.Path]
				loader := loaderFor(args.Path)
				if mode == pipe.ModeScript && args.Path == entry && loader != api.LoaderJSON {
					// A script is a function body (top-level return and
					// await); line numbers are kept, see ScriptPrefix.
					src = ScriptPrefix + rewriteModuleMeta(src, args.Path) + ScriptSuffix
					return api.OnLoadResult{Contents: &src, Loader: loader}, nil
				}
				if loader != api.LoaderJSON {
					src = rewriteModuleMeta(src, args.Path)
					// Every snippet file is an ES module, as in a browser: a file
					// that mentions module or exports is not wrapped as CommonJS.
					// Appended last, it moves no line or column.
					src += "\nexport {};"
				}
				return api.OnLoadResult{Contents: &src, Loader: loader}, nil
			})
		},
	}
}

func resolve(files map[string]string, entry string, set *libs.Set, args api.OnResolveArgs) api.OnResolveResult {
	verb := "import"
	if args.Kind == api.ResolveJSRequireCall {
		verb = "require"
	}
	switch {
	case args.Kind == api.ResolveEntryPoint:
		return api.OnResolveResult{Path: entryName, Namespace: nsEntry}
	case args.Namespace == nsEntry:
		return api.OnResolveResult{Path: entry, Namespace: FileNamespace}
	case args.Path == libs.RuntimeModule:
		return api.OnResolveResult{Path: libs.RuntimeModule, Namespace: nsRuntime}
	case isLibrary(set, args.Path):
		return api.OnResolveResult{Path: args.Path, Namespace: nsLibrary}
	case isSubpath(set, args.Path):
		m, _ := set.Subpath(args.Path)
		switch {
		case m.Export == "":
			return api.OnResolveResult{Path: m.Lib, Namespace: nsLibrary}
		case args.Kind == api.ResolveJSRequireCall:
			return api.OnResolveResult{Path: args.Path, Namespace: nsSubReq}
		}
		return api.OnResolveResult{Path: args.Path, Namespace: nsSubpath}
	case strings.HasPrefix(args.Path, "./") || strings.HasPrefix(args.Path, "../"):
		base := path.Dir(args.Importer)
		if args.Namespace != FileNamespace {
			base = "."
		}
		want := path.Join(base, args.Path)
		if strings.HasPrefix(want, "../") || want == ".." {
			return resolveError(pipe.KindBundle, fmt.Sprintf("cannot %s %q: it points outside the snippet's files", verb, args.Path))
		}
		if p, ok := lookup(files, want); ok {
			return api.OnResolveResult{Path: p, Namespace: FileNamespace}
		}
		return resolveError(pipe.KindBundle, fmt.Sprintf("cannot %s %q: no file %s among the snippet's files (%s)", verb, args.Path, want, strings.Join(slices.Sorted(maps.Keys(files)), ", ")))
	case strings.HasPrefix(args.Path, "/"):
		return resolveError(pipe.KindBundle, fmt.Sprintf("cannot %s %q: imports between files are relative (./name)", verb, args.Path))
	case isHostModule(args.Path):
		return resolveError(pipe.KindSecurity, fmt.Sprintf("cannot %s %q: host modules are not available in the playground; importable modules: %s and relative files", verb, args.Path, strings.Join(set.Modules(), ", ")))
	default:
		if root, ok := libraryOf(set, args.Path); ok {
			return resolveError(pipe.KindBundle, fmt.Sprintf("cannot %s %q: the playground serves %s itself and the subpaths of one export each (%s), not this one%s", verb, args.Path, root, subpathExample(root), subpathsAvailable(set, root)))
		}
		return resolveError(pipe.KindBundle, fmt.Sprintf("cannot %s %q: not an allowed module; importable modules: %s and relative files", verb, args.Path, strings.Join(set.Modules(), ", ")))
	}
}

// refuseAsScript words a script's refused require of a module name as
// the code-execution services script mode stands in for do, in the kind
// their callers switch on: a SECURITY_ERROR "Module 'axios' is not
// allowed" that lists what require() loads (RefusedModule). Relative and
// absolute paths keep their bundling error.
func refuseAsScript(r api.OnResolveResult, set *libs.Set, args api.OnResolveArgs) api.OnResolveResult {
	if len(r.Errors) == 0 || args.Kind != api.ResolveJSRequireCall || strings.HasPrefix(args.Path, ".") || strings.HasPrefix(args.Path, "/") {
		return r
	}
	msg := RefusedModule(args.Path, set.Modules())
	if root, ok := libraryOf(set, args.Path); ok {
		msg += fmt.Sprintf(", and of %s the subpaths %s%s", root, subpathExample(root), subpathsAvailable(set, root))
	} else if isHostModule(args.Path) {
		msg += "; Node's built-in modules are the host's, not the playground's"
	}
	return resolveError(pipe.KindSecurity, msg)
}

// RefusedModule is the message of a script's refused require(name):
// "Module 'name' is not allowed" and what require() loads (modules).
func RefusedModule(name string, modules []string) string {
	loads := "nothing"
	if len(modules) > 0 {
		loads = strings.Join(modules, ", ")
	}
	return fmt.Sprintf("Module '%s' is not allowed; require() loads: %s", name, loads)
}

// libraryOf is the library spec is a subpath of: the longest library
// name that spec continues with "/" (date-fns/locale for
// "date-fns/locale/xx", date-fns for "date-fns/fp").
func libraryOf(set *libs.Set, spec string) (string, bool) {
	for i := strings.LastIndexByte(spec, '/'); i > 0; i = strings.LastIndexByte(spec[:i], '/') {
		if isLibrary(set, spec[:i]) {
			return spec[:i], true
		}
	}
	return "", false
}

// subpathsAvailable lists, for a refused subpath of library root, the
// member names root serves when its modules are not named by its exports
// (date-fns/locale/<name>: "; <name> is one of af, ar, ar-DZ, …"); "" for
// the others, whose member names are their exports.
func subpathsAvailable(set *libs.Set, root string) string {
	l, _ := set.Lookup(root)
	if len(l.Subpaths) == 0 {
		return ""
	}
	return "; <name> is one of " + strings.Join(slices.Sorted(maps.Keys(l.Subpaths)), ", ")
}

func isSubpath(set *libs.Set, spec string) bool {
	_, ok := set.Subpath(spec)
	return ok
}

// subpathExample names the subpaths the playground serves of library
// root, for an error about another one.
func subpathExample(root string) string {
	aliases, prefixes := libs.SubpathPrefixes(root)
	var out []string
	out = append(out, aliases...)
	for _, p := range prefixes {
		out = append(out, p+"<name>")
	}
	if len(out) == 0 {
		return "none for " + root
	}
	return strings.Join(out, ", ")
}

func isLibrary(set *libs.Set, name string) bool {
	_, ok := set.Lookup(name)
	return ok
}

// lookup finds the file an import names, as TypeScript resolves it: the exact
// path, "./x.js" naming x.ts or x.tsx, an extensionless path, or a directory's index.
func lookup(files map[string]string, p string) (string, bool) {
	if _, ok := files[p]; ok {
		return p, true
	}
	ext := path.Ext(p)
	stem := strings.TrimSuffix(p, ext)
	var candidates []string
	switch ext {
	case ".js":
		candidates = []string{stem + ".ts", stem + ".tsx"}
	case ".jsx":
		candidates = []string{stem + ".tsx"}
	case ".mjs":
		candidates = []string{stem + ".mts"}
	}
	for _, e := range extensions {
		candidates = append(candidates, p+e)
	}
	for _, e := range extensions {
		candidates = append(candidates, p+"/index"+e)
	}
	for _, c := range candidates {
		if _, ok := files[c]; ok {
			return c, true
		}
	}
	return "", false
}

// hostModules are Node's built-in modules (node:module builtinModules), which
// a snippet reaches for when it wants the host: denied as a security matter,
// not merely unknown.
var hostModules = []string{
	"assert", "async_hooks", "buffer", "child_process", "cluster", "console", "constants", "crypto",
	"dgram", "diagnostics_channel", "dns", "domain", "events", "fs", "fs/promises", "http", "http2",
	"https", "inspector", "module", "net", "os", "path", "perf_hooks", "process", "punycode",
	"querystring", "readline", "repl", "stream", "string_decoder", "sys", "timers", "tls", "trace_events",
	"tty", "url", "util", "v8", "vm", "wasi", "worker_threads", "zlib",
}

func isHostModule(spec string) bool {
	if strings.HasPrefix(spec, "node:") || strings.HasPrefix(spec, "bun:") || strings.HasPrefix(spec, "deno:") {
		return true
	}
	root, _, _ := strings.Cut(spec, "/")
	return slices.Contains(hostModules, spec) || slices.Contains(hostModules, root)
}

func resolveError(kind pipe.ErrorKind, msg string) api.OnResolveResult {
	return api.OnResolveResult{Errors: []api.Message{{Text: msg, Detail: kind}}}
}

func loaderFor(p string) api.Loader {
	switch path.Ext(p) {
	case ".ts", ".mts":
		return api.LoaderTS
	case ".tsx":
		return api.LoaderTSX
	case ".jsx":
		return api.LoaderJSX
	case ".json":
		return api.LoaderJSON
	default:
		return api.LoaderJS
	}
}

// diagnostics converts esbuild's messages into user-facing errors. Parse
// errors are SYNTAX_ERROR; resolution errors carry their kind in Detail.
func diagnostics(msgs []api.Message) []pipe.Error {
	out := make([]pipe.Error, 0, len(msgs))
	for _, m := range msgs {
		e := pipe.Error{Kind: pipe.KindSyntax, Message: m.Text}
		if k, ok := m.Detail.(pipe.ErrorKind); ok {
			e.Kind = k
		} else if m.PluginName != "" {
			e.Kind = pipe.KindBundle
		}
		if l := m.Location; l != nil && strings.HasPrefix(l.File, FileNamespace+":") {
			e.File = strings.TrimPrefix(l.File, FileNamespace+":")
			e.Line = l.Line
			e.Column = utf16Column(l.LineText, l.Column) + 1
			e.Stack = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column)
		}
		out = append(out, e)
	}
	return out
}

// utf16Column converts a 0-based byte offset into line to UTF-16 code units,
// the unit editors and browsers count columns in.
func utf16Column(line string, byteCol int) int {
	if byteCol > len(line) {
		return byteCol
	}
	n := 0
	for _, r := range line[:byteCol] {
		if r == utf8.RuneError {
			n++
			continue
		}
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}

func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Version is part of every bundle cache key, read from the build
// info so that upgrading esbuild invalidates cached bundles.
var Version = func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/evanw/esbuild" {
				return d.Version
			}
		}
	}
	return "unknown"
}()

// libraryFacade is the module a snippet's `import … from "lodash"` resolves
// to: it takes the package's exports from the runtime (evaluated at most
// once per run) and re-exports them by name, with the package's default
// export (or the CommonJS exports object) as default.
//
// When names is not nil (libraryUsage found that the run uses only those
// names of a library with an ES module source), it exports only them, from
// the library's tree-shaken chunk.
func libraryFacade(l libs.Library, names []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "const m = %s;\n", libCall(l.Name, names))
	exports := names
	if names == nil {
		b.WriteString("export default (m && m.__esModule && \"default\" in m) ? m.default : m;\n")
		exports = l.Exports
	} else {
		b.WriteString("export default m;\n") // read as its exports (libs.ESMSource.DefaultIsExports)
	}
	for i, name := range exports {
		fmt.Fprintf(&b, "const e%d = m[%s];\n", i, jsString(name))
	}
	if len(exports) > 0 {
		b.WriteString("export {")
		for i, name := range exports {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " e%d as %s", i, name)
		}
		b.WriteString(" };\n")
	}
	return b.String()
}

// libCall is the expression that evaluates library name in a run: the
// whole library, or with names (not nil) its chunk of just those exports
// (FieldLib's second argument).
func libCall(name string, names []string) string {
	if names == nil {
		return RuntimeParam + "." + FieldLib + "(" + jsString(name) + ")"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = jsString(n)
	}
	return RuntimeParam + "." + FieldLib + "(" + jsString(name) + ", [" + strings.Join(q, ", ") + "])"
}
