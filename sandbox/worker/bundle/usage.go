package bundle

import (
	"regexp"
	"slices"
	"strings"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
)

// Library usage: which names of a library a run's files use, so that a
// library with an ES module source (libs.Set.ESM) is evaluated tree-shaken
// (LibraryChunk) rather than whole. The scan reads the source text and is
// conservative: every mention of the library's name must be one of the
// forms below, and a namespace or required object may only be used as
// `ns.name`; anything else (a default import, a dynamic import, passing the
// object around, a spread, a computed member) means the whole library.
// Reading too many names is harmless; a name it missed would be a missing
// export, which these rules rule out.
//
// A library with a callable export cut into parts (libs.ESMWrapper:
// jstat's jStat) may also be called (`jStat(xs)`), and its chunk gets
// every method named after a dot anywhere in the run's files: the object
// it returns calls its methods by those names on objects the scan does
// not follow. A method reached only by a computed name (w[name]()) is
// outside this rule. lodash's chain (`_.chain(xs)`, `_(xs)`) evaluates
// the whole library (libs.ESMSource.Whole; a call of `_` is a use the
// rules above do not know).
var (
	// import { a, b as c } from 'L' / export { a } from 'L' / import type {…}
	reNamed = regexp.MustCompile(`\b(?:import|export)\s+(type\s+)?\{([^{}]*)\}\s*from\s*$`)
	// import * as ns from 'L'
	reNamespace = regexp.MustCompile(`\bimport\s+\*\s+as\s+([A-Za-z_$][\w$]*)\s+from\s*$`)
	// import x from 'L' (a library whose default export is its exports)
	reDefault = regexp.MustCompile(`\bimport\s+([A-Za-z_$][\w$]*)\s+from\s*$`)
	// const x = require('L')
	reRequireVar = regexp.MustCompile(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\s*\(\s*$`)
	// const { a, b: c } = require('L')
	reRequireDestructure = regexp.MustCompile(`\b(?:const|let|var)\s*\{([^{}]*)\}\s*=\s*require\s*\(\s*$`)
	// require('L').a
	reRequireCall  = regexp.MustCompile(`\brequire\s*\(\s*$`)
	reAfterRequire = regexp.MustCompile(`^\s*\)\s*\.\s*([A-Za-z_$][\w$]*)`)
	// the call ends the initializer: require('L') then ; , ) } or the end
	// (past white space, line ends included: a next line's .x continues it)
	reRequireEnd = regexp.MustCompile(`^\s*\)\s*([;,)}]|$)`)
	reMember     = regexp.MustCompile(`^\s*\??\.\s*([A-Za-z_$][\w$]*)`)
	reIdent      = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)
)

// libraryUsage returns, for each library with an ES module source that the
// files mention, the sorted names they use, or nil when they may use any.
func libraryUsage(files []pipe.File, set *libs.Set) map[string][]string {
	out := map[string][]string{}
	full := map[string]bool{}
	for _, name := range set.Modules() {
		if !slices.ContainsFunc(files, func(f pipe.File) bool { return strings.Contains(f.Source, name) }) {
			continue // the common case: no source loaded
		}
		src, ok := set.ESM(name)
		if !ok {
			continue
		}
		seen := false
		var names []string
		callable := ""
		if src.Wrapper != nil {
			callable = src.Wrapper.Call
		}
		aliases, prefixes := libs.SubpathPrefixes(name)
		for _, f := range files {
			if sub := subpathNames(f.Source, name, prefixes, set); len(sub) > 0 {
				seen = true
				names = append(names, sub...)
			}
			for _, spelling := range append([]string{name}, aliases...) {
				n, mentioned, ok := fileUsage(f.Source, spelling, src.DefaultIsExports, src.Namespace, callable)
				if !mentioned {
					continue
				}
				seen = true
				if !ok {
					full[name] = true
					break
				}
				names = append(names, n...)
			}
			if full[name] {
				break
			}
		}
		if !seen {
			continue
		}
		if full[name] {
			out[name] = nil
			continue
		}
		wrap := src.Wraps()
		if wrap {
			// A chain wrapper calls the methods by the names the code
			// writes after a dot, on whatever object: take them all.
			more, ok := dotNames(files)
			if !ok {
				out[name] = nil
				continue
			}
			for _, n := range more {
				if src.Knows(n) { // the others change nothing in the chunk
					names = append(names, n)
				}
			}
		}
		lib, _ := set.Lookup(name)
		kept := []string{}
		for _, n := range names {
			known := src.Has(n) || wrap && src.Knows(n)
			if !known && !slices.Contains(lib.Exports, n) {
				continue // no such export at all: undefined either way (zod's z.infer is a type)
			}
			if !known || slices.Contains(src.Whole, n) {
				kept = nil // not in the ES modules: the whole library decides
				break
			}
			kept = append(kept, n)
		}
		slices.Sort(kept)
		out[name] = slices.Compact(kept)
	}
	return out
}

// subpathNames are the exports that the subpath literals of src name
// ('lodash/groupBy': groupBy; libs.Set.Subpath), for library lib, whose
// member prefixes are prefixes. Such a module holds just its one export,
// however it is imported; a literal that is not an import names one
// export too many, which is harmless. A literal of another library's
// longer prefix ('date-fns/locale/de' for date-fns) is that library's.
func subpathNames(src, lib string, prefixes []string, set *libs.Set) []string {
	var out []string
	for _, p := range prefixes {
		if !strings.Contains(src, p) {
			continue
		}
		for _, q := range []string{`'`, `"`, "`"} {
			for off := 0; ; {
				i := strings.Index(src[off:], q+p)
				if i < 0 {
					break
				}
				i += off + 1
				end := strings.Index(src[i:], q)
				if end < 0 {
					break
				}
				off = i + end
				if m, ok := set.Subpath(src[i : i+end]); ok && m.Lib == lib && m.Export != "" {
					out = append(out, m.Export)
				}
			}
		}
	}
	return out
}

