import { formatDuration, intervalToDuration } from "date-fns";
import { de, es, ru, ar, zhCN } from "date-fns/locale";

const duration = intervalToDuration({ start: new Date(Date.UTC(2020, 0, 1)), end: new Date(Date.UTC(2024, 6, 4, 5, 6, 7)) });
console.log(JSON.stringify(duration));
for (const locale of [de, es, ru, ar, zhCN]) {
  console.log(locale.code, formatDuration(duration, { locale }));
  console.log(locale.code, formatDuration({ days: 1, hours: 2 }, { locale, delimiter: " / " }));
  console.log(locale.code, formatDuration({ months: 5, minutes: 0 }, { locale, zero: true, format: ["months", "minutes"] }));
}
