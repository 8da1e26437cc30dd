console.log((1234567.891).toLocaleString("de-DE"), (1234.5).toLocaleString("en-US"), (1234.5).toLocaleString("fr-FR"), (1234.5).toLocaleString("en-IN"));
