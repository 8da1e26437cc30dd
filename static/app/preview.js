// Value previews (docs/protocol.md "Value previews") as console text. This
// module is pure (no DOM) so node's test runner checks it against the Go
// renderer's golden file, sandbox/worker/js/testdata/console.golden
// (static/app/preview.test.mjs); keep it in step with the Go side's
// inspect.Render and inspect.FormatLine.

// Node 20's util.inspect defaults (lib/internal/util/inspect.js), as the Go
// renderer (sandbox/worker/js/inspect/format.go) applies them.
const DEPTH = 2;
const BREAK_LENGTH = 80;
const COMPACT = 3;
const MIN_LINE_LENGTH = 16;

const KEY = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
const SYMBOL_KEY = /^\[Symbol\(.*\)\]$/;
const META = { "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };

/** quote prints a nested string as inspect's strEscape does (and the Go renderer). */
export function quote(s) {
  let q = "'";
  if (s.includes("'")) {
    if (!s.includes('"')) q = '"';
    else if (!s.includes("`") && !s.includes("${")) q = "`";
  }
  const body = s.replace(/[\x00-\x1f\x7f-\x9f\\'"`]/g, (c) => {
    if (c === "\\") return "\\\\";
    if (c === "'" || c === '"' || c === "`") return c === q ? `\\${c}` : c;
    return META[c] ?? `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
  });
  return q + body + q;
}

const key = (k) => (KEY.test(k) || SYMBOL_KEY.test(k) || k === "[Uint8Contents]" ? k : quote(k));

// shown counts a collection's items, "... n more" standing for n of them.
const shown = (items) => items.reduce((n, v) => n + (v && v.$t === "more" ? Number(v.count) : 1), 0);

/** isExpandable reports whether a preview has children a tree can show. */
export function isExpandable(p) {
  return p !== null && typeof p === "object" && (Array.isArray(p) || ["object", "array", "map", "set", "error"].includes(p.$t) || !p.$t);
}

/**
 * render prints a preview as console text, laid out as Node's console.log
 * lays out the value it stands for: strings bare when top is true (a
 * console argument), quoted inside values.
 */
export function render(p, top = false) {
  if (top && typeof p === "string") return p;
  return new Inspector().value(p, 0);
}

const isMore = (p) => p !== null && typeof p === "object" && p.$t === "more";
const isNumeric = (p) => typeof p === "number" || (p !== null && typeof p === "object" && (p.$t === "number" || p.$t === "bigint"));
// width counts terminal columns roughly as Node's getStringWidth: East Asian wide characters and emoji two.
const width = (s) => [...s].reduce((n, c) => n + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]|\p{Emoji_Presentation}/u.test(c) ? 2 : /\p{Mn}|\p{Me}|\p{Cf}/u.test(c) ? 0 : 1), 0);

// collectionOpen is how a Map or Set (base) of n entries opens, and how it
// prints past the depth; a subclass is "Registry(2) [Map] {" and [Registry [Map]].
const collectionOpen = (p, base, n) => (p.class ? [`${p.class}(${n}) [${base}] {`, `[${p.class} [${base}]]`] : [`${base}(${n}) {`, `[${base}]`]);

class Inspector {
  constructor(depth = DEPTH) {
    this.depth = depth;
    this.indent = 0;
    this.current = 0;
  }

  value(p, recurse) {
    if (p === null) return "null";
    if (typeof p === "string") return this.str(p);
    if (typeof p === "number") return Object.is(p, -0) ? "0" : String(p);
    if (typeof p !== "object") return String(p);
    if (Array.isArray(p)) return this.list(p, "", "[", "]", "[Array]", true, recurse);
    const ref = p.ref && p.$t !== "circular" ? `<ref *${p.ref}>` : "";
    switch (p.$t) {
      case undefined: return this.props(Object.entries(p), "", "", "[Object]", recurse);
      case "undefined": return "undefined";
      case "bigint": return `${p.v}n`;
      case "symbol": case "number": case "regexp": case "date": case "bytes": return p.v;
      case "function": {
        // Own enumerable properties (a class's static fields) follow it: [class C] { count: 1 }.
        const base = functionText(p);
        const props = Object.entries(p.props || {});
        if (props.length === 0) return base;
        if (recurse > this.depth) return "[Function]";
        recurse++;
        this.current = recurse;
        const out = props.map(([k, v]) => this.entry(k, v, recurse));
        return this.reduce(out, ref ? `${ref} ${base}` : base, "{", "}", false, recurse, false);
      }
      case "error": return this.error(p, ref, recurse);
      case "circular": return p.ref ? `[Circular *${p.ref}]` : `[Circular ${p.path}]`;
      case "revoked": return "<Revoked Proxy>";
      case "more": return String(p.count) === "1" ? "... 1 more item" : `... ${p.count} more items`;
      case "empty": return String(p.count) === "1" ? "<1 empty item>" : `<${p.count} empty items>`;
      case "getter": return `[${p.label ?? "Getter"}]`;
      case "boxed": return `[${p.class}: ${this.value(p.v, recurse)}]`;
      case "array": {
        const open = p.class ? `${p.class}(${p.length}) [` : "[";
        return this.list(p.items ?? [], ref, open, "]", p.class ? `[${p.class}]` : "[Array]", true, recurse, Object.entries(p.props || {}));
      }
      case "set": {
        const [open, cut] = collectionOpen(p, "Set", shown(p.values ?? []));
        return this.list(p.values ?? [], ref, open, "}", cut, false, recurse);
      }
      case "map": {
        const entries = p.entries ?? [];
        if (p.params) return this.params(p, entries, recurse);
        const [open, cut] = collectionOpen(p, "Map", shown(entries));
        if (entries.length === 0) return open + "}";
        if (recurse > this.depth) return cut;
        recurse++;
        this.current = recurse;
        this.indent += 2;
        const out = entries.map((e) => (Array.isArray(e) ? `${this.value(e[0], recurse)} => ${this.value(e[1], recurse)}` : this.value(e, recurse)));
        this.indent -= 2;
        return this.reduce(out, ref, open, "}", false, recurse, false);
      }
      case "object": {
        const cls = p.class ?? "Object";
        let prefix = "", cut = "[Object]";
        if (cls.startsWith("[")) { prefix = cls + " "; cut = cls === "[Arguments]" ? "[Object]" : cls; }
        else if (cls !== "Object") { prefix = cls + " "; cut = `[${cls}]`; }
        const props = Object.entries(p.props || {});
        if (props.length === 0 && (cls === "WeakMap" || cls === "WeakSet")) return `${cls} { <items unknown> }`;
        return this.props(props, ref, prefix, cut, recurse);
      }
      default: return `[${p.$t}]`;
    }
  }

  // params lays out a URLSearchParams as Node's does: one line up to the
  // break length, else one entry a line indented by two spaces.
  params(p, entries, recurse) {
    const out = entries.map((e) => (Array.isArray(e) ? `${this.value(e[0], recurse + 1)} => ${this.value(e[1], recurse + 1)}` : this.value(e, recurse + 1)));
    const length = out.reduce((n, s) => n + s.length + 2, -2);
    if (length > BREAK_LENGTH) return `${p.class} {\n  ${out.join(",\n  ")} }`;
    return out.length ? `${p.class} { ${out.join(", ")} }` : `${p.class} {}`;
  }

  error(p, ref, recurse) {
    const head = p.message ? `${p.name}: ${p.message}` : p.name;
    // The stack's first line is Node's (its class's name: "MyErr [Error]: …").
    let base = !p.stack ? head : p.stack.startsWith("    at ") ? `${head}\n${p.stack}` : p.stack;
    // formatError: no frames after the message, the error is shown in brackets.
    const pos = p.message && base.indexOf(p.message) >= 0 ? base.indexOf(p.message) + p.message.length : 0;
    if (!base.slice(pos).includes("\n    at")) base = `[${base}]`;
    if (this.indent !== 0) base = base.replaceAll("\n", "\n" + " ".repeat(this.indent));
    const props = Object.entries(p.props || {});
    const hasCause = "cause" in p;
    const hasErrors = "errors" in p;
    if (props.length === 0 && !hasCause && !hasErrors) return base;
    if (ref) base = `${ref} ${base}`;
    if (recurse > this.depth) return base;
    recurse++;
    this.current = recurse;
    const out = props.map(([k, v]) => this.entry(k, v, recurse));
    if (hasCause) out.push(`[cause]: ${this.nested(p.cause, recurse)}`);
    if (hasErrors) out.push(`[errors]: ${this.nested(p.errors, recurse)}`);
    return this.reduce(out, base, "{", "}", false, recurse, false);
  }

  // list lays out an array's (arrayLike) or a Set's items, then an
  // array's own non-index properties (extras: [key, preview] pairs) as
  // key: value, as inspect appends them.
  list(items, ref, open, close, cut, arrayLike, recurse, extras = []) {
    if (items.length === 0 && extras.length === 0) return open + close;
    if (recurse > this.depth) return cut;
    recurse++;
    this.current = recurse;
    let numeric = true;
    const out = items.map((it) => {
      if (!isMore(it) && !isNumeric(it)) numeric = false;
      return this.nested(it, recurse);
    });
    let moreLast = arrayLike && items.length > 0 && isMore(items[items.length - 1]);
    if (extras.length > 0) {
      for (const [k, v] of extras) out.push(this.entry(k, v, recurse));
      // groupArrayElements pads numbers only when every grouped entry is a
      // number element, and leaves the last entry out past 100 entries.
      numeric = numeric && moreLast;
      moreLast = out.length > 100;
    }
    return this.reduce(out, ref, open, close, arrayLike, recurse, numeric, moreLast);
  }

  props(entries, ref, prefix, cut, recurse) {
    if (entries.length === 0) return prefix + "{}";
    if (recurse > this.depth) return cut;
    recurse++;
    this.current = recurse;
    const out = [];
    let state = "";
    for (const [k, v] of entries) {
      if (prefix === "Promise " && k === "[[state]]") { state = v; if (v === "pending") out.push("<pending>"); continue; }
      if (prefix === "Promise " && k === "[[result]]") {
        const s = this.nested(v, recurse);
        out.push(state === "rejected" ? `<rejected> ${s}` : s);
        continue;
      }
      out.push(this.entry(k, v, recurse));
    }
    return this.reduce(out, ref, prefix + "{", "}", false, recurse, false);
  }

  // nested lays out a value one level in (indented two more columns).
  nested(v, recurse) {
    this.indent += 2;
    const s = this.value(v, recurse);
    this.indent -= 2;
    return s;
  }

  // entry lays out one property: "key: value", or just what a cut ("…") says.
  entry(k, v, recurse) {
    const s = this.nested(v, recurse);
    return k === "…" ? s : `${key(k)}: ${s}`;
  }

  // reduce is inspect's reduceToSingleString with compact 3.
  reduce(output, base, open, close, arrayLike, recurse, numeric, moreLast = false) {
    const entries = output.length;
    if (arrayLike && entries > 6) output = this.group(output, numeric, moreLast);
    const lead = base ? base + " " : "";
    if (this.current - recurse < COMPACT && entries === output.length) {
      const start = output.length + this.indent + open.length + base.length + 10;
      if (this.belowBreakLength(output, start, base)) {
        const joined = output.join(", ");
        if (!joined.includes("\n")) return `${lead}${open} ${joined} ${close}`;
      }
    }
    const ind = "\n" + " ".repeat(this.indent);
    return `${lead}${open}${ind}  ${output.join(`,${ind}  `)}${ind}${close}`;
  }

  belowBreakLength(output, start, base) {
    let total = output.length + start;
    if (total + output.length > BREAK_LENGTH) return false;
    for (const o of output) {
      total += o.length;
      if (total > BREAK_LENGTH) return false;
    }
    return base === "" || !base.includes("\n");
  }

  // group is inspect's groupArrayElements.
  group(output, numeric, moreLast) {
    const separatorSpace = 2;
    let outputLength = output.length;
    if (moreLast) outputLength--; // the "more items" entry (or the 101st) is not grouped
    const dataLen = [];
    let totalLength = 0, maxLength = 0;
    for (let i = 0; i < outputLength; i++) {
      const len = width(output[i]);
      dataLen[i] = len;
      totalLength += len + separatorSpace;
      if (maxLength < len) maxLength = len;
    }
    const actualMax = maxLength + separatorSpace;
    if (!(actualMax * 3 + this.indent < BREAK_LENGTH && (totalLength / actualMax > 5 || maxLength <= 6))) return output;
    const averageBias = Math.sqrt(actualMax - totalLength / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax), Math.floor((BREAK_LENGTH - this.indent) / actualMax), COMPACT * 4, 15);
    if (columns <= 1) return output;
    const maxLineLength = [];
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < outputLength; j += columns) if (dataLen[j] > lineLength) lineLength = dataLen[j];
      maxLineLength.push(lineLength + separatorSpace);
    }
    const tmp = [];
    for (let i = 0; i < outputLength; i += columns) {
      const max = Math.min(i + columns, outputLength);
      let str = "";
      let j = i;
      for (; j < max - 1; j++) {
        const padding = maxLineLength[j - i] + output[j].length - dataLen[j];
        str += numeric ? `${output[j]}, `.padStart(padding, " ") : `${output[j]}, `.padEnd(padding, " ");
      }
      if (numeric) str += output[j].padStart(maxLineLength[j - i] + output[j].length - dataLen[j] - separatorSpace, " ");
      else str += output[j];
      tmp.push(str);
    }
    if (outputLength < output.length) tmp.push(output[outputLength]);
    return tmp;
  }

  // str quotes a nested string, split after each line break when long (formatPrimitive).
  str(s) {
    if (s.length > MIN_LINE_LENGTH && s.length > BREAK_LENGTH - this.indent - 4 && s.includes("\n")) {
      const lines = s.split(/(?<=\n)/).filter((l) => l !== "");
      return lines.map(quote).join(` +\n${" ".repeat(this.indent + 2)}`);
    }
    return quote(s);
  }
}

/** children lists a preview's [label, child] pairs for a tree view. */
export function children(p) {
  if (Array.isArray(p)) return p.map((v, i) => [String(i), v]);
  switch (p.$t) {
    case "array": {
      let i = 0;
      return p.items.map((v) => (v && v.$t === "more") || (v && v.$t === "empty") ? ["", v] : [String(i++), v]);
    }
    case "object": return Object.entries(p.props || {});
    case "set": return p.values.map((v, i) => [String(i), v]);
    case "map": return p.entries.map((e) => Array.isArray(e) ? [`${render(e[0])} =>`, e[1]] : ["", e]);
    case "error": return [["stack", p.stack || ""]];
    case undefined: return Object.entries(p);
    default: return [];
  }
}

// primitive reads a preview back as the primitive it stands for (strings
// may be cut), or undefined with ok false for an object: the runtime never
// converts an object (no valueOf call), and prints NaN for it.
function primitive(p) {
  if (p === null || typeof p !== "object") return { ok: true, v: p };
  if (p.$t === "number") return { ok: true, v: Number(p.v) };
  if (p.$t === "undefined") return { ok: true, v: undefined };
  return { ok: false };
}

// numeric prints an argument of %d (Number), %i (parseInt) and %f
// (parseFloat) as Node does: %d does not truncate (1.5 stays 1.5), %i does;
// a BigInt prints as 5n under %d and %i; symbols and objects print NaN.
function numeric(spec, p) {
  if (p && p.$t === "bigint") return spec === "f" ? p.v : `${p.v}n`;
  const { ok, v } = primitive(p);
  if (!ok) return "NaN";
  const n = spec === "d" ? Number(v) : spec === "i" ? parseInt(v) : parseFloat(v);
  return Object.is(n, -0) ? "-0" : String(n);
}

/**
 * format joins a console call's argument previews into its line, applying
 * the printf-style specifiers %s %d %i %f %o %O %c %% of a first string
 * argument (%c's CSS is consumed, not printed).
 */
export function format(args) {
  if (args.length === 0) return "";
  const [first] = args;
  if (typeof first !== "string" || !first.includes("%")) return args.map((a) => render(a, true)).join(" ");
  let out = "";
  let i = 1;
  for (let j = 0; j < first.length; j++) {
    const ch = first[j];
    if (ch !== "%" || j + 1 === first.length) { out += ch; continue; }
    const spec = first[j + 1];
    if (spec === "%") { out += "%"; j++; continue; }
    if (!"sdifoOc".includes(spec) || i >= args.length) { out += ch; continue; }
    j++;
    const arg = args[i++];
    switch (spec) {
      // Node's %s inspects an object at depth 0 (its own toString, which
      // the preview cannot tell, makes the runtime's text differ: the page
      // then shows that text).
      case "s": out += arg !== null && typeof arg === "object" && !["undefined", "bigint", "symbol", "number", "function"].includes(arg.$t) ? new Inspector(0).value(arg, 0) : render(arg, true); break;
      case "d": case "i": case "f": out += numeric(spec, arg); break;
      case "o": case "O": out += render(arg); break;
      case "c": break;
    }
  }
  return [out, ...args.slice(i).map((a) => render(a, true))].join(" ");
}

/**
 * groupDepth reads a log line's console.group nesting from its text: the
 * runtime indents every line of a group by two spaces per level (the wire
 * has no depth field). rendered is what format(args) gives; the depth is
 * the indentation the text has beyond it.
 */
export function groupDepth(text, rendered) {
  const pad = (s) => /^ */.exec(s)[0].length;
  return Math.max(0, Math.floor((pad(text) - pad(rendered)) / 2));
}

/** unindent removes depth levels of group indentation from every line of text. */
export function unindent(text, depth) {
  if (depth === 0) return text;
  const pad = "  ".repeat(depth);
  return text.split("\n").map((l) => (l.startsWith(pad) ? l.slice(pad.length) : l)).join("\n");
}

/**
 * parseTable reads console.table's box-drawn text (┌ … ┘) into a header
 * row and body rows of cell strings, or returns null when text is not one.
 */
export function parseTable(text) {
  const lines = text.split("\n").map((l) => l.trim());
  if (lines.length < 4 || !lines[0].startsWith("┌") || !lines.at(-1).startsWith("└")) return null;
  const rows = lines.filter((l) => l.startsWith("│")).map((l) => l.slice(1, -1).split("│").map((c) => c.trim()));
  if (rows.length === 0) return null;
  return { head: rows[0], body: rows.slice(1) };
}

/** functionText prints a function preview as Node's inspect does: [class A extends B], [AsyncFunction: f], [Function (anonymous)]. */
function functionText(p) {
  if (p.kind === "class") {
    return `[class ${p.name || "(anonymous)"}${p.extends ? ` extends ${p.extends}` : ""}]`;
  }
  const kind = p.kind || "Function";
  return p.name ? `[${kind}: ${p.name}]` : `[${kind} (anonymous)]`;
}
