import { format } from "date-fns";
import ru from "date-fns/locale/ru";
import { ru as named } from "date-fns/locale/ru";

console.log(ru === named, ru.code);
const d = new Date(Date.UTC(2024, 4, 9, 10, 0, 0));
for (const f of ["PPPP", "PPpp", "d MMMM yyyy", "LLLL", "EEEE", "do MMMM", "QQQQ"]) {
  console.log(f, "→", format(d, f, { locale: ru }));
}
