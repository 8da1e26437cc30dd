import { format } from "date-fns";
import { fr, es } from "date-fns/locale";

const dates = [Date.UTC(2024, 0, 1, 0, 0), Date.UTC(2023, 6, 14, 9, 30), Date.UTC(2025, 11, 31, 23, 59, 59)].map((t) => new Date(t));
for (const locale of [fr, es]) {
  for (const d of dates) {
    console.log(locale.code, format(d, "PPPP", { locale }), "|", format(d, "PPPppp", { locale }), "|", format(d, "EEEE do MMMM", { locale }));
  }
}