// dotNames returns every name written after a dot (or ?.) in files,
// comments, literals and spreads (...x) left out; false when a file
// cannot be scanned.
func dotNames(files []pipe.File) ([]string, bool) {
	var out []string
	for _, f := range files {
		code := blank(f.Source)
		if code == "" && f.Source != "" {
			return nil, false
		}
		for i := 0; i < len(code); i++ {
			if code[i] != '.' {
				continue
			}
			if i+1 < len(code) && code[i+1] == '.' {
				i += 2 // a spread
				continue
			}
			if m := reMember.FindStringSubmatch(code[i:]); m != nil {
				out = append(out, m[1])
			}
		}
	}
	return out, true
}

// fileUsage scans one file for lib: the names it uses, whether it mentions
// lib at all, and false when it may use the whole library.
//
// defaultIsExports: the library's default export is an object of its
// named exports, so a default import is read like a namespace.
//
// namespace: a named export that is an object of the other named exports
// (libs.ESMSource.Namespace), read by member like a namespace import.
//
// callable: when not "", a call of the default export, required object
// or namespace export (lodash's _(xs), jstat's jStat(xs)) is read as a
// use of that name (libs.ESMWrapper.Call).
func fileUsage(src, lib string, defaultIsExports bool, namespace, callable string) (names []string, mentioned, ok bool) {
	if !strings.Contains(src, lib) {
		return nil, false, true
	}
	code := blank(src)
	if code == "" {
		return nil, true, false
	}
	for _, q := range []string{`'`, `"`, "`"} {
		lit := q + lib + q
		for off := 0; ; {
			i := strings.Index(src[off:], lit)
			if i < 0 {
				break
			}
			i += off
			off = i + len(lit)
			if code[i] != q[0] {
				continue // inside a comment or another literal
			}
			mentioned = true
			before, after := code[:i], code[i+len(lit):]
			switch {
			case q == "`":
				return nil, true, false
			case reNamed.MatchString(before):
				m := reNamed.FindStringSubmatch(before)
				if m[1] != "" {
					continue // import type: erased
				}
				n, good := specifiers(m[2], " as ")
				if !good {
					return nil, true, false
				}
				names = append(names, n...)
				if namespace != "" && slices.Contains(n, namespace) {
					// import { z } from 'zod': read z's members (its local name).
					local := localName(m[2], namespace, " as ")
					if local == "" {
						return nil, true, false
					}
					mem, good := members(code, local, reNamed.FindStringSubmatchIndex(before)[4]+indexWord(m[2], local), callable)
					if !good {
						return nil, true, false
					}
					names = append(names, mem...)
				}
			case defaultIsExports && reDefault.MatchString(before):
				m := reDefault.FindStringSubmatchIndex(before)
				if before[m[2]:m[3]] == "type" {
					return nil, true, false
				}
				n, good := members(code, before[m[2]:m[3]], m[2], callable)
				if !good {
					return nil, true, false
				}
				names = append(names, n...)
			case reNamespace.MatchString(before):
				m := reNamespace.FindStringSubmatchIndex(before)
				n, good := members(code, before[m[2]:m[3]], m[2], "")
				if !good {
					return nil, true, false
				}
				names = append(names, n...)
			case reRequireCall.MatchString(before) && reAfterRequire.MatchString(after):
				n := reAfterRequire.FindStringSubmatch(after)[1]
				if namespace != "" && n == namespace {
					return nil, true, false // require('zod').z: its members are not followed
				}
				names = append(names, n)
			case reRequireVar.MatchString(before) && reRequireEnd.MatchString(after):
				m := reRequireVar.FindStringSubmatchIndex(before)
				call := ""
				if defaultIsExports {
					call = callable
				}
				n, good := members(code, before[m[2]:m[3]], m[2], call)
				if !good {
					return nil, true, false
				}
				names = append(names, n...)
			case reRequireDestructure.MatchString(before) && reRequireEnd.MatchString(after):
				m := reRequireDestructure.FindStringSubmatch(before)
				n, good := specifiers(m[1], ":")
				if !good {
					return nil, true, false
				}
				names = append(names, n...)
				if namespace != "" && slices.Contains(n, namespace) {
					// const { z } = require('zod'): read z's members (its local name).
					local := localName(m[1], namespace, ":")
					at := reRequireDestructure.FindStringSubmatchIndex(before)[2]
					mem, good := members(code, local, at+indexWord(m[1], local), callable)
					if local == "" || !good {
						return nil, true, false
					}
					names = append(names, mem...)
				}
			default:
				return nil, true, false
			}
		}
	}
	return names, mentioned, true
}

