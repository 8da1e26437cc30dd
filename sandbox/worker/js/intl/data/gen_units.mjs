// gen_units.mjs records, from Node's ICU, the data of NumberFormat's unit
// style, compact notation, scientific exponent and formatRange for every
// NumberFormat locale (data/units.json.gz). Regenerate (Node 20;
// TestUnitsDataIsFresh runs it and compares):
//
//	cd sandbox/worker/js/intl && node data/gen_units.mjs | gzip -9n > data/units.json.gz
//
// Templates: a part list where ["n"] stands for the number's parts
// (integer, group, decimal, fraction) and ["s"] for the sign; every other
// part is [type, value] as formatToParts gives it (the unit's text, which
// depends on the plural category, included).
// gen.mjs's numberLocales (importing gen.mjs would run it)
const numberLocales = ["en-US", "en-GB", "en-IN", "de-DE", "de-AT", "de-CH", "fr-FR", "es-ES", "es-MX",
  "it-IT", "nl-NL", "pt-BR", "pt-PT", "ja-JP", "zh-CN", "ko-KR", "ru-RU", "pl-PL", "sv-SE", "hi-IN"];

// the sanctioned simple units (ECMA-402 table 2)
const units = Intl.supportedValuesOf("unit");
const samples = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 21, 22, 25, 100, 101, 1000, 1001, 1000000, 0.5, 1.5, 2.5];

function template(parts) {
  const out = [];
  for (const p of parts) {
    let t;
    switch (p.type) {
      case "integer": case "group": case "decimal": case "fraction": t = ["n"]; break;
      case "minusSign": case "plusSign": t = ["s"]; break;
      default: t = [p.type, p.value];
    }
    const last = out[out.length - 1];
    if (t[0] === "n" && last && last[0] === "n") continue;
    out.push(t);
  }
  return out;
}

const out = { icu: process.versions.icu, units, locales: {} };
for (const loc of numberLocales) {
  const pr = new Intl.PluralRules(loc);
  const d = { exponent: "", approx: "", range: "", unit: {}, compact: {}, pluralRanges: {} };
  d.exponent = new Intl.NumberFormat(loc, { notation: "scientific" }).formatToParts(1000).find((p) => p.type === "exponentSeparator").value;
  d.approx = new Intl.NumberFormat(loc).formatRangeToParts(1, 1).find((p) => p.type === "approximatelySign").value;
  d.range = new Intl.NumberFormat(loc).formatRangeToParts(1, 5).find((p) => p.source === "shared").value;
  for (const unit of units) {
    for (const unitDisplay of ["short", "long", "narrow"]) {
      const f = new Intl.NumberFormat(loc, { style: "unit", unit, unitDisplay });
      const byCat = {};
      for (const x of samples) {
        const cat = pr.select(x);
        if (byCat[cat]) continue;
        const neg = f.formatToParts(-x === 0 ? -1e-9 : -x), pos = f.formatToParts(x);
        byCat[cat] = { neg: template(neg), pos: template(pos) };
      }
      d.unit[unit + "/" + unitDisplay] = byCat;
    }
  }
  for (const compactDisplay of ["short", "long"]) {
    const f = new Intl.NumberFormat(loc, { notation: "compact", compactDisplay });
    const list = [];
    for (let e = 0; e <= 14; e++) {
      // 3, not 1: fr and it write exactly one thousand without digits
      // ("mille", CLDR's count="1" pattern, recorded as "=1")
      const parts = f.formatToParts(3 * 10 ** e);
      if (!parts.some((p) => p.type === "compact")) { list.push(null); continue; }
      const digits = parts.filter((p) => p.type === "integer").map((p) => p.value).join("").length;
      const div = e - (digits - 1);
      const cats = {};
      // mantissas of the pattern's width: integers, and halves for the
      // categories only fractions have
      const base = 10 ** (digits - 1);
      const mantissas = Array.from({ length: 30 }, (_, i) => base + i).concat([base + 0.5, base + 1.5, base + 0.25]);
      for (const m of mantissas) {
        const cat = pr.select(m);
        const t = template(f.formatToParts(m * 10 ** div));
        if (!cats[cat] && t.some((p) => p[0] === "n")) cats[cat] = t;
      }
      if (digits === 1) {
        const one = template(f.formatToParts(10 ** div));
        if (!one.some((p) => p[0] === "n")) cats["=1"] = one;
      }
      list.push({ div, cats });
    }
    d.compact[compactDisplay] = list;
  }
  const sorted = samples.slice().sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const k = pr.select(sorted[i]) + "/" + pr.select(sorted[j]);
      if (!(k in d.pluralRanges)) d.pluralRanges[k] = pr.selectRange(sorted[i], sorted[j]);
    }
  }
  out.locales[loc] = d;
}
console.log(JSON.stringify(out));
