// CodeMirror 6 for the playground page, bundled into ../editor.bundle.js by
// `go generate ./static`. The page imports createEditor and nothing else of
// CodeMirror, so this file is the whole editor surface. Types (a
// TypeScript language service in ../ts.worker.js), Prettier
// (../prettier.bundle.js) and Vim keys are optional layers switched on
// through the returned object; the first two load only when asked for.
import { EditorState, StateEffect, StateField, RangeSet, Compartment, Facet, Prec } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, dropCursor, rectangularSelection, crosshairCursor, Decoration, gutter, GutterMarker,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { tags as t } from "@lezer/highlight";
import {
  syntaxHighlighting, HighlightStyle, bracketMatching, indentOnInput, foldGutter, foldKeymap,
} from "@codemirror/language";
import { searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import { closeBrackets, closeBracketsKeymap, autocompletion, completionKeymap } from "@codemirror/autocomplete";
import { javascript, localCompletionSource } from "@codemirror/lang-javascript";
import { tsFacetWorker, tsSyncWorker, tsLinterWorker, tsAutocompleteWorker, tsHoverWorker } from "@valtown/codemirror-ts";
import { vim } from "@replit/codemirror-vim";
import * as Comlink from "comlink";

// The file a state shows (set by newState), for the layers added later.
const filePath = Facet.define({ combine: (v) => v[0] ?? "" });
const typesSlot = new Compartment();
const vimSlot = new Compartment();

// Layers shared by every state: applied by newState and on setState.
const layers = { worker: null, vim: false };
const typesExtension = (path) => (layers.worker
  ? [tsFacetWorker.of({ worker: layers.worker, path: "/" + path }), tsSyncWorker(), tsLinterWorker(), tsHoverWorker({ renderTooltip: renderHover })]
  : []);

// renderHover shows TypeScript's quick info: the signature, then the doc
// comment and its tags (@param, @returns…), all as text.
function renderHover(info) {
  const dom = document.createElement("div");
  dom.className = "cm-ts-hover";
  const q = info.quickInfo;
  if (!q) return { dom };
  const sig = dom.appendChild(document.createElement("div"));
  sig.className = "cm-ts-signature";
  for (const part of q.displayParts ?? []) {
    const span = sig.appendChild(document.createElement("span"));
    span.className = `quick-info-${part.kind}`;
    span.textContent = part.text;
  }
  const docs = (q.documentation ?? []).map((p) => p.text).join("");
  if (docs) {
    const p = dom.appendChild(document.createElement("div"));
    p.className = "cm-ts-docs";
    p.textContent = docs;
  }
  for (const tag of q.tags ?? []) {
    const p = dom.appendChild(document.createElement("div"));
    p.className = "cm-ts-tag";
    p.textContent = `@${tag.name} ${(tag.text ?? []).map((t) => t.text).join("")}`;
  }
  return { dom };
}
const vimExtension = () => (layers.vim ? Prec.highest(vim()) : []);
const tsCompletions = tsAutocompleteWorker();

/**
 * startTypeWorker starts ../ts.worker.js and builds its environment for a
 * server whose hello lists host (function names); extra is
 * { hostGlobals, modules } from the same hello (the host functions that are
 * also globals, and the modules require() loads in script mode). It
 * resolves to the worker's Comlink proxy: updateFile({ path, code }),
 * deleteFile(path), setHost(names, extra), isScript(),
 * problems(paths) → [{ path, from, to, severity, message }].
 * Paths are the snippet's paths with a leading "/".
 */
export async function startTypeWorker(host, extra = {}) {
  const worker = new Worker(new URL("./ts.worker.js", import.meta.url), { type: "module", name: "types" });
  const proxy = Comlink.wrap(worker);
  await proxy.initialize(host, extra);
  return proxy;
}

/**
 * formatSource formats source with Prettier (loaded on first use), the
 * parser chosen by path's extension; it rejects with Prettier's syntax
 * error when source does not parse.
 */
export async function formatSource(source, path) {
  const { format } = await import(new URL("./prettier.bundle.js", import.meta.url).href);
  return format(source, path);
}

// highlightStyle colours code with the page's --hl-* CSS variables
// (app.css), whose light and dark values all reach WCAG AA contrast (4.5:1)
// on the editor's background; CodeMirror's default style does not
// (#e40 on white is 3.8:1).
const hl = (name) => `var(--hl-${name})`;
const highlightStyle = HighlightStyle.define([
  { tag: t.keyword, color: hl("keyword") },
  { tag: [t.atom, t.bool, t.number, t.url, t.contentSeparator, t.labelName, t.propertyName], color: hl("constant") },
  { tag: [t.literal, t.inserted, t.string, t.special(t.string), t.regexp, t.escape], color: hl("string") },
  { tag: [t.deleted, t.invalid], color: hl("invalid") },
  { tag: [t.definition(t.variableName), t.function(t.variableName), t.function(t.propertyName)], color: hl("function") },
  { tag: [t.typeName, t.className, t.namespace, t.macroName], color: hl("type") },
  { tag: [t.comment, t.meta], color: hl("comment"), fontStyle: "italic" },
  { tag: t.link, textDecoration: "underline" },
  { tag: t.heading, fontWeight: "bold" },
  { tag: t.emphasis, fontStyle: "italic" },
  { tag: t.strong, fontWeight: "bold" },
]);

// completionSources keeps the language's completion of the file's own
// names next to ours (not the browser's globals: the sandbox has none);
// once the type worker runs, TypeScript's completions replace both.
// With types on, ours still offer what TypeScript cannot know before an
// import (the playground names, module names, dotted host functions), but
// never twice: TypeScript's option wins a label both give.
function completionSources(info) {
  const ours = playgroundCompletions(info);
  const typed = async (context) => {
    const [ts, mine] = await Promise.all([Promise.resolve(tsCompletions(context)).catch(() => null), ours(context)]);
    if (!ts || ts.options.length === 0) return mine;
    if (!mine) return ts;
    if (mine.from !== ts.from) return mine; // a module name or host.a.b: ours knows the server
    const labels = new Set(ts.options.map((o) => o.label));
    return { ...ts, options: [...ts.options, ...mine.options.filter((o) => !labels.has(o.label))] };
  };
  return [(context) => (context.state.facet(tsFacetWorker) ? typed(context) : ours(context)),
    (context) => (context.state.facet(tsFacetWorker) ? null : localCompletionSource(context))];
}

// Error marks: a line decoration and a gutter marker for each reported error.
const setErrors = StateEffect.define();
const errorLine = Decoration.line({ class: "cm-error-line" });
class ErrorMarker extends GutterMarker {
  constructor(message) { super(); this.message = message; }
  toDOM() {
    const el = document.createElement("span");
    el.className = "cm-error-marker";
    el.textContent = "●";
    el.title = this.message;
    return el;
  }
}
const errorField = StateField.define({
  create: () => ({ lines: Decoration.none, markers: RangeSet.empty }),
  update(value, tr) {
    value = { lines: value.lines.map(tr.changes), markers: value.markers.map(tr.changes) };
    for (const e of tr.effects) {
      if (!e.is(setErrors)) continue;
      const lines = [], markers = [];
      for (const { line, message } of e.value) {
        if (line < 1 || line > tr.state.doc.lines) continue;
        const from = tr.state.doc.line(line).from;
        lines.push(errorLine.range(from));
        markers.push(new ErrorMarker(message).range(from));
      }
      value = { lines: Decoration.set(lines, true), markers: RangeSet.of(markers, true) };
    }
    return value;
  },
  provide: (f) => [
    EditorView.decorations.from(f, (v) => v.lines),
    gutter({ class: "cm-error-gutter", markers: (view) => view.state.field(f).markers }),
  ],
});

// playgroundCompletions knows the "playground" module's API, the host
// functions and the importable modules (from the server's hello), which is
// as far as CodeMirror goes without a TypeScript language service.
function playgroundCompletions(info) {
  return (context) => {
    const mod = context.matchBefore(/from\s+["'][\w@/.-]*/);
    if (mod) {
      const start = mod.from + mod.text.search(/["']/) + 1;
      return { from: start, options: info().modules.map((m) => ({ label: m, type: "namespace", detail: "module" })) };
    }
    const host = context.matchBefore(/host\.[\w.]*/);
    if (host) {
      return {
        from: host.from + 5,
        options: info().host.map((h) => ({ label: h, type: "function", detail: "host function → Promise" })),
      };
    }
    const word = context.matchBefore(/\w+/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    return {
      from: word.from,
      options: [
        { label: "facts", type: "variable", detail: "playground", info: "Live state: every set emits a fact event." },
        { label: "input", type: "variable", detail: "playground", info: "The run's input JSON, read-only." },
        { label: "host", type: "variable", detail: "playground", info: "Host functions of the server." },
      ],
    };
  };
}

function language(path) {
  return javascript({ typescript: /\.tsx?$/.test(path), jsx: /\.[jt]sx$/.test(path) });
}

// createEditor mounts an editor in parent. Each file has its own
// EditorState (so undo history is per file); the caller swaps them.
// readOnly shows the files without letting them be edited (the embed's
// read-only mode); the cursor still moves, so text can be selected and copied.
export function createEditor(parent, { onChange, onRun, onFormat, info = () => ({ modules: ["playground"], host: [] }), readOnly = false }) {
  const runKeys = keymap.of([
    { key: "Mod-Enter", preventDefault: true, run: () => { onRun(); return true; } },
    { key: "Shift-Alt-f", preventDefault: true, run: () => { onFormat?.(); return Boolean(onFormat); } },
  ]);
  const extensions = (path) => [
    runKeys,
    lineNumbers(), highlightActiveLineGutter(), foldGutter(), history(), drawSelection(), dropCursor(),
    EditorState.allowMultipleSelections.of(true), indentOnInput(),
    syntaxHighlighting(highlightStyle), bracketMatching(), closeBrackets(),
    autocompletion({ override: completionSources(info) }), rectangularSelection(), crosshairCursor(), highlightActiveLine(), highlightSelectionMatches(),
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...completionKeymap, indentWithTab]),
    language(path), errorField,
    EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
    EditorView.contentAttributes.of({ "aria-label": (readOnly ? "Code (read-only): " : "Code editor: ") + path }),
    readOnly ? [EditorState.readOnly.of(true)] : [],
    filePath.of(path),
    typesSlot.of(typesExtension(path)),
    vimSlot.of(vimExtension()),
  ];
  const view = new EditorView({ parent });
  // refresh brings the shown state's optional layers in line with layers.
  const refresh = () => view.dispatch({ effects: [
    typesSlot.reconfigure(typesExtension(view.state.facet(filePath))),
    vimSlot.reconfigure(vimExtension()),
  ] });
  return {
    view,
    newState: (doc, path) => EditorState.create({ doc, extensions: extensions(path) }),
    setState(state) {
      view.setState(state);
      refresh();
    },
    /** useTypes attaches a startTypeWorker proxy (or null) to every state as it is shown. */
    useTypes(worker) {
      layers.worker = worker;
      refresh();
    },
    /** setVim turns Vim keybindings on or off. */
    setVim(on) {
      layers.vim = Boolean(on);
      refresh();
      view.focus();
    },
    /** replaceText replaces the whole document as one undoable change, keeping the cursor near. */
    replaceText(text) {
      const head = Math.min(view.state.selection.main.head, text.length);
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: head } });
    },
    getState: () => view.state,
    getText: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    markErrors(errors) { view.dispatch({ effects: setErrors.of(errors) }); },
    goTo(line, column) {
      const doc = view.state.doc;
      const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
      const pos = Math.min(l.from + Math.max(column - 1, 0), l.to);
      view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center" }) });
      view.focus();
    },
    focus: () => view.focus(),
  };
}