// indexWord is the offset of identifier w in s as a whole word, or -1.
func indexWord(s, w string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		off = i + len(w)
		if (i == 0 || !isIdentByte(s[i-1])) && (off >= len(s) || !isIdentByte(s[off])) {
			return i
		}
	}
}

// localName is the local name an import list (sep " as ") or a
// destructuring pattern (sep ":") gives export name ("" when it is not a
// plain `name` or `name as local`).
func localName(list, name, sep string) string {
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		n, alias, has := strings.Cut(s, sep)
		if strings.TrimSpace(n) != name {
			continue
		}
		if has {
			return strings.TrimSpace(alias)
		}
		return name
	}
	return ""
}

// specifiers parses `a, b as c` (sep " as ") or `a, b: c` (sep ":"): the
// imported names; false for anything else (a string name, a rest element,
// a nested pattern, a default value).
func specifiers(list, sep string) ([]string, bool) {
	var out []string
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(s, "type "); ok && sep == " as " {
			_ = rest
			continue // a type-only specifier: erased
		}
		name, alias, has := strings.Cut(s, sep)
		name = strings.TrimSpace(name)
		if !reIdent.MatchString(name) || (has && !reIdent.MatchString(strings.TrimSpace(alias))) {
			return nil, false
		}
		if name == "default" {
			return nil, false
		}
		out = append(out, name)
	}
	return out, true
}

