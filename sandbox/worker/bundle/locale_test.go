package bundle

import (
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
)

// TestLocaleUsage: a run that names one date-fns locale, in any of the
// ways Node code imports one, uses that locale of date-fns/locale only, and
// a locale module does not count as a name of date-fns itself.
func TestLocaleUsage(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, src, locales, dateFns string }{
		{"named", "import { format } from 'date-fns';\nimport { de } from 'date-fns/locale';\nformat(d, 'PPPP', { locale: de });", "de", "format"},
		{"several", "import { de, zhCN, ptBR } from \"date-fns/locale\";", "de,ptBR,zhCN", "none"},
		{"module, default import", "import de from 'date-fns/locale/de';", "de", "none"},
		{"module, named import, .js", "import { zhCN } from 'date-fns/locale/zh-CN.js';", "zhCN", "none"},
		{"namespace by member", "import * as L from 'date-fns/locale';\nL.fr.code;", "fr", "none"},
		{"namespace by computed name", "import * as L from 'date-fns/locale';\nL[code];", "whole", "none"},
		{"require destructured", "const { format } = require('date-fns');\nconst { ja } = require('date-fns/locale');", "ja", "format"},
		{"require subpath", "const { ru } = require('date-fns/locale/ru');", "ru", "none"},
		{"date-fns subpath beside it", "import { addDays } from 'date-fns/addDays';\nimport { enGB } from 'date-fns/locale/en-GB';", "enGB", "addDays"},
	} {
		usage := libraryUsage([]pipe.File{{Path: "main.ts", Source: tc.src}}, set)
		for lib, want := range map[string]string{"date-fns/locale": tc.locales, "date-fns": tc.dateFns} {
			names, ok := usage[lib]
			got := strings.Join(names, ",")
			switch {
			case !ok:
				got = "none"
			case names == nil:
				got = "whole"
			}
			if got != want {
				t.Errorf("%s: %s uses %s; want %s", tc.name, lib, got, want)
			}
		}
	}
}

// TestLocaleChunk: the chunk of one locale holds that locale's modules
// and none of the other locales': a run importing de evaluates German
// only (the entry is cut to its re-export, libs.ESMSource.PluginFor).
func TestLocaleChunk(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	src, ok := set.ESM("date-fns/locale")
	if !ok {
		t.Fatal("date-fns/locale has no ES module source")
	}
	whole, err := set.Source("date-fns/locale")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		names       []string
		has, hasNot []string
	}{
		{[]string{"de"}, []string{"Sonntag", "März", `code:"de"`}, []string{"dimanche", "domingo", "воскресенье", "星期日", "Sunday"}},
		{[]string{"ru"}, []string{"воскресенье", "startOfWeek"}, []string{"Sonntag", "неділя"}},
		{[]string{"fr", "ja"}, []string{"dimanche", "日曜日"}, []string{"Sonntag", "domingo"}},
	} {
		chunk, err := LibraryChunk(src, tc.names)
		if err != nil {
			t.Fatalf("%v: %v", tc.names, err)
		}
		for _, s := range tc.has {
			if !strings.Contains(chunk, s) {
				t.Errorf("chunk %v lacks %q", tc.names, s)
			}
		}
		for _, s := range tc.hasNot {
			if strings.Contains(chunk, s) {
				t.Errorf("chunk %v has %q, which another locale holds", tc.names, s)
			}
		}
		if len(chunk)*20 > len(whole) {
			t.Errorf("chunk %v is %d bytes, the whole module %d; want under a twentieth", tc.names, len(chunk), len(whole))
		}
	}
}
