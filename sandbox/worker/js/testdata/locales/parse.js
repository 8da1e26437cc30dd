import { parse, isValid } from "date-fns";
import { de, fr, es, ru, ja, ptBR } from "date-fns/locale";

const ref = new Date(Date.UTC(2000, 0, 1));
const cases = [
  ["3. März 2024", "d. MMMM yyyy", de],
  ["Sonntag, 3. März 2024 um 14:05", "EEEE, d. MMMM yyyy 'um' HH:mm", de],
  ["14 juillet 2023", "d MMMM yyyy", fr],
  ["lundi 1 janv. 2024", "EEEE d MMM yyyy", fr],
  ["31 de diciembre de 2025", "d 'de' MMMM 'de' yyyy", es],
  ["9 мая 2024 г.", "d MMMM yyyy 'г.'", ru],
  ["2024年2月29日", "yyyy年M月d日", ja],
  ["31 de outubro de 2024", "d 'de' MMMM 'de' yyyy", ptBR],
  ["1er avril 2024", "do MMMM yyyy", fr],
  ["3. Märzz 2024", "d. MMMM yyyy", de],
];
for (const [s, f, locale] of cases) {
  const d = parse(s, f, ref, { locale });
  console.log(locale.code, JSON.stringify(s), isValid(d) ? d.toISOString() : "Invalid Date");
}
