console.log(Date.parse("2024-01-02"), Date.parse("2024-01-02T03:04:05.678Z"), isNaN(Date.parse("nope")), new Date(8.64e15 + 1).getTime());
