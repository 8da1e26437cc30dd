const { format, formatDistance } = require("date-fns");
const { de, ja } = require("date-fns/locale");

const d = new Date(Date.UTC(2024, 2, 3, 14, 5, 9));
console.log(format(d, "PPPP", { locale: de }), "|", format(d, "PPPP", { locale: ja }));
console.log(formatDistance(d, new Date(Date.UTC(2024, 5, 1)), { locale: de, addSuffix: true }), "|", formatDistance(d, new Date(Date.UTC(2024, 5, 1)), { locale: ja, addSuffix: true }));
