console.log({ get a() { return 1; }, set b(v) {}, get c() { return 2; }, set c(v) {} });
