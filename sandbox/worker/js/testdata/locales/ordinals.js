import { format } from "date-fns";
import { enGB, fr, es, de, ja, zhCN, ru, ptBR } from "date-fns/locale";

const days = [1, 2, 3, 11, 22, 31].map((n) => new Date(Date.UTC(2024, 0, n)));
for (const locale of [enGB, fr, es, de, ja, zhCN, ru, ptBR]) {
  console.log(locale.code, days.map((d) => format(d, "do", { locale })).join(" "), "|", format(days[0], "Qo Mo wo", { locale }));
}
