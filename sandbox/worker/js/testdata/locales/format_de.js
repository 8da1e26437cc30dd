import { format } from "date-fns";
import { de } from "date-fns/locale";

const d = new Date(Date.UTC(2024, 2, 3, 14, 5, 9));
for (const f of ["PPPP", "PPpp", "P p", "EEEE, d. MMMM yyyy", "EEEEE MMMMM", "LLLL LLL", "cccc ccc", "QQQQ", "a aaaa b B", "do 'Tag'"]) {
  console.log(f, "→", format(d, f, { locale: de }));
}
