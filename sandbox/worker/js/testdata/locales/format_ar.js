import { format, formatDistance } from "date-fns";
import { ar } from "date-fns/locale";

const d = new Date(Date.UTC(2024, 8, 15, 7, 3, 0));
console.log(format(d, "PPPP", { locale: ar }));
console.log(format(d, "PPpp", { locale: ar }));
console.log(format(d, "EEEE d MMMM yyyy a", { locale: ar }));
for (const days of [1, 2, 3, 11, 100]) {
  console.log(days, formatDistance(d, new Date(d.getTime() + days * 864e5), { locale: ar, addSuffix: true }));
}