// members returns the names read as `id.name` or `id?.name` in code (with
// comments and strings blanked), and callable (when not "") for each call
// `id(…)`; false when id is used any other way outside its declaration
// at decl.
func members(code, id string, decl int, callable string) ([]string, bool) {
	var out []string
	for off := 0; ; {
		i := strings.Index(code[off:], id)
		if i < 0 {
			return out, true
		}
		i += off
		off = i + len(id)
		if i > 0 && isIdentByte(code[i-1]) || off < len(code) && isIdentByte(code[off]) {
			continue // part of a longer identifier
		}
		if i == decl {
			continue
		}
		if i > 0 && code[i-1] == '.' && !(i > 2 && code[i-3:i] == "...") {
			continue // another object's property
		}
		if callable != "" && strings.HasPrefix(strings.TrimLeft(code[off:], " \t\r\n"), "(") {
			out = append(out, callable)
			continue
		}
		m := reMember.FindStringSubmatchIndex(code[off:])
		if m == nil || assigns(code[off+m[1]:]) {
			return nil, false // used otherwise, or a member assigned: x.name = …
		}
		out = append(out, code[off+m[2]:off+m[3]])
	}
}

// assigns reports whether rest (what follows a member) assigns to it.
func assigns(rest string) bool {
	rest = strings.TrimLeft(rest, " \t\r\n")
	if strings.HasPrefix(rest, "==") || strings.HasPrefix(rest, "=>") {
		return false
	}
	if strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "++") || strings.HasPrefix(rest, "--") {
		return true
	}
	for _, op := range []string{"+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??="} {
		if strings.HasPrefix(rest, op) {
			return true
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// blank returns src with the contents of comments, string and template
// literals (not their ${} expressions) and regex literals replaced by
// spaces, offsets kept; "" when it cannot tell where one ends (an
// unterminated string, or a regex literal it took for something else).
//
// A / starts a regex literal where an expression may start and divides
// where one has just ended, as in JavaScript's grammar: it divides after
// ), ], }, a name, a number, a string, a template, a regex or a postfix
// ++/--, except after the ) of if/while/for/with (…), the } of a block
// (not of an object literal) and keywords that take an operand (return,
// typeof, …; not as a property name: gen.return / 2 divides). A brace
// is an object literal's after an operator, (, [, a keyword that takes an
// operand, or a : inside parentheses, brackets or an object; else a block's.
func blank(src string) string {
	b := []byte(src)
	// The open (, [, { and ${ enclosing the position, innermost last.
	const (
		fParen    = '(' // an expression's (or a call's): a / after its ) divides
		fCond     = 'c' // if/while/for/with (…): a / after its ) starts a regex
		fBracket  = '['
		fBlock    = 'b' // a block's {: a / after its } starts a regex
		fObject   = 'o' // an object literal's (or a pattern's) {: a / after its } divides
		fTemplate = 't' // a template literal's ${
	)
	var stack []byte
	top := func() byte {
		if len(stack) == 0 {
			return 0
		}
		return stack[len(stack)-1]
	}
	pop := func() byte {
		f := top()
		if f != 0 {
			stack = stack[:len(stack)-1]
		}
		return f
	}
	regex := true // whether a / here starts a regex literal
	// prev is the previous significant token: a word (name, keyword or
	// number), a punctuator ("=>", "++" and "--" whole, others by their
	// last byte), "" at the start, or "'" for a literal or a property name.
	prev := ""
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				b[i] = ' '
				i++
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return ""
			}
			for j := i; j < i+2+end+2; j++ {
				if b[j] != '\n' {
					b[j] = ' '
				}
			}
			i += 2 + end + 1
		case c == '\'' || c == '"':
			j := i + 1
			for ; j < len(b) && b[j] != c; j++ {
				if b[j] == '\\' {
					b[j] = ' '
					j++
				} else if b[j] == '\n' {
					return ""
				}
				if j < len(b) {
					b[j] = ' '
				}
			}
			if j >= len(b) {
				return ""
			}
			i, regex, prev = j, false, "'"
		case c == '`' || (c == '}' && top() == fTemplate):
			if c == '}' {
				pop()
			}
			j := i + 1
			for ; j < len(b) && b[j] != '`'; j++ {
				if b[j] == '\\' {
					b[j] = ' '
					j++
				} else if b[j] == '$' && j+1 < len(b) && b[j+1] == '{' {
					break
				}
				if j < len(b) && b[j] != '\n' {
					b[j] = ' '
				}
			}
			if j >= len(b) {
				return ""
			}
			if b[j] == '$' {
				stack = append(stack, fTemplate)
				j++
				i, regex, prev = j, true, "{"
				continue
			}
			i, regex, prev = j, false, "'"
		case c == '/' && regex:
			// a regex literal: blank it up to its closing /, outside a class
			j, class := i+1, false
			for ; j < len(b) && (b[j] != '/' || class); j++ {
				switch b[j] {
				case '\\':
					b[j] = ' '
					j++
				case '[':
					class = true
				case ']':
					class = false
				case '\n':
					return ""
				}
				if j < len(b) {
					b[j] = ' '
				}
			}
			if j >= len(b) {
				return ""
			}
			i, regex, prev = j, false, "'"
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case isIdentByte(c):
			j := i
			for j+1 < len(b) && isIdentByte(b[j+1]) {
				j++
			}
			word := string(b[i : j+1])
			i = j
			if prev == "." { // a property name, whatever its spelling
				regex, prev = false, "'"
				continue
			}
			if word == "await" && prev == "for" {
				continue // for await (…): the ( is the for's
			}
			regex, prev = operandKeywords[word], word
		case c == '(':
			f := byte(fParen)
			switch prev {
			case "if", "while", "for", "with":
				f = fCond
			}
			stack = append(stack, f)
			regex, prev = true, "("
		case c == ')':
			regex, prev = pop() == fCond, ")"
		case c == '[':
			stack = append(stack, fBracket)
			regex, prev = true, "["
		case c == ']':
			pop()
			regex, prev = false, "]"
		case c == '{':
			f := byte(fObject)
			switch {
			case prev == "" || prev == ";" || prev == "{" || prev == "}" || prev == ")" || prev == "=>":
				f = fBlock
			case prev == ":":
				if t := top(); t == 0 || t == fBlock {
					f = fBlock // a label's or a case's block
				}
			case prev == "else" || prev == "do" || prev == "try" || prev == "finally":
				f = fBlock
			case isIdentByte(prev[0]):
				if !operandKeywords[prev] && !patternKeywords[prev] {
					f = fBlock // class A {, class A extends B {, …
				}
			}
			stack = append(stack, f)
			regex, prev = true, "{"
		case c == '}':
			regex, prev = pop() != fObject, "}"
		case (c == '+' || c == '-') && i > 0 && b[i-1] == c && prev == string(c):
			regex, prev = false, string([]byte{c, c}) // a postfix ++ or --: a / after it divides
		case c == '>' && i > 0 && b[i-1] == '=' && prev == "=":
			regex, prev = true, "=>"
		case strings.IndexByte(",=:!&|?;+-*%<>~^", c) >= 0:
			regex, prev = true, string(c)
		default: // . # @ \ and anything else: what follows is not a regex
			regex, prev = false, string(c)
		}
	}
	return string(b)
}

// operandKeywords are the keywords after which an expression starts, so
// a / there starts a regex literal and a { an object literal.
var operandKeywords = map[string]bool{
	"return": true, "typeof": true, "case": true, "do": true, "else": true, "in": true, "of": true,
	"new": true, "delete": true, "void": true, "throw": true, "instanceof": true, "yield": true, "await": true,
}

// patternKeywords are the keywords after which a { is an object pattern
// or an import/export list, not a block.
var patternKeywords = map[string]bool{"const": true, "let": true, "var": true, "import": true, "export": true, "default": true}
