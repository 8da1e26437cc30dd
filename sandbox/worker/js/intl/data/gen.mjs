// gen.mjs records, from Node's ICU, the locale data package intl formats
// with: number symbols and patterns, currency patterns, list and relative
// time patterns (data/data.json), and every date-time pattern the
// supported DateTimeFormat options can select (data/dates-LOCALE.txt).
//
// Regenerate (Node 20; TestDataIsFresh runs it into a temporary directory
// and checks the output equals the committed files):
//
//	cd sandbox/worker/js/intl && TZ=UTC node data/gen.mjs [OUTDIR [EVERY]]
//
// With EVERY, only every EVERY-th component combination's pattern is
// recorded (the test samples; the full run takes Node about 13 s of CPU).
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const every = Number(process.argv[3] ?? 1);
let combination = 0;
const dir = process.argv[2] ? process.argv[2].replace(/\/?$/, "/") : new URL(".", import.meta.url).pathname;

export const numberLocales = ["en-US", "en-GB", "en-IN", "de-DE", "de-AT", "de-CH", "fr-FR", "es-ES", "es-MX",
  "it-IT", "nl-NL", "pt-BR", "pt-PT", "ja-JP", "zh-CN", "ko-KR", "ru-RU", "pl-PL", "sv-SE", "hi-IN"];
export const currencies = ["USD", "EUR", "GBP", "JPY", "INR", "CNY", "CAD", "AUD", "CHF", "MXN", "BRL", "KRW",
  "SEK", "PLN", "RUB", "NZD", "HKD", "SGD"];
export const dateLocales = ["en-US", "en-GB", "de-DE"];
export const listLocales = ["en-US", "en-GB", "en-IN", "de-DE", "de-AT", "de-CH", "fr-FR", "nl-NL", "pt-BR", "pt-PT", "sv-SE"];
export const rtfLocales = ["en-US", "en-GB", "en-IN", "de-DE", "de-AT", "de-CH"];

// template renders formatToParts as a pattern: {n} the number, {s} the sign
// ("-" or "+"), {c} the currency, {p} the percent sign; other parts are
// literal ("{{" a literal "{").
function template(parts) {
  return parts.map((p) => {
    switch (p.type) {
      case "minusSign": case "plusSign": return "{s}";
      case "integer": case "group": case "decimal": case "fraction": return "{n}";
      case "currency": return "{c}";
      case "percentSign": return "{p}";
      default: return p.value.replaceAll("{", "{{");
    }
  }).join("").replace(/(\{n\})+/g, "{n}");
}

const numbers = {};
for (const loc of numberLocales) {
  const nf = new Intl.NumberFormat(loc);
  const p = nf.formatToParts(1234567.5);
  const d = {
    decimal: p.find((x) => x.type === "decimal").value,
    group: p.find((x) => x.type === "group").value,
    minGrouping: new Intl.NumberFormat(loc).formatToParts(1234).some((x) => x.type === "group") ? 1 : 2,
    indian: new Intl.NumberFormat(loc).formatToParts(12345678).filter((x) => x.type === "integer").length === 4,
    minus: nf.formatToParts(-1).find((x) => x.type === "minusSign").value,
    plus: new Intl.NumberFormat(loc, { signDisplay: "always" }).formatToParts(1).find((x) => x.type === "plusSign").value,
    infinity: nf.format(Infinity),
    nan: nf.format(NaN),
    percent: template(new Intl.NumberFormat(loc, { style: "percent" }).formatToParts(-0.5)),
    percentPositive: template(new Intl.NumberFormat(loc, { style: "percent" }).formatToParts(0.5)),
    percentSign: new Intl.NumberFormat(loc, { style: "percent" }).formatToParts(0.5).find((x) => x.type === "percentSign").value,
    currency: {},
  };
  for (const c of currencies) {
    for (const display of ["symbol", "narrowSymbol", "code"]) {
      const f = new Intl.NumberFormat(loc, { style: "currency", currency: c, currencyDisplay: display });
      const parts = f.formatToParts(-1234.5);
      d.currency[c + "/" + display] = {
        pattern: template(parts), positive: template(f.formatToParts(1234.5)), symbol: parts.find((x) => x.type === "currency").value,
        // ICU's monetary separators (de-AT groups amounts with ".", numbers with U+00A0)
        group: f.formatToParts(-1234567.5).find((x) => x.type === "group").value, decimal: parts.find((x) => x.type === "decimal")?.value ?? "",
      };
    }
  }
  numbers[loc] = d;
}
const currencyDigits = {};
for (const c of currencies) {
  currencyDigits[c] = new Intl.NumberFormat("en", { style: "currency", currency: c }).resolvedOptions().maximumFractionDigits;
}

