package js

import (
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"weak"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"

	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/js/parity"
	"github.com/playground-dev/playground/sandbox/worker/js/webapi"
)

// Pay-per-use set-up (issue 12). Each Node-compatibility addition (guards,
// the RegExp wrapper, locale methods, polyfill holders and statics, the
// native-looking Function.prototype.toString) and each of the runtime's own
// globals (timers, queueMicrotask, performance, crypto) costs a fresh
// runtime Go-backed functions and the goja built-ins it touches. A run
// installs only those its program may reach: Compile summarises the
// program (usageOf) as a set of needs, and the runtime installs them before
// any of the program's code runs (Runtime.install).
//
// Soundness: an addition is a property P of some object (a replaced or a
// new method, a global, a lazy name answered by a holder's Proxy). Code
// reaches P only by its name: spelled out (an identifier, a dot member, a
// literal key in a member, an object literal, a class or a pattern, or a
// string literal handed to an API), or computed (a member or key that is
// not a literal, the in operator on a computed name; a key whose value is
// provably a number, or a string with a digit in it, names none of them:
// numeric.go), or by listing or
// inspecting properties and prototypes (getOwnPropertyNames, …Descriptors,
// Reflect, Proxy, getPrototypeOf, __proto__, hasOwn), or by running code
// that is not in the program (eval, Function and the constructor route to
// it, a library, script mode's require), or through an object that lists
// the globals (globalThis). A program that spells none of an addition's
// names and does none of the rest (then it is dynamic: needAll) cannot tell
// whether the addition is there. The engine itself reads names on its own
// (toString when converting, toLocaleString from
// Array.prototype.toLocaleString, then, …): of the additions only
// Function.prototype.toString and Array.prototype.toString
// (needArrayToString, keyed to other names) are read so without their
// name being spelled;
// and only a function that can be reached by name (queueMicrotask, RegExp,
// a polyfill) prints differently through it; so those imply it. Polyfill
// code that a holder or static may load runs in the same runtime: its
// names count as the program's (polyfillNeeds).

// need is a set of additions and globals a program may reach.
type need uint64

const (
	needStringGuards   need = 1 << iota // String.prototype.repeat, padStart, padEnd
	needSortGuard                       // Array.prototype.sort
	needBigIntGuards                    // BigInt.asUintN, asIntN
	needTypedArrayFrom                  // %TypedArray%.from of a primitive (parity/typedarray.go)
	needParseInt                        // parseInt, Number.parseInt: decimal digits past 2^53 (parity/parseint.go)
	needApplyGuards                     // Function.prototype.apply, Reflect.apply, Reflect.construct
	needScanGuards                      // Array.prototype.includes, indexOf, lastIndexOf (parity/scan.go)
	needLoopGuards                      // the loop guards of the names the program spells (parity/loops.go; summary.loops)
	needNativeToString                  // Function.prototype.toString that prints polyfills as native
	needRegExp                          // the global RegExp wrapper (parity/regexp_install.go)
	needLocale                          // toLocale…, localeCompare (parity/locale.go)
	needGlobalHolder                    // lazy globals (structuredClone, URL, …)
	needStringHolder                    // String.prototype.isWellFormed, toWellFormed
	needIteratorHolder                  // iterator helpers on %IteratorPrototype%
	needGroupBy                         // Object.groupBy, Map.groupBy
	needWithResolvers                   // Promise.withResolvers
	needPromiseAny                      // Promise.any (its AggregateError's message)
	needJSONParse                       // JSON.parse (V8's syntax error messages: parity/jsonerr.go)
	needJSONStringify                   // JSON.stringify (in Go, interruptible: parity/stringify.go)
	needFromAsync                       // Array.fromAsync
	needCaptureStack                    // Error.captureStackTrace, Error.stackTraceLimit (errors.go)
	needAsyncIterator                   // Symbol.asyncIterator
	needDispose                         // Symbol.dispose, Symbol.asyncDispose
	needSetTimeout
	needSetInterval
	needClearTimeout
	needClearInterval
	needQueueMicrotask
	needPerformance
	needCrypto
	// needArrayToString is Array.prototype.toString through the guarded
	// join for a long receiver (parity/tostring_guard.go). The engine
	// reads it without its name (`S + ""`, `${S}`, any conversion), so it
	// is keyed to what makes an array or array-like long instead: a
	// computed member (`a[4294967294] = 1`) or one of arrayMakers.
	needArrayToString
	// needFactsGlobal is globalThis[Symbol.for(FactsSymbol)] (facts.go):
	// no name reaches it, only a dynamic program or a library.
	needFactsGlobal
	// needConsoleFirst is the first of the console methods' bits, one per
	// consoleMethods entry (needConsole).
	needConsoleFirst

	needAll need = 1<<(iota+len(consoleMethods)-1) - 1
)

