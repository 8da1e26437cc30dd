import { format } from "date-fns";
import * as locales from "date-fns/locale";

// a locale chosen at run time: the whole module
const d = new Date(Date.UTC(2024, 2, 3, 14, 5, 9));
const names = Object.keys(locales).sort();
console.log(names.length, names.slice(0, 5).join(","), names.includes("enUS"), names.includes("zhTW"), names.filter((n) => !/^[a-z]{2,3}([A-Z][A-Za-z]+)?$/.test(n)).join(","));
for (const code of ["it", "nl", "pl", "sv", "tr", "ko", "uk", "hi", "enUS", "zhTW"]) {
  console.log(code, format(d, "PPPP p", { locale: locales[code] }));
}
