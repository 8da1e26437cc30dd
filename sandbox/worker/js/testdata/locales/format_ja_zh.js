import { format, eachDayOfInterval } from "date-fns";
import { ja, zhCN } from "date-fns/locale";

const d = new Date(Date.UTC(2024, 1, 29, 18, 45, 0));
for (const locale of [ja, zhCN]) {
  console.log(locale.code, format(d, "PPPP", { locale }), format(d, "PPpp", { locale }), format(d, "Pp", { locale }));
  console.log(locale.code, format(d, "yyyy年M月d日 EEEE aaaa h:mm", { locale }), format(d, "do MMMM QQQ", { locale }));
  const week = eachDayOfInterval({ start: d, end: new Date(Date.UTC(2024, 2, 6)) });
  console.log(locale.code, week.map((x) => format(x, "EEEEEE", { locale })).join(" "));
}