// consoleMethods are the console's methods, in the order newConsole
// defines them (Node's order of the same names).
var consoleMethods = [...]string{"log", "info", "warn", "error", "debug", "trace", "dir", "assert", "count", "countReset",
	"time", "timeLog", "timeEnd", "group", "groupCollapsed", "groupEnd", "table"}

const (
	// needConsole is every console method: a program that uses console
	// other than as console.name (lists it, passes it on) gets them all.
	needConsole = (needConsoleFirst<<len(consoleMethods) - 1) &^ (needConsoleFirst - 1)
)

// needAdditions are the Node-compatibility additions (issue 9); the rest of
// needAll are the runtime's own globals.
const needAdditions = needStringGuards | needSortGuard | needBigIntGuards | needTypedArrayFrom | needParseInt | needApplyGuards | needScanGuards | needLoopGuards | needNativeToString | needArrayToString |
	needRegExp | needLocale | needPolyfills | needJSONParse | needJSONStringify | needCaptureStack

// needPolyfills are the additions that may evaluate polyfill code.
const needPolyfills = needGlobalHolder | needStringHolder | needIteratorHolder | needGroupBy | needWithResolvers | needPromiseAny |
	needFromAsync | needAsyncIterator | needDispose

// needNatives are the additions (and globals) that hold functions
// Function.prototype.toString must print as native (parity.Patcher.MarkNative).
const needNatives = needRegExp | needQueueMicrotask | needPolyfills

// needByName maps a name to what it may reach.
var needByName = sync.OnceValue(func() map[string]need {
	m := map[string]need{
		"repeat": needStringGuards, "padStart": needStringGuards, "padEnd": needStringGuards,
		// toSorted sorts a copy (goja's arrayproto_toSorted): a comparator
		// cannot shrink it, so it needs no guard.
		"sort":    needSortGuard,
		"asUintN": needBigIntGuards, "asIntN": needBigIntGuards,
		"parseInt": needParseInt,
		// Uint8Array.from(…) spells the class: its from is %TypedArray%'s.
		"Int8Array": needTypedArrayFrom, "Uint8Array": needTypedArrayFrom, "Uint8ClampedArray": needTypedArrayFrom,
		"Int16Array": needTypedArrayFrom, "Uint16Array": needTypedArrayFrom, "Int32Array": needTypedArrayFrom,
		"Uint32Array": needTypedArrayFrom, "Float32Array": needTypedArrayFrom, "Float64Array": needTypedArrayFrom,
		"BigInt64Array": needTypedArrayFrom, "BigUint64Array": needTypedArrayFrom,
		// TextEncoder makes a Uint8Array without naming it: it gets the
		// typed-array defineProperty guards (parity/defineprop.go) too.
		"TextEncoder": needTypedArrayFrom,
		"apply":       needApplyGuards, "construct": needApplyGuards,
		"includes": needScanGuards, "indexOf": needScanGuards, "lastIndexOf": needScanGuards,
		// The loop guards' names (parity.LoopGuardNames) are added below.
		"toString": needNativeToString,
		"RegExp":   needRegExp,
		// The RegExp methods keyed by well-known symbols, guarded against
		// a receiver that is not a RegExp (parity.guardRegExpReceivers).
		"replace": needRegExp, "match": needRegExp, "matchAll": needRegExp, "search": needRegExp, "split": needRegExp,
		"toLocaleString": needLocale, "toLocaleDateString": needLocale, "toLocaleTimeString": needLocale,
		"localeCompare": needLocale, "toLocaleUpperCase": needLocale, "toLocaleLowerCase": needLocale,
		"groupBy": needGroupBy, "withResolvers": needWithResolvers, "any": needPromiseAny, "fromAsync": needFromAsync,
		"parse": needJSONParse, "stringify": needJSONStringify,
		"captureStackTrace": needCaptureStack, "stackTraceLimit": needCaptureStack,
		"asyncIterator": needAsyncIterator, "dispose": needDispose, "asyncDispose": needDispose,
		"setTimeout": needSetTimeout, "setInterval": needSetInterval,
		"clearTimeout": needClearTimeout, "clearInterval": needClearInterval,
		"queueMicrotask": needQueueMicrotask, "performance": needPerformance, "crypto": needCrypto,
	}
	for _, name := range arrayMakers {
		m[name] |= needArrayToString
	}
	for _, l := range lazyNames {
		switch l.holder {
		case "":
			m[l.name] |= needGlobalHolder
		case "String.prototype":
			m[l.name] |= needStringHolder
		}
	}
	for _, n := range iteratorHelpers {
		m[n] |= needIteratorHolder
	}
	m["console"] = needConsole
	for _, name := range parity.LoopGuardNames {
		m[name] |= needLoopGuards
	}
	return m
})