const lists = {};
for (const loc of listLocales) {
  const d = {};
  for (const type of ["conjunction", "disjunction", "unit"]) {
    for (const style of ["long", "short", "narrow"]) {
      const lf = new Intl.ListFormat(loc, { type, style });
      const lit = (n) => lf.formatToParts(Array.from({ length: n }, (_, i) => "x" + i)).filter((x) => x.type === "literal").map((x) => x.value);
      const [pair] = lit(2);
      const [start, end] = lit(3);
      const middle = lit(4)[1];
      d[type + "/" + style] = { pair, start, middle, end };
    }
  }
  lists[loc] = d;
}

const units = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"];
const rtf = {};
for (const loc of rtfLocales) {
  const d = {};
  for (const style of ["long", "short", "narrow"]) {
    for (const unit of units) {
      const f = new Intl.RelativeTimeFormat(loc, { style });
      const pat = (v) => template(f.formatToParts(v, unit).map((x) => (x.type === "literal" ? x : { type: "integer", value: "" })));
      const a = new Intl.RelativeTimeFormat(loc, { style, numeric: "auto" });
      const auto = {};
      for (const v of [-2, -1, 0, 1, 2]) {
        const s = a.format(v, unit);
        if (!/\d/.test(s)) auto[v] = s;
      }
      d[style + "/" + unit] = { pastOne: pat(-1), pastOther: pat(-3), futureOne: pat(1), futureOther: pat(3), auto };
    }
  }
  rtf[loc] = d;
}

writeFileSync(dir + "data.json", JSON.stringify({ icu: process.versions.icu, numbers, currencyDigits, lists, rtf }, null, 1) + "\n");

// Dates. The reference instant Thu 2006-01-05 03:04:06 UTC makes every
// numeric field's width visible ("5" or "05"); the names come from tables.
const ref = Date.UTC(2006, 0, 5, 3, 4, 6);
function names(loc) {
  const t = {};
  const month = (opts, key) => {
    t[key] = [];
    for (let m = 0; m < 12; m++) {
      const parts = new Intl.DateTimeFormat(loc, { timeZone: "UTC", ...opts }).formatToParts(Date.UTC(2006, m, 5));
      t[key].push(parts.find((x) => x.type === "month").value);
    }
  };
  for (const w of ["long", "short", "narrow"]) {
    month({ month: w }, "month." + w + ".alone");
    month({ month: w, day: "numeric" }, "month." + w);
    for (const [key, opts] of [["weekday." + w, { weekday: w, day: "numeric" }], ["weekday." + w + ".alone", { weekday: w }]]) {
      t[key] = [];
      for (let i = 0; i < 7; i++) { // Sunday first
        const parts = new Intl.DateTimeFormat(loc, { timeZone: "UTC", ...opts }).formatToParts(Date.UTC(2006, 0, 1 + i));
        t[key].push(parts.find((x) => x.type === "weekday").value);
      }
    }
  }
  const dp = (h) => new Intl.DateTimeFormat(loc, { timeZone: "UTC", hour: "numeric", hour12: true }).formatToParts(Date.UTC(2006, 0, 5, h)).find((x) => x.type === "dayPeriod").value;
  t.dayPeriod = [dp(3), dp(15)];
  const tz = (w) => new Intl.DateTimeFormat(loc, { timeZone: "UTC", timeZoneName: w }).formatToParts(ref).find((x) => x.type === "timeZoneName").value;
  t.utc = [tz("short"), tz("long")];
  return t;
}

function pattern(loc, opts, t) {
  const parts = new Intl.DateTimeFormat(loc, { timeZone: "UTC", ...opts }).formatToParts(ref);
  return parts.map((p) => {
    const v = p.value;
    const num = (one, two) => {
      if (v === one) return "{" + p.type + ".numeric}";
      if (v === two) return "{" + p.type + ".2-digit}";
      throw new Error(`${loc} ${JSON.stringify(opts)}: ${p.type} ${v}`);
    };
    switch (p.type) {
      case "literal": return v.replaceAll("{", "{{");
      case "year": return num("2006", "06");
      case "day": return num("5", "05");
      case "hour": return num("3", "03"); // 3 in every cycle at 03:04
      case "minute": return num("4", "04");
      case "second": return num("6", "06");
      case "month": {
        if (v === "1") return "{month.numeric}";
        if (v === "01") return "{month.2-digit}";
        for (const k of ["month.long", "month.short", "month.narrow", "month.long.alone", "month.short.alone", "month.narrow.alone"]) {
          if (t[k][0] === v) return "{" + k + "}";
        }
        break;
      }
      case "weekday":
        for (const k of ["weekday.long", "weekday.short", "weekday.narrow", "weekday.long.alone", "weekday.short.alone", "weekday.narrow.alone"]) {
          if (t[k][4] === v) return "{" + k + "}";
        }
        break;
      case "dayPeriod":
        if (v === t.dayPeriod[0]) return "{dayPeriod}";
        break;
      case "timeZoneName":
        if (v === t.utc[0]) return "{timeZoneName.short}";
        if (v === t.utc[1]) return "{timeZoneName.long}";
        break;
    }
    throw new Error(`${loc} ${JSON.stringify(opts)}: unexpected ${p.type} ${v}`);
  }).join("");
}

