console.log(typeof Intl, Intl.DateTimeFormat().resolvedOptions().timeZone);
console.log(new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(1234.5));
console.log(new Intl.NumberFormat("de-DE").format(1234567.891), (1234.5).toLocaleString("fr-FR"));
console.log(new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeZone: "UTC" }).format(new Date(0)));
console.log(new Date(0).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }));
console.log(["b", "a", "C"].sort(new Intl.Collator("en").compare), new Intl.PluralRules("en", { type: "ordinal" }).select(22));
console.log(new Intl.ListFormat("en", { type: "conjunction" }).format(["a", "b", "c"]), new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(-1, "day"));
console.log(new Intl.NumberFormat("en", { notation: "compact" }).format(1234567), 12345678901234567890n.toLocaleString("en-US"));
console.log(new Date(0).toLocaleString("en-US", { timeZone: "UTC" }), new Date(0).toLocaleString());
