package bundle

import "strings"

// The contract between the bundler (this package, which writes the bundle)
// and the runtime (package sandbox/worker/js, which runs it). Both read
// these names from here; every name says what each end does with it.
const (
	// FileNamespace is the esbuild namespace of the snippet's own files.
	// Bundler: every user file resolves into it, so the source map names
	// them "file-mem:<path>". Runtime: a stack frame whose file has this
	// prefix is a user frame; it strips the prefix to report the path.
	FileNamespace = "file-mem"

	// RuntimeParam is the parameter through which the bundle receives the
	// runtime object. Bundler: the banner declares it, the "playground"
	// module, the library facades and the entry read it (esbuild renames a
	// snippet's own top-level variable of this name rather than shadowing
	// it). Runtime: calls the bundle's function with the runtime object.
	RuntimeParam = "__playground_runtime"

	// AliasPrefix prefixes host globals the bundler renames before esbuild
	// sees them (require: esbuild would replace it with its own shim).
	// Runtime: strips it from "X is not defined" to name the real global
	// in its SECURITY_ERROR.
	AliasPrefix = "__playground_host_"
)

// Fields of the runtime object (RuntimeParam). Bundler: the "playground"
// module re-exports Facts, Input and Host; a library facade calls Lib with
// the library's name; the entry calls Done with the awaited default
// export. Runtime: sets each field before it calls the bundle.
const (
	FieldFacts = "facts" // the facts object
	FieldInput = "input" // the run's input (frozen)
	FieldHost  = "host"  // the host functions
	FieldLib   = "lib"   // lib(name[, names]) evaluates a library (or the chunk of just names, LibraryChunk) once per run and returns its exports
	FieldDone  = "done"  // done(value) records the entry's default export as the output
	// FieldCaught is caught(e), which the runtime's compile step makes every
	// catch clause of the snippet's files call first with its binding: a
	// TypeError the engine threw gets V8's words before the snippet reads it.
	FieldCaught = "caught"
	// FieldErrorRead is errorRead(v), which the runtime's compile step makes
	// every `.stack` and `.message` read of the snippet's files call on the
	// object read: it returns v, an error among them given V8's message and
	// stack as caught gives them, so that a stack read as a value (returned,
	// logged into a string, handed to a promise's catch) reads as Node's.
	FieldErrorRead = "errorRead"
)

// Banner and Footer wrap the ES module bundle in an async function, which
// is how top-level await runs in a goja script. Runtime: evaluating the
// bundle yields the function; calling it with the runtime object returns
// the module's promise. (esbuild shifts the source map past the banner.)
const (
	Banner = "(async function (" + RuntimeParam + ") {"
	Footer = "})"
)

// Script mode (pipe.ModeScript): a classic script, sloppy unless it says
// "use strict". Bundler: the bundle is CommonJS (esbuild's ES module
// output is strict throughout: no with, no legacy octal, no implicit
// globals), begins with ScriptBanner and ends with ScriptFooter; the
// entry file is esbuild's entry point, its text wrapped in ScriptPrefix …
// ScriptSuffix, on its own first and after its last line, so that its
// lines keep their numbers and only line 1 shifts right by
// len(ScriptPrefix). The prefix stores a sloppy async function with the
// script as its body (top-level return and await) as FieldScript of the
// runtime object; the footer (no file of the snippet's, so no frame of a
// stack) calls it with the global object as this and passes its result
// (the value of a top-level return) to FieldDone. Runtime: compiles a
// bundle that begins with ScriptBanner non-strict (Strict); defines the
// globals input (a mutable copy), output and require; subtracts
// len(ScriptPrefix) from a column on line 1 of the entry file; takes the
// returned value as the output, or the final value of the output global
// when the script returned undefined.
const (
	FieldScript  = "script"
	ScriptBanner = "(async function (" + RuntimeParam + ") { /* script */"
	ScriptPrefix = RuntimeParam + "." + FieldScript + " = async function () {"
	ScriptSuffix = "\n};"
	ScriptFooter = "\n" + RuntimeParam + "." + FieldDone + "(await " + RuntimeParam + "." + FieldScript + ".call(globalThis));\n})"
)

// Strict reports whether the bundle code is compiled as strict code: every
// bundle but a script's (ScriptBanner), whose own code decides.
func Strict(code string) bool {
	return !strings.HasPrefix(code, ScriptBanner)
}