// The key of a component combination: one character a field in the order
// weekday year month day hour minute second timeZoneName hourCycle;
// "-" absent, "n" numeric, "2" 2-digit, "l" long, "s" short, "N" narrow;
// the hour cycle "h" (h12), "H" (h23), "K" (h11), "k" (h24) or "-"
// without an hour.
const code = { numeric: "n", "2-digit": "2", long: "l", short: "s", narrow: "N" };
const choices = {
  weekday: [undefined, "long", "short", "narrow"],
  year: [undefined, "numeric", "2-digit"],
  month: [undefined, "numeric", "2-digit", "long", "short", "narrow"],
  day: [undefined, "numeric", "2-digit"],
  hour: [undefined, "numeric", "2-digit"],
  minute: [undefined, "numeric", "2-digit"],
  second: [undefined, "numeric", "2-digit"],
  timeZoneName: [undefined, "short"],
};
// indexed writes the distinct patterns once ("=PATTERN" lines, numbered
// from 0) and each key with its pattern's number ("KEY\tN"); the names
// lines are as they are. (About 7,000 patterns serve 25,000 keys: the
// file inflates to 0.8 MB instead of 2.2.) A sampled run (EVERY > 1)
// writes "KEY\tPATTERN" lines instead.
function indexed(lines) {
  const index = new Map();
  const keys = [];
  const names = [];
  for (const l of lines) {
    if (l.startsWith("names:")) {
      names.push(l);
      continue;
    }
    const [k, p] = [l.slice(0, l.indexOf("\t")), l.slice(l.indexOf("\t") + 1)];
    if (!index.has(p)) index.set(p, index.size);
    keys.push(k + "\t" + index.get(p));
  }
  return [...[...index.keys()].map((p) => "=" + p), ...keys, ...names].join("\n") + "\n";
}

// cycles records a pattern for each hour cycle: "h" h12, "H" h23, and "K"
// h11 and "k" h24 only where they differ from h12 and h23.
function cycles(lines, key, pat) {
  const p12 = pat("h12"), p23 = pat("h23"), p11 = pat("h11"), p24 = pat("h24");
  lines.push(key + "h\t" + p12, key + "H\t" + p23);
  if (p11 !== p12) lines.push(key + "K\t" + p11);
  if (p24 !== p23) lines.push(key + "k\t" + p24);
}

for (const loc of dateLocales) {
  const t = names(loc);
  const lines = [];
  const fields = Object.keys(choices);
  const walk = (i, opts) => {
    if (i === fields.length) {
      const any = fields.slice(0, 7).some((f) => opts[f]);
      if (!any || combination++ % every !== 0) return;
      const key = fields.map((f) => (opts[f] ? code[opts[f]] : "-")).join("");
      if (!opts.hour) {
        lines.push(key + "-\t" + pattern(loc, opts, t));
        return;
      }
      cycles(lines, key, (hc) => pattern(loc, { ...opts, hourCycle: hc }, t));
      return;
    }
    for (const v of choices[fields[i]]) walk(i + 1, v ? { ...opts, [fields[i]]: v } : opts);
  };
  walk(0, {});
  const styles = [undefined, "full", "long", "medium", "short"];
  for (const ds of styles) {
    for (const ts of styles) {
      if (!ds && !ts) continue;
      const o = { dateStyle: ds, timeStyle: ts };
      if (!ts) {
        lines.push(`style:${ds}:-:-\t${pattern(loc, o, t)}`);
        continue;
      }
      cycles(lines, `style:${ds ?? "-"}:${ts}:`, (hc) => pattern(loc, { ...o, hourCycle: hc }, t));
    }
  }
  for (const [k, v] of Object.entries(t)) lines.push(`names:${k}\t${v.join("\t")}`);
  writeFileSync(dir + `dates-${loc}.txt.gz`, gzipSync(every === 1 ? indexed(lines) : lines.join("\n") + "\n", { level: 9 }));
}
