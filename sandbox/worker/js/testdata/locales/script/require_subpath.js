const { formatRelative, format } = require("date-fns");
const ruModule = require("date-fns/locale/ru");
const { ptBR } = require("date-fns/locale/pt-BR");

console.log(Object.keys(ruModule).join(","), ruModule.ru.code, ptBR.code);
const base = new Date(Date.UTC(2024, 5, 12, 9, 0, 0));
for (const n of [-4, -1, 2, 5]) {
  const d = new Date(base.getTime() + n * 864e5);
  console.log(formatRelative(d, base, { locale: ruModule.ru }), "|", formatRelative(d, base, { locale: ptBR }), "|", format(d, "EEEE", { locale: ptBR }));
}
