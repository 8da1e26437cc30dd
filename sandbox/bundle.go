package sandbox

import (
	"fmt"
	"path"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
)

// Namespaces of the esbuild plugin that serves every module from memory.
const (
	nsFile    = "file-mem"   // the request's files
	nsRuntime = "playground" // the "playground" module
	nsEntry   = "entry"      // the generated entry that imports the user's entry
	nsLibrary = "library"    // an allowlisted npm package
	entryName = "entry"
)

// RuntimeModule is the bare module name snippets import the runtime API from.
const RuntimeModule = "playground"

// runtimeParam is the name under which the bundle receives the runtime
// object. esbuild reserves unbound names, so a snippet's own top-level
// variable of this name is renamed rather than shadowing it.
const runtimeParam = "__playground_runtime"

// bundleBanner and bundleFooter wrap the ES module bundle in an async
// function, which is how top-level await runs in a goja script: evaluating
// the bundle yields the function; calling it returns the module's promise.
// esbuild shifts the source map past the banner.
const (
	bundleBanner = "(async function (" + runtimeParam + ") {"
	bundleFooter = "})"
)

// runtimeModuleSource is the "playground" module: it re-exports what the
// host passes into the bundle function.
const runtimeModuleSource = `export const facts = ` + runtimeParam + `.facts;
export const input = ` + runtimeParam + `.input;
export const host = ` + runtimeParam + `.host;
`

// Target is the ECMAScript level esbuild lowers snippets to: the highest that
// goja runs, pinned by TestBundleTargetRunsInGoja, with the exceptions in
// supported. Top-level await is kept because the bundle runs inside an async
// function.
const Target = api.ES2022

// supported overrides esbuild's feature table for goja: goja has no async
// generators or for-await, which esbuild then lowers to generators.
var supported = map[string]bool{
	"top-level-await": true,
	"async-generator": false,
	"for-await":       false,
}

// EngineFeatures returns esbuild's Supported overrides for code that runs in
// goja (libraries are bundled with them too). The caller owns the map.
func EngineFeatures() map[string]bool {
	m := map[string]bool{}
	for k, v := range supported {
		if k != "top-level-await" {
			m[k] = v
		}
	}
	return m
}

// hostAliases renames require before esbuild sees it: esbuild would
// otherwise replace it with its own __require shim, and `typeof require`
// would not be "undefined" as in a browser. Using it is then a
// ReferenceError that securityError reports under its real name. (module
// and exports need no alias: every snippet file is an ES module, see the
// file loader.)
var hostAliases = map[string]string{
	"require": aliasPrefix + "require",
}

const aliasPrefix = "__playground_host_"

// extensions are the file extensions a snippet may use, in the order an
// extensionless import tries them.
var extensions = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".json"}

// bundled is the result of bundling: JavaScript with an inline source map,
// or the diagnostics that stopped it.
type bundled struct {
	Code   string
	Errors []Error
	// Libraries are the libraries the bundle imports, sorted.
	Libraries []string
}

// bundle builds files into one script. It never touches the filesystem:
// every import resolves to a file of the request, the runtime module, or an
// error naming what may be imported. It is safe for concurrent use.
//
// esbuild's parser has no nesting limit; deeply nested input overflows the Go
// stack, which is fatal. Callers run bundle only where that costs a worker.
func bundle(files []File, entry string, libs *libraryRegistry) bundled {
	byPath := make(map[string]string, len(files))
	for _, f := range files {
		byPath[f.Path] = f.Source
	}
	if _, ok := byPath[entry]; !ok {
		return bundled{Errors: []Error{{Kind: KindInvalidRequest, Message: fmt.Sprintf("entry %q is not one of the files", entry)}}}
	}
	used := &usedLibraries{m: map[string]bool{}}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{entryName},
		Bundle:      true,
		Write:       false,
		Format:      api.FormatESModule,
		Platform:    api.PlatformNeutral,
		Target:      Target,
		Supported:   supported,
		Define:      hostAliases,
		Sourcemap:   api.SourceMapInline,
		// The map must let errors point into the user's files; their text is already there.
		SourcesContent: api.SourcesContentExclude,
		Banner:         map[string]string{"js": bundleBanner},
		Footer:         map[string]string{"js": bundleFooter},
		LogLevel:       api.LogLevelSilent,
		Charset:        api.CharsetUTF8,
		LegalComments:  api.LegalCommentsNone,
		TreeShaking:    api.TreeShakingFalse, // a snippet's unused code still runs its side effects as written
		Outfile:        "bundle.js",
		Plugins:        []api.Plugin{memoryPlugin(byPath, entry, libs, used)},
	})
	if len(res.Errors) > 0 {
		return bundled{Errors: diagnostics(res.Errors)}
	}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			return bundled{Code: string(f.Contents), Libraries: used.sorted()}
		}
	}
	return bundled{Errors: []Error{{Kind: KindInternal, Message: "esbuild produced no JavaScript"}}}
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

