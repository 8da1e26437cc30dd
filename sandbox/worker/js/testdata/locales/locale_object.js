import { de, fr, ja, ar } from "date-fns/locale";

console.log(Object.keys(de).join(","), de.code, JSON.stringify(de.options));
console.log(fr.localize.month(0), fr.localize.month(0, { width: "abbreviated" }), fr.localize.day(1, { width: "short" }), fr.localize.ordinalNumber(1, { unit: "month" }));
console.log(ja.localize.era(1, { width: "wide" }), ja.localize.dayPeriod("pm", { width: "wide" }), ja.formatLong.date({ width: "full" }));
console.log(ar.localize.ordinalNumber(3), ar.formatDistance("xDays", 3, { addSuffix: true, comparison: 1 }), ar.match.month("يناير", { width: "wide" }).value);