// arrayMakers are the names by which a program makes an array, or an
// object that inherits from Array.prototype, longer than it could fill:
// Array(n), a length set ({length: n} too), Array.prototype. A computed
// member (`a[i] = v`) is another way (usage.visit); the rest
// (constructor, __proto__, setPrototypeOf, eval, …) are dynamicNames,
// which need everything.
var arrayMakers = []string{"Array", "length", "prototype"}

// consoleMethod is the bit of console's method name (0 for any other name).
func consoleMethod(name string) need {
	for i, m := range consoleMethods {
		if m == name {
			return needConsoleFirst << i
		}
	}
	return 0
}

// isDynamicName reports whether s is one of dynamicNames.
var isDynamicName = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range dynamicNames {
		m[n] = true
	}
	return m
})

// dynamicNames reach properties, globals or code the program does not
// spell out; a program that mentions one may reach anything (needAll).
var dynamicNames = []string{
	"eval", "Function", "constructor", "Reflect", "Proxy", "globalThis",
	"getOwnPropertyNames", "getOwnPropertyDescriptor", "getOwnPropertyDescriptors", "getOwnPropertySymbols", "ownKeys",
	"getPrototypeOf", "setPrototypeOf", "__proto__",
	"__lookupGetter__", "__lookupSetter__", "__defineGetter__", "__defineSetter__",
	"hasOwnProperty", "hasOwn", "propertyIsEnumerable",
	"require",       // script mode: libraries, by a name the program may compute
	bundle.FieldLib, // the runtime object's lib: library code
}

// summary is what Compile found out about a program.
type summary struct {
	needs need
	// idents are the identifiers the program spells, sorted: a host global
	// (Job.Globals) it does not spell is not defined (hostObject).
	idents []string
	// supers are where the program's super(…) calls are (from "super" to
	// after "("), in
	// the user's files (constructorFrames). Kept for every program,
	// dynamic or not.
	supers []span
	// catches: some catch clause calls the runtime object's caught
	// (callCaught), which Execute then defines.
	catches bool
	// errorReads: some .stack or .message read calls the runtime
	// object's errorRead (readsError), which Execute then defines.
	errorReads bool
	// builds: string building was rewritten (rewrite.StringBuilding), and
	// the runtime object needs its natives (rewrite.DefineNatives).
	builds bool
	// loops: for…of loops were rewritten (rewrite.ArrayLoops), whose
	// native is among rewrite.DefineNatives' too.
	loops bool
	// loopGuards are the parity.LoopGuardNames the program spells, sorted
	// (what parity.Patcher.InstallGuards installs; every one when needs is
	// needAll).
	loopGuards []string
	// errorSites are where the program makes a TypeError by its name
	// (errorSite): one made there keeps its words (v8Message).
	errorSites map[position]bool
	// code is the program's source (the same string goja keeps for its
	// positions: no copy), parsed again only to word an uncaught error as
	// V8 does (v8Message).
	code string
	// numeric are the names the program's computed keys rely on being
	// numbery (numeric.go), sorted: other code of the run (a library)
	// that spells one could set a global of that name.
	numeric []string
}

// spells reports whether the program spells identifier name (or may
// reach any global: needAll).
func (s *summary) spells(name string) bool {
	if s == nil || s.needs == needAll {
		return true
	}
	_, ok := slices.BinarySearch(s.idents, name)
	return ok
}

// usageOf is what prg may reach: needAll unless Compile summarised it.
func usageOf(prg *goja.Program) need {
	if s := summaryOf(prg); s != nil {
		return s.needs
	}
	return needAll
}

