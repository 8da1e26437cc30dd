const sci = new Intl.NumberFormat("en-US", { notation: "scientific" });
const eng = new Intl.NumberFormat("en-US", { notation: "engineering" });
for (const n of [0, 1, 123456, 0.000123, -98765.4321, 9.9996, 999999, 1e21, 1.5e-10]) {
  console.log(n, sci.format(n), eng.format(n));
}
console.log(new Intl.NumberFormat("de-DE", { notation: "scientific", maximumFractionDigits: 1 }).format(123456));
console.log(new Intl.NumberFormat("en-US", { notation: "scientific", maximumSignificantDigits: 2 }).format(0.0456));
console.log(new Intl.NumberFormat("fr-FR", { notation: "engineering", minimumFractionDigits: 2 }).format(-1234567));
console.log(JSON.stringify(sci.formatToParts(-0.00123)));
console.log(sci.resolvedOptions().notation, (12345).toLocaleString("en-US", { notation: "scientific" }));
