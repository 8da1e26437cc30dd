const { format, parse } = require("date-fns");
const locales = require("date-fns/locale");

// a locale chosen by name at run time: the whole module
const d = new Date(Date.UTC(2024, 7, 20, 16, 40, 0));
for (const code of ["ar", "ru", "ja", "de", "fr"]) {
  const locale = locales[code];
  const s = format(d, "PPPP", { locale });
  const back = parse(s, "PPPP", new Date(Date.UTC(2000, 0, 1)), { locale });
  console.log(code, s, isNaN(back) ? "Invalid Date" : back.toISOString());
}
