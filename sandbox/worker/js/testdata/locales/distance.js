import { formatDistance, formatDistanceStrict, formatDistanceToNowStrict } from "date-fns";
import { de, fr, ja, ru, es } from "date-fns/locale";

const base = new Date(Date.UTC(2024, 0, 15, 12, 0, 0));
const offsets = [30e3, 45 * 60e3, 5 * 36e5, 26 * 36e5, 12 * 864e5, 45 * 864e5, 400 * 864e5, 5 * 365 * 864e5];
for (const locale of [de, fr, ja, ru, es]) {
  console.log(locale.code, offsets.map((o) => formatDistance(new Date(base.getTime() + o), base, { locale })).join(" | "));
  console.log(locale.code, offsets.map((o) => formatDistance(new Date(base.getTime() - o), base, { locale, addSuffix: true, includeSeconds: true })).join(" | "));
  console.log(locale.code, [1, 2, 5, 21, 22].map((n) => formatDistanceStrict(new Date(base.getTime() + n * 864e5), base, { locale, unit: "day" })).join(" | "));
}
console.log(typeof formatDistanceToNowStrict);
