import { startOfWeek, endOfWeek, getWeek, getWeekOfMonth, format } from "date-fns";
import { de, enUS, enGB, ar, fr } from "date-fns/locale";

const d = new Date(Date.UTC(2024, 11, 31, 12, 0, 0));
for (const locale of [de, enUS, enGB, ar, fr]) {
  console.log(
    locale.code,
    JSON.stringify(locale.options),
    startOfWeek(d, { locale }).toISOString(),
    endOfWeek(d, { locale }).toISOString(),
    getWeek(d, { locale }),
    getWeekOfMonth(d, { locale }),
    format(d, "wo 'week', Y", { locale, useAdditionalWeekYearTokens: true }),
  );
}
