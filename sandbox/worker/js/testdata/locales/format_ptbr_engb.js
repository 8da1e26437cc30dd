import { format, formatRelative } from "date-fns";
import { ptBR } from "date-fns/locale/pt-BR";
import { enGB } from "date-fns/locale/en-GB";

const d = new Date(Date.UTC(2024, 9, 31, 20, 15, 0));
const base = new Date(Date.UTC(2024, 10, 2, 12, 0, 0));
for (const locale of [ptBR, enGB]) {
  console.log(locale.code, format(d, "PPPP", { locale }), "|", format(d, "P p", { locale }), "|", format(d, "do MMMM", { locale }));
  console.log(locale.code, formatRelative(d, base, { locale }));
}