// loopGuardsOf are the loop guards prg's run installs
// (parity.Patcher.InstallGuards): the names it spells, or nil (every one) when
// Compile did not summarise it or it may reach anything. Script mode
// installs everything else (needsOf) but these by the program's names too:
// a library it requires calls such a method on what the program hands it,
// through a name the program spells to reach it.
func loopGuardsOf(prg *goja.Program) []string {
	s := summaryOf(prg)
	if s == nil || s.needs == needAll {
		return nil
	}
	return s.loopGuards
}

// summaryOf is prg's summary, nil if Compile did not make prg.
func summaryOf(prg *goja.Program) *summary {
	if prg == nil {
		return nil
	}
	if s, ok := summaries.Load(weak.Make(prg)); ok {
		return s.(*summary)
	}
	return nil
}

// summaries holds the summaries of the programs Compile made, by program,
// for as long as the program lives (a cleanup drops the entry): the
// worker's program cache keeps *goja.Program, and Job carries it, so the
// summary travels without changing either.
var summaries sync.Map // weak.Pointer[goja.Program] → *summary

func remember(prg *goja.Program, s *summary) {
	wp := weak.Make(prg)
	summaries.Store(wp, s)
	runtime.AddCleanup(prg, func(wp weak.Pointer[goja.Program]) { summaries.Delete(wp) }, wp)
}

// usage collects a program's names and whether it is dynamic while
// walkAST visits its nodes (parents first).
type usage struct {
	needs   need
	dynamic bool
	skip    map[*ast.StringLiteral]bool // keys that name nothing (a class's constructor method)
	// trusted code (the polyfills) counts only for its names: it is never
	// dynamic.
	trusted bool
	// dotted are the console identifiers read as console.name: they need
	// that method only.
	dotted map[*ast.Identifier]bool
	idents map[string]bool
	// loopGuards are the loop guards' names spelled (summary.loopGuards).
	loopGuards map[string]bool
	// num decides which computed keys are numbery (numeric.go).
	num numericState
}

func (u *usage) name(s string) {
	n := needByName()[s]
	u.needs |= n
	if n&needLoopGuards != 0 && !u.trusted {
		if u.loopGuards == nil {
			u.loopGuards = map[string]bool{}
		}
		u.loopGuards[s] = true
	}
	if isDynamicName()[s] {
		u.setDynamic()
	}
}

func (u *usage) setDynamic() {
	if !u.trusted {
		u.dynamic = true
	}
}

// literalKey reports whether a computed key is a literal that names its
// property outright (its string is collected when walkAST visits it).
func literalKey(x ast.Expression) bool {
	switch x.(type) {
	case *ast.StringLiteral, *ast.NumberLiteral:
		return true
	}
	return false
}

// visit is the walkAST visitor.
func (u *usage) visit(n any) bool {
	if u.dynamic {
		return false
	}
	switch x := n.(type) {
	case *ast.Identifier:
		if !u.dotted[x] {
			u.name(x.Name.String())
		}
		if !u.trusted {
			if u.idents == nil {
				u.idents = map[string]bool{}
			}
			u.idents[x.Name.String()] = true
		}
	case *ast.DotExpression:
		if id, ok := x.Left.(*ast.Identifier); ok && id.Name == "console" {
			if u.dotted == nil {
				u.dotted = map[*ast.Identifier]bool{}
			}
			u.dotted[id] = true
			u.needs |= consoleMethod(x.Identifier.Name.String())
		}
	case *ast.StringLiteral:
		if !u.skip[x] {
			u.name(x.Value.String())
		}
	case *ast.TemplateElement:
		u.name(x.Parsed.String())
	case *ast.BracketExpression:
		u.needs |= needArrayToString
		u.computedKey(x.Member)
	case *ast.PropertyKeyed:
		if x.Computed {
			u.computedKey(x.Key)
		}
	case *ast.FieldDefinition:
		if x.Computed {
			u.computedKey(x.Key)
		}
	case *ast.MethodDefinition:
		if x.Computed {
			u.computedKey(x.Key)
		}
		if k, ok := x.Key.(*ast.StringLiteral); ok && !x.Computed && !x.Static && x.Kind == ast.PropertyKindMethod && k.Value == "constructor" {
			// A class's constructor: it defines the class, and reaches
			// nothing by that name.
			if u.skip == nil {
				u.skip = map[*ast.StringLiteral]bool{}
			}
			u.skip[k] = true
		}
	case *ast.BinaryExpression:
		if x.Operator == token.IN {
			switch x.Left.(type) {
			case *ast.StringLiteral, *ast.NumberLiteral, *ast.PrivateIdentifier:
			default:
				u.computedKey(x.Left)
			}
		}
	case *ast.SpreadElement: // in an array, a call, new (and an object: no loop)
		u.name(parity.SpreadGuardName)
	case *ast.ArrayPattern:
		if x.Rest != nil {
			u.name(parity.SpreadGuardName)
		}
	case *ast.YieldExpression:
		if x.Delegate {
			u.name(parity.SpreadGuardName)
		}
	case *ast.WithStatement:
		u.setDynamic()
	case *ast.Binding:
		if esbuildExport(x) {
			return false // see esbuildExport
		}
	}
	if !u.trusted {
		u.num.visit(n)
	}
	return !u.dynamic
}

