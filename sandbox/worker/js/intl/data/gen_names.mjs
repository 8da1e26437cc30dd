// gen_names.mjs records, from Node's ICU, Intl.DisplayNames' names for
// every NumberFormat locale (data/names.json.gz): regions, scripts,
// currencies and languages in the styles long, short and narrow (short
// and narrow only where they differ from long), the dialect names (each
// style whole)
// (languageDisplay "dialect": "American English" for en-US, where the
// standard form is "English (United States)"), and the pattern that
// composes a language with its script and region. Regenerate (Node 20;
// TestNamesDataIsFresh runs it and compares):
//
//	cd sandbox/worker/js/intl && node data/gen_names.mjs | gzip -9n > data/names.json.gz
//
// With LOCALE arguments, only those locales are recorded (the test's
// sample; the full run takes Node about a minute of CPU).
//
// The codes are those ICU names in English (every two-letter and
// three-digit region, four-letter script, three-letter currency and two-
// or three-letter language tried with fallback "none").
const all = ["en-US", "en-GB", "en-IN", "de-DE", "de-AT", "de-CH", "fr-FR", "es-ES", "es-MX",
  "it-IT", "nl-NL", "pt-BR", "pt-PT", "ja-JP", "zh-CN", "ko-KR", "ru-RU", "pl-PL", "sv-SE", "hi-IN"];
const locales = process.argv.length > 2 ? process.argv.slice(2) : all;
const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", a = A.toLowerCase();
const known = (type, codes) => {
  const dn = new Intl.DisplayNames("en", { type, fallback: "none" });
  return codes.filter((c) => dn.of(c) !== undefined);
};
const two = [...A].flatMap((x) => [...A].map((y) => x + y));
const codes = {
  region: known("region", [...two, ...Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"))]),
  script: known("script", [...A].flatMap((x) => [...a].flatMap((y) => [...a].flatMap((z) => [...a].map((w) => x + y + z + w))))),
  currency: known("currency", [...A].flatMap((x) => two.map((y) => x + y))),
  language: known("language", [...two.map((c) => c.toLowerCase()), ...[...a].flatMap((x) => [...a].flatMap((y) => [...a].map((z) => x + y + z)))]).filter((c) => c !== "und"),
};
const dialectRegions = codes.region.filter((r) => r.length === 2 || ["001", "419", "150"].includes(r));
const out = { icu: process.versions.icu, locales: {} };
for (const loc of locales) {
  const d = { pattern: "", separator: "" };
  for (const type of ["region", "script", "currency", "language"]) {
    const names = {};
    for (const style of ["long", "short", "narrow"]) {
      const dn = new Intl.DisplayNames(loc, { type, style, fallback: "none", languageDisplay: "standard" });
      const m = {};
      for (const c of codes[type]) {
        const v = dn.of(c);
        if (v !== undefined && (style === "long" || v !== names.long[c])) m[c] = v;
      }
      names[style] = m;
    }
    d[type] = names;
  }
  // the composition: "{0} ({1})" and ", " in English
  const std = new Intl.DisplayNames(loc, { type: "language", languageDisplay: "standard" });
  const full = std.of("en-Latn-US"), lang = d.language.long.en, script = d.script.long.Latn, region = d.region.long.US;
  const i = full.indexOf(script), j = full.indexOf(region);
  if (!full.startsWith(lang) || i < 0 || j < i) throw new Error(`${loc}: cannot read the pattern of ${full}`);
  d.pattern = "{0}" + full.slice(lang.length, i) + "{1}" + full.slice(j + region.length);
  d.separator = full.slice(i + script.length, j);
  // dialect names of language-region and language-script tags
  d.dialect = {};
  for (const style of ["long", "short", "narrow"]) {
    const dia = new Intl.DisplayNames(loc, { type: "language", style, fallback: "none" });
    const sta = new Intl.DisplayNames(loc, { type: "language", style, fallback: "none", languageDisplay: "standard" });
    const m = {};
    // every two-letter language with every region and script; the
    // three-letter ones with the regions CLDR's dialect names use
    const some = ["NL", "001", "419", "US", "GB", "DE", "CH", "AT", "CA", "MX", "BR", "PT", "ES", "FR", "BE", "CD", "AF", "MD", "IN", "CN", "TW", "HK"];
    for (const l of codes.language) {
      for (const q of l.length === 2 ? [...dialectRegions, ...codes.script] : some) {
        const tag = l + "-" + q;
        const v = dia.of(tag);
        if (v !== undefined && v !== sta.of(tag)) m[tag] = v; // every style whole
      }
    }
    d.dialect[style] = m;
  }
  out.locales[loc] = d;
}
console.log(JSON.stringify(out));
