import { formatRelative } from "date-fns";
import { de, fr, ru, zhCN, ptBR, enGB, ar } from "date-fns/locale";

// a Wednesday; days around it reach every token (lastWeek … nextWeek, other)
const base = new Date(Date.UTC(2024, 5, 12, 9, 0, 0));
const days = [-9, -6, -3, -1, 0, 1, 3, 6, 10];
for (const locale of [de, fr, ru, zhCN, ptBR, enGB, ar]) {
  console.log(locale.code, days.map((n) => formatRelative(new Date(base.getTime() + n * 864e5 + 5 * 36e5), base, { locale })).join(" | "));
}
