// Value previews (PROTOCOL.md "Value previews") as console text. This
// module is pure (no DOM) so node's test runner checks it against the Go
// renderer's golden file, sandbox/worker/js/testdata/console.golden
// (static/app/preview.test.mjs); keep it in step with the Go side's
// render and formatLine.

const IDENT = /^[A-Za-z_$\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*$/;

const ESCAPES = { "\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v" };

/** quote prints a nested string as the Go renderer does: single quotes, Go escapes. */
export const quote = (s) =>
  "'" + s.replace(/[\\'\x00-\x1f\x7f]/g, (c) => ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`) + "'";

const list = (open, close, parts) => (parts.length === 0 ? open + close : `${open} ${parts.join(", ")} ${close}`);
const key = (k) => (IDENT.test(k) ? k : quote(k));

// shown counts a collection's items, "... n more" standing for n of them.
const shown = (items) => items.reduce((n, v) => n + (v && v.$t === "more" ? Number(v.count) : 1), 0);

/** isExpandable reports whether a preview has children a tree can show. */
export function isExpandable(p) {
  return p !== null && typeof p === "object" && (Array.isArray(p) || ["object", "array", "map", "set", "error"].includes(p.$t) || !p.$t);
}

/**
 * render prints a preview as one line of console text: strings bare when
 * top is true (a console argument), quoted inside values.
 */
export function render(p, top = false) {
  if (p !== null && typeof p === "object" && p.ref && p.$t !== "circular") return `<ref *${p.ref}> ` + renderValue(p, top);
  return renderValue(p, top);
}

function renderValue(p, top) {
  if (p === null) return "null";
  if (typeof p === "string") return top ? p : quote(p);
  if (typeof p === "number") return formatNumber(p);
  if (typeof p !== "object") return String(p);
  if (Array.isArray(p)) return list("[", "]", p.map((v) => render(v)));
  switch (p.$t) {
    case "undefined": return "undefined";
    case "bigint": return `${p.v}n`;
    case "symbol": case "number": case "regexp": case "date": return p.v;
    case "function": return p.name ? `[Function: ${p.name}]` : "[Function (anonymous)]";
    case "error": {
      const head = p.message ? `${p.name}: ${p.message}` : p.name;
      if (!p.stack) return head;
      return p.stack.startsWith(head) ? p.stack : `${head}\n${p.stack}`;
    }
    case "circular": return p.ref ? `[Circular *${p.ref}]` : `[Circular ${p.path}]`;
    case "revoked": return "<Revoked Proxy>";
    case "more": return `... ${p.count} more`;
    case "empty": return `<${p.count} empty items>`;
    case "getter": return `[${p.label ?? "Getter"}]`;
    case "array": return (p.class ? `${p.class}(${p.length}) ` : "") + list("[", "]", (p.items ?? []).map((v) => render(v)));
    case "boxed": return `[${p.class}: ${render(p.v)}]`;
    case "set": return `Set(${shown(p.values ?? [])}) ` + list("{", "}", (p.values ?? []).map((v) => render(v)));
    case "map": {
      const entries = p.entries ?? [];
      return `Map(${shown(entries)}) ` + list("{", "}", entries.map((e) => (Array.isArray(e) ? `${render(e[0])} => ${render(e[1])}` : render(e))));
    }
    case "object": {
      const props = Object.entries(p.props || {}).map(([k, v]) => (k === "…" ? render(v) : `${key(k)}: ${render(v)}`));
      const head = p.class && p.class !== "Object" ? `${p.class} ` : "";
      return head + (props.length === 0 ? "{}" : list("{", "}", props));
    }
    case undefined: return list("{", "}", Object.entries(p).map(([k, v]) => `${key(k)}: ${render(v)}`));
    default: return `[${p.$t}]`;
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

function formatNumber(n) {
  return Object.is(n, -0) ? "0" : String(n);
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
      case "s": out += render(arg, true); break;
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
