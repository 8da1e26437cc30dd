// gen_ranges.mjs records, from Node's ICU, DateTimeFormat.formatRange's
// patterns (ICU's interval formats) for the date locales: for each
// option set, the range of the reference instant to an instant that
// differs from it first in the year, month, day, half of the day, hour,
// minute or second (data/ranges-LOCALE.txt.gz). Regenerate (Node 20;
// TestRangesDataIsFresh runs it and compares):
//
//	cd sandbox/worker/js/intl && TZ=UTC node data/gen_ranges.mjs [OUTDIR [EVERY]]
//
// With EVERY, only every EVERY-th component combination is recorded (the
// test samples; the full run takes Node about 20 s of CPU).
//
// The option sets: dateStyle and timeStyle, and every combination of
// weekday (long, short), year, month (numeric, 2-digit, long, short), day,
// hour, minute and second, in the hour cycles h12 and h23 — keyed as
// data/gen.mjs keys them, then "|" and the level (y M d a h m s). A
// pattern is gen.mjs's, each part's field marked by its source: "{@s}"
// starts the start date's parts, "{@e}" the end date's (whose fields are
// the end date's), "{@x}" shared parts.
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const dir = process.argv[2] ? process.argv[2].replace(/\/?$/, "/") : new URL(".", import.meta.url).pathname;
const every = Number(process.argv[3] ?? 1);
let combination = 0;
const dateLocales = ["en-US", "en-GB", "de-DE"];
const ref = Date.UTC(2006, 0, 5, 3, 4, 6);
const ends = {
  y: Date.UTC(2007, 1, 6, 4, 5, 7), M: Date.UTC(2006, 1, 6, 4, 5, 7), d: Date.UTC(2006, 0, 6, 4, 5, 7),
  a: Date.UTC(2006, 0, 5, 15, 5, 7), h: Date.UTC(2006, 0, 5, 4, 5, 7), m: Date.UTC(2006, 0, 5, 3, 5, 7), s: Date.UTC(2006, 0, 5, 3, 4, 7),
};

// names is gen.mjs's: the month, weekday and day period names.
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
      for (let i = 0; i < 7; i++) {
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

// token names a part: its field and width, found from its value for the
// instant ms (a numeric field's width from the start date's, which an end
// date's 15 or 2007 cannot show).
function token(p, ms, t, widths) {
  const d = new Date(ms);
  const v = p.value;
  const num = (n) => {
    if (v === String(n) && (n >= 10 ? widths[p.type] !== "2-digit" : true) && !(n < 10 && v.length === 2)) return p.type + ".numeric";
    if (v === String(n % 100).padStart(2, "0")) return p.type + ".2-digit";
    if (v === String(n)) return p.type + "." + (widths[p.type] ?? "numeric");
    throw new Error(`${p.type} ${v} for ${n}`);
  };
  switch (p.type) {
    case "year": return num(d.getUTCFullYear());
    case "day": return num(d.getUTCDate());
    case "minute": return num(d.getUTCMinutes());
    case "second": return num(d.getUTCSeconds());
    case "hour": {
      const h = d.getUTCHours();
      for (const c of [h, h % 12 || 12, h % 12]) {
        try { return num(c); } catch { /* another cycle */ }
      }
      throw new Error(`hour ${v}`);
    }
    case "month": {
      const m = d.getUTCMonth();
      if (v === String(m + 1)) return "month.numeric";
      if (v === String(m + 1).padStart(2, "0")) return "month.2-digit";
      for (const k of ["month.long", "month.short", "month.narrow", "month.long.alone", "month.short.alone", "month.narrow.alone"]) {
        if (t[k][m] === v) return k;
      }
      break;
    }
    case "weekday":
      for (const k of ["weekday.long", "weekday.short", "weekday.narrow", "weekday.long.alone", "weekday.short.alone", "weekday.narrow.alone"]) {
        if (t[k][d.getUTCDay()] === v) return k;
      }
      break;
    case "dayPeriod":
      if (v === t.dayPeriod[d.getUTCHours() < 12 ? 0 : 1]) return "dayPeriod";
      break;
    case "timeZoneName":
      if (v === t.utc[0]) return "timeZoneName.short";
      if (v === t.utc[1]) return "timeZoneName.long";
      break;
  }
  throw new Error(`unexpected ${p.type} ${v}`);
}

function rangePattern(loc, opts, t, level) {
  const parts = new Intl.DateTimeFormat(loc, { timeZone: "UTC", ...opts }).formatRangeToParts(ref, ends[level]);
  const widths = {};
  for (const p of parts) {
    if (p.source !== "endRange" && ["year", "day", "hour", "minute", "second"].includes(p.type)) {
      widths[p.type] ??= token(p, ref, t, {}).split(".")[1];
    }
  }
  let source = "";
  let out = "";
  for (const p of parts) {
    const s = { startRange: "s", endRange: "e", shared: "x" }[p.source];
    if (s !== source) {
      out += "{@" + s + "}";
      source = s;
    }
    out += p.type === "literal" ? p.value.replaceAll("{", "{{") : "{" + token(p, s === "e" ? ends[level] : ref, t, widths) + "}";
  }
  return out;
}

const code = { numeric: "n", "2-digit": "2", long: "l", short: "s", narrow: "N" };
const choices = {
  weekday: [undefined, "long", "short"],
  year: [undefined, "numeric", "2-digit"],
  month: [undefined, "numeric", "2-digit", "long", "short"],
  day: [undefined, "numeric", "2-digit"],
  hour: [undefined, "numeric", "2-digit"],
  minute: [undefined, "numeric", "2-digit"],
  second: [undefined, "numeric", "2-digit"],
};
const fields = Object.keys(choices);
for (const loc of dateLocales) {
  const t = names(loc);
  const lines = [];
  const record = (key, opts) => {
    for (const level of Object.keys(ends)) lines.push(key + "|" + level + "\t" + rangePattern(loc, opts, t, level));
  };
  const walk = (i, opts) => {
    if (i === fields.length) {
      if (!fields.some((f) => opts[f]) || combination++ % every !== 0) return;
      const key = fields.map((f) => (opts[f] ? code[opts[f]] : "-")).join("") + "-"; // no timeZoneName
      if (!opts.hour) return record(key + "-", opts);
      record(key + "h", { ...opts, hourCycle: "h12" });
      record(key + "H", { ...opts, hourCycle: "h23" });
      return;
    }
    for (const v of choices[fields[i]]) walk(i + 1, v ? { ...opts, [fields[i]]: v } : opts);
  };
  walk(0, {});
  const styles = [undefined, "full", "long", "medium", "short"];
  for (const ds of styles) {
    for (const ts of styles) {
      if (!ds && !ts) continue;
      const key = `style:${ds ?? "-"}:${ts ?? "-"}:`;
      if (!ts) {
        record(key + "-", { dateStyle: ds });
        continue;
      }
      record(key + "h", { dateStyle: ds, timeStyle: ts, hourCycle: "h12" });
      record(key + "H", { dateStyle: ds, timeStyle: ts, hourCycle: "h23" });
    }
  }
  // indexed as gen.mjs does: distinct patterns once, keys by number
  const index = new Map();
  const keys = [];
  for (const l of lines) {
    const i = l.indexOf("\t");
    const p = l.slice(i + 1);
    if (!index.has(p)) index.set(p, index.size);
    keys.push(l.slice(0, i) + "\t" + index.get(p));
  }
  writeFileSync(dir + "ranges-" + loc + ".txt.gz", gzipSync([...[...index.keys()].map((p) => "=" + p), ...keys].join("\n") + "\n", { level: 9 }));
}
