const d = new Date(Date.UTC(2024, 1, 29, 13, 5, 9, 7));
console.log(d.toISOString(), d.getUTCDay(), d.valueOf(), new Date("2024-03-10T00:00:00Z").getTime(), Date.UTC(1970, 0, 1));
