package bundle

import (
	"fmt"
	"path"
	"strings"
)

// goja parses neither import.meta nor import(expression); esbuild keeps
// both in an ES module bundle. rewriteModuleMeta replaces them in a
// snippet file, keeping every line and column:
//
//   - `import.meta` (11 bytes) becomes `__pg_meta()` (11 bytes), a call to
//     a function declared after the file's last line (declarations are
//     hoisted) that returns the file's own import.meta object:
//     { url: "file:///<path>", filename: "/<path>", dirname: "/<dir>" },
//     one object per file, as in Node.
//   - `import` of a dynamic import whose argument is not a string literal
//     becomes `__pgi_` (6 bytes), a function that returns a promise
//     rejected with a TypeError naming the limitation: a bundle holds only
//     the modules named by string literals. (A literal `import("x")` is
//     bundled by esbuild as usual.)
//
// Occurrences inside comments, strings, template text and regex literals
// are left alone (blank); a file the scanner cannot follow is returned
// unchanged, and esbuild's own lowering (supported "import-meta": false)
// turns a remaining import.meta into an empty object.
func rewriteModuleMeta(src, file string) string {
	if !strings.Contains(src, "import") {
		return src
	}
	code := blank(src)
	if code == "" {
		return src
	}
	b := []byte(src)
	meta, dyn := false, false
	for off := 0; ; {
		i := strings.Index(code[off:], "import")
		if i < 0 {
			break
		}
		i += off
		off = i + len("import")
		if i > 0 && (isIdentByte(code[i-1]) || code[i-1] == '.') || off < len(code) && isIdentByte(code[off]) {
			continue
		}
		rest := code[off:]
		if strings.HasPrefix(rest, ".meta") && !(len(rest) > 5 && isIdentByte(rest[5])) {
			copy(b[i:], "__pg_meta()")
			meta = true
			continue
		}
		arg := strings.TrimLeft(rest, " \t\r\n")
		if !strings.HasPrefix(arg, "(") {
			continue // a static import
		}
		// The argument as written (code has string contents blanked).
		a := strings.TrimLeft(src[len(src)-len(arg)+1:], " \t\r\n")
		if literalArgument(a) {
			continue
		}
		copy(b[i:], "__pgi_")
		dyn = true
	}
	if !meta && !dyn {
		return src
	}
	var tail strings.Builder
	tail.WriteString("\n")
	if meta {
		dir := path.Dir("/" + file)
		fmt.Fprintf(&tail, "function __pg_meta() { return __pg_meta.m || (__pg_meta.m = { url: %s, filename: %s, dirname: %s }); }\n",
			jsString("file:///"+file), jsString("/"+file), jsString(dir))
	}
	if dyn {
		tail.WriteString(`function __pgi_(specifier) { return Promise.reject(new TypeError("import(" + (typeof specifier === "string" ? JSON.stringify(specifier) : "…") + "): a dynamic import must name its module with a string literal (import(\"lodash\"), import(\"./util.js\")): the playground bundles a snippet's modules before it runs, so a computed name cannot be loaded")); }` + "\n")
	}
	return string(b) + tail.String()
}

// literalArgument reports whether a call's argument text starts with a
// string literal that is the whole argument: 'x', "x" or `x` without ${.
func literalArgument(a string) bool {
	if a == "" {
		return false
	}
	q := a[0]
	if q != '\'' && q != '"' && q != '`' {
		return false
	}
	for i := 1; i < len(a); i++ {
		switch {
		case a[i] == '\\':
			i++
		case q == '`' && a[i] == '$' && i+1 < len(a) && a[i+1] == '{':
			return false
		case a[i] == q:
			rest := strings.TrimLeft(a[i+1:], " \t\r\n")
			return strings.HasPrefix(rest, ")") || strings.HasPrefix(rest, ",")
		}
	}
	return false
}