func memoryPlugin(files map[string]string, entry string, libs *libraryRegistry, used *usedLibraries) api.Plugin {
	return api.Plugin{
		Name: "playground",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				r := resolve(files, entry, libs, args)
				if r.Namespace == nsLibrary {
					used.add(r.Path)
				}
				return r, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsEntry}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
				src := "import * as entry from " + jsString(entry) + ";\n" +
					"if (\"default\" in entry) " + runtimeParam + ".done(await entry.default);\n"
				return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsLibrary}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				l, _ := libs.lookup(args.Path)
				src := libraryFacade(l)
				return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsRuntime}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
				src := runtimeModuleSource
				return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsFile}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				src := files[args.Path]
				loader := loaderFor(args.Path)
				if loader != api.LoaderJSON {
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

func resolve(files map[string]string, entry string, libs *libraryRegistry, args api.OnResolveArgs) api.OnResolveResult {
	switch {
	case args.Kind == api.ResolveEntryPoint:
		return api.OnResolveResult{Path: entryName, Namespace: nsEntry}
	case args.Namespace == nsEntry:
		return api.OnResolveResult{Path: entry, Namespace: nsFile}
	case args.Path == RuntimeModule:
		return api.OnResolveResult{Path: RuntimeModule, Namespace: nsRuntime}
	case isLibrary(libs, args.Path):
		return api.OnResolveResult{Path: args.Path, Namespace: nsLibrary}
	case strings.HasPrefix(args.Path, "./") || strings.HasPrefix(args.Path, "../"):
		base := path.Dir(args.Importer)
		if args.Namespace != nsFile {
			base = "."
		}
		want := path.Join(base, args.Path)
		if strings.HasPrefix(want, "../") || want == ".." {
			return resolveError(KindBundle, fmt.Sprintf("cannot import %q: it points outside the snippet's files", args.Path))
		}
		if p, ok := lookup(files, want); ok {
			return api.OnResolveResult{Path: p, Namespace: nsFile}
		}
		return resolveError(KindBundle, fmt.Sprintf("cannot import %q: no file %s among the snippet's files (%s)", args.Path, want, strings.Join(sortedKeys(files), ", ")))
	case strings.HasPrefix(args.Path, "/"):
		return resolveError(KindBundle, fmt.Sprintf("cannot import %q: imports between files are relative (./name)", args.Path))
	case isHostModule(args.Path):
		return resolveError(KindSecurity, fmt.Sprintf("cannot import %q: host modules are not available in the playground; importable modules: %s and relative files", args.Path, strings.Join(libs.modules(), ", ")))
	default:
		return resolveError(KindBundle, fmt.Sprintf("cannot import %q: not an allowed module; importable modules: %s and relative files", args.Path, strings.Join(libs.modules(), ", ")))
	}
}

// lookup finds the file an import names, as TypeScript resolves it: the exact
// path, "./x.js" naming x.ts or x.tsx, an extensionless path, or a directory's index.
func isLibrary(libs *libraryRegistry, name string) bool {
	_, ok := libs.lookup(name)
	return ok
}

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

func resolveError(kind ErrorKind, msg string) api.OnResolveResult {
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
func diagnostics(msgs []api.Message) []Error {
	out := make([]Error, 0, len(msgs))
	for _, m := range msgs {
		e := Error{Kind: KindSyntax, Message: m.Text}
		if k, ok := m.Detail.(ErrorKind); ok {
			e.Kind = k
		} else if m.PluginName != "" {
			e.Kind = KindBundle
		}
		if l := m.Location; l != nil && strings.HasPrefix(l.File, nsFile+":") {
			e.File = strings.TrimPrefix(l.File, nsFile+":")
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

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// esbuildVersion is part of every bundle cache key, read from the build
// info so that upgrading esbuild invalidates cached bundles.
var esbuildVersion = func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/evanw/esbuild" {
				return d.Version
			}
		}
	}
	return "unknown"
}()