// computedKey notes a computed key (a member, a property or class key, the
// in operator's left): a literal names its property outright, a numbery
// value names none of the additions (numeric.go), anything else makes the
// program dynamic.
func (u *usage) computedKey(x ast.Expression) {
	if !literalKey(x) && !u.num.key(x) {
		u.setDynamic()
	}
}

// esbuildExportSource is esbuild's __export helper (the bundle defines it
// when the entry has exports), without white space; its __defProp may be
// renamed (__defProp2).
var esbuildExportSource = regexp.MustCompile(`^\(target,all\)=>\{for\(varnameinall\)__defProp[0-9]*\(target,name,\{get:all\[name\],enumerable:true\}\);?\}$`)

// esbuildExport reports whether b defines esbuild's __export helper. Its
// all[name] is computed, but it reads only the enumerable properties a
// for-in lists, and no addition is enumerable (a property for-in lists is
// the one all[name] reads: a non-enumerable one earlier in the chain hides
// it), so it reaches nothing by a name the program does not spell, and it
// names nothing of the additions itself. Whoever calls it, with whatever
// argument.
func esbuildExport(b *ast.Binding) bool {
	id, ok := b.Target.(*ast.Identifier)
	if !ok || !strings.HasPrefix(id.Name.String(), "__export") {
		return false
	}
	f, ok := b.Initializer.(*ast.ArrowFunctionLiteral)
	return ok && esbuildExportSource.MatchString(strings.Join(strings.Fields(f.Source), ""))
}

// result is the summary of the walked program, its needs closed over the
// polyfills.
func (u *usage) result() *summary {
	numeric, ok := u.num.resolve()
	if u.dynamic || !ok {
		return &summary{needs: needAll}
	}
	slices.Sort(numeric)
	s := &summary{needs: closeNeeds(u.needs), numeric: numeric}
	if s.needs != needAll {
		for id := range u.idents {
			s.idents = append(s.idents, id)
		}
		slices.Sort(s.idents)
		// Not nil (nil is every guard): a program that spells none of
		// them gets none, also when the polyfills' own names set
		// needLoopGuards (closeNeeds).
		s.loopGuards = []string{}
		for name := range u.loopGuards {
			s.loopGuards = append(s.loopGuards, name)
		}
		slices.Sort(s.loopGuards)
	}
	return s
}

// closeNeeds adds what n implies: polyfill code that may load runs with its
// own names, and functions printed as native need the new toString.
func closeNeeds(n need) need {
	if n&needPolyfills != 0 {
		n |= polyfillNeeds()
	}
	if n&needNatives != 0 {
		n |= needNativeToString
	}
	return n
}

// polyfillNeeds is what the polyfills' own code names (webapi/polyfill.js and
// url.js), read once per process. Their computed members index their own
// objects and the values handed to them, and they run no code by name, so
// only their names count (not their dynamic flag); the queueMicrotask
// program is ours too and names nothing of the additions.
var polyfillNeeds = sync.OnceValue(func() need {
	var n need
	for _, src := range []struct{ name, code string }{{"polyfill.js", webapi.PolyfillSource}, {"url.js", webapi.URLSource}} {
		prg, err := goja.Parse(src.name, src.code)
		if err != nil {
			panic("sandbox: " + src.name + ": " + err.Error())
		}
		u := &usage{trusted: true}
		walkAST(prg, u.visit)
		n |= u.needs
	}
	return n | needSetTimeout | needPerformance // captureIntrinsics reads both
})
