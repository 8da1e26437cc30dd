package regexpidx

import (
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
)

// matcher is one d-flag RegExp's pattern compiled for regexp2 as goja
// compiles it (builtin_regexp.go compileRegexp, regexp.go
// compileRegexp2), on first use.
type matcher struct {
	src, flags string // source, flags without d
	rx         *regexp2.Regexp
}

func (m *matcher) compile() error {
	if m.rx != nil {
		return nil
	}
	opts := regexp2.ECMAScript
	unicode := strings.Contains(m.flags, "u")
	pattern := m.src
	if unicode {
		opts |= regexp2.Unicode
		pattern = joinSurrogateEscapes(pattern)
	} else {
		pattern = splitAstral(pattern)
	}
	if strings.Contains(m.flags, "m") {
		opts |= regexp2.Multiline
	}
	if strings.Contains(m.flags, "s") {
		opts |= regexp2.Singleline
	}
	if strings.Contains(m.flags, "i") {
		opts |= regexp2.IgnoreCase
	}
	rx, err := regexp2.Compile(pattern, opts)
	if err != nil {
		return err
	}
	m.rx = rx
	return nil
}

// spans matches again at index (in UTF-16 code units) and returns each
// group's [start, end) in UTF-16 code units ({-1, -1} for a group that
// took no part) and the groups' names ("" for a numbered group; nil when
// none is named).
func (m *matcher) spans(s goja.String, index int) ([][2]int, []string, error) {
	if err := m.compile(); err != nil {
		return nil, nil, err
	}
	n := s.Length()
	units := make([]rune, n)
	for i := range n {
		units[i] = rune(s.CharAt(i))
	}
	runes, pos := units, []int(nil) // pos maps a rune's index to its code unit's (unicode mode)
	start := index
	if strings.Contains(m.flags, "u") {
		runes, pos = make([]rune, 0, n), make([]int, 0, n+1)
		for i := 0; i < n; i++ {
			pos = append(pos, i)
			if i == index {
				start = len(runes)
			}
			c := units[i]
			if utf16.IsSurrogate(c) && i+1 < n {
				if r := utf16.DecodeRune(c, units[i+1]); r != utf8.RuneError {
					runes = append(runes, r)
					i++
					continue
				}
			}
			runes = append(runes, c)
		}
		pos = append(pos, n)
		if index >= n {
			start = len(runes)
		}
	}
	match, err := m.rx.FindRunesMatchStartingAt(runes, start)
	if err != nil {
		return nil, nil, err
	}
	if match == nil || match.RuneIndex != start {
		return nil, nil, errors.New("regexp2 found no match where goja did")
	}
	at := func(i int) int {
		if pos == nil {
			return i
		}
		return pos[i]
	}
	groups := match.Groups()
	spans := make([][2]int, len(groups))
	var names []string
	for i, g := range groups {
		if len(g.Captures) == 0 {
			spans[i] = [2]int{-1, -1}
		} else {
			spans[i] = [2]int{at(g.RuneIndex), at(g.RuneIndex + g.RuneLength)}
		}
		if g.Name != "" && (g.Name[0] < '0' || g.Name[0] > '9') {
			if names == nil {
				names = make([]string, len(groups))
			}
			names[i] = g.Name
		}
	}
	return spans, names, nil
}

// splitAstral writes code points above U+FFFF as two \u escapes, as
// goja's convertRegexpToUtf16 does for a pattern matched against UTF-16
// code units.
func splitAstral(p string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range p {
		if r > 0xFFFF {
			if prev == '\\' {
				b.WriteByte('\\')
			}
			hi, lo := utf16.EncodeRune(r)
			b.WriteString(`\u`)
			writeHex4(&b, hi)
			b.WriteString(`\u`)
			writeHex4(&b, lo)
		} else {
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// joinSurrogateEscapes writes \uD83D\uDE00 (a surrogate pair as escapes)
// as the code point, as goja's convertRegexpToUnicode does.
func joinSurrogateEscapes(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); {
		if p[i] == '\\' && i+12 <= len(p) && p[i+1] == 'u' && p[i+6] == '\\' && p[i+7] == 'u' {
			hi, ok1 := hex4(p[i+2 : i+6])
			lo, ok2 := hex4(p[i+8 : i+12])
			if ok1 && ok2 && hi >= 0xD800 && hi < 0xDC00 && lo >= 0xDC00 && lo <= 0xDFFF {
				b.WriteRune(utf16.DecodeRune(hi, lo))
				i += 12
				continue
			}
		}
		if p[i] == '\\' && i+1 < len(p) {
			b.WriteString(p[i : i+2])
			i += 2
			continue
		}
		b.WriteByte(p[i])
		i++
	}
	return b.String()
}

func hex4(s string) (rune, bool) {
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

func writeHex4(b *strings.Builder, r rune) {
	const digits = "0123456789abcdef"
	b.WriteByte(digits[r>>12&0xF])
	b.WriteByte(digits[r>>8&0xF])
	b.WriteByte(digits[r>>4&0xF])
	b.WriteByte(digits[r&0xF])
}
