console.log((1234567.891).toLocaleString(), (0.5).toLocaleString(), (-1234).toLocaleString(), (1e21).toLocaleString(), NaN.toLocaleString());
