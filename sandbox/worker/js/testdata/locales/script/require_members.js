const df = require("date-fns");
const locales = require("date-fns/locale");

const d = new Date(Date.UTC(2024, 7, 20, 16, 40, 0));
console.log(df.format(d, "PPPPpppp", { locale: locales.enGB }));
console.log(df.format(d, "PPPP", { locale: locales.es }), "|", df.format(d, "PPPP", { locale: locales.zhCN }));
console.log(df.formatDistanceStrict(d, new Date(Date.UTC(2024, 7, 1)), { locale: locales.fr, addSuffix: true }));
