package intl

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// decimal is an exact decimal number: 0.digits × 10^point, digits without
// leading or trailing zeros (none at all for zero). Doubles enter by their
// shortest round-tripping form, as ICU reads them (1.005 is "1.005", so it
// rounds to 1.01 at two digits).
type decimal struct {
	digits []byte
	point  int
	neg    bool
	nan    bool
	inf    bool
}

func decimalFromFloat(x float64) decimal {
	switch {
	case math.IsNaN(x):
		return decimal{nan: true}
	case math.IsInf(x, 0):
		return decimal{inf: true, neg: x < 0}
	}
	d := decimal{neg: math.Signbit(x)}
	if x == 0 {
		return d
	}
	s := strconv.FormatFloat(math.Abs(x), 'e', -1, 64) // "1.2345e+03"
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	d.digits = []byte(strings.Replace(mant, ".", "", 1))
	d.point = e + 1
	d.trim()
	return d
}

func decimalFromBig(b *big.Int) decimal {
	s := b.String()
	d := decimal{}
	if strings.HasPrefix(s, "-") {
		d.neg = true
		s = s[1:]
	}
	if s == "0" {
		return d
	}
	d.digits = []byte(s)
	d.point = len(s)
	d.trim()
	return d
}

var decimalLiteral = regexp.MustCompile(`^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$`)

// decimalFromString reads an ECMAScript StringNumericLiteral exactly (as
// Intl.NumberFormat v3 formats strings); ok is false for a string that is
// not a decimal literal (the caller converts it with ToNumber).
func decimalFromString(s string) (decimal, bool) {
	s = strings.TrimSpace(s)
	m := decimalLiteral.FindStringSubmatch(s)
	if m == nil || (m[2] == "" && m[3] == "") || len(s) > 1000 {
		return decimal{}, false
	}
	if m[4] != "" && m[1] != "" && m[2] == "" && m[3] == "" {
		return decimal{}, false
	}
	d := decimal{neg: m[1] == "-"}
	exp := 0
	if m[4] != "" {
		e, err := strconv.Atoi(m[4])
		if err != nil || e > 10000 || e < -10000 {
			return decimal{}, false // the caller's ToNumber gives 0 or Infinity
		}
		exp = e
	}
	d.digits = []byte(m[2] + m[3])
	d.point = len(m[2]) + exp
	// leading zeros
	i := 0
	for i < len(d.digits) && d.digits[i] == '0' {
		i++
	}
	d.digits = d.digits[i:]
	d.point -= i
	d.trim()
	return d, true
}

func (d *decimal) trim() {
	d.digits = []byte(strings.TrimRight(string(d.digits), "0"))
	if len(d.digits) == 0 {
		d.point = 0
	}
}

func (d decimal) isZero() bool { return !d.nan && !d.inf && len(d.digits) == 0 }

// magnitude is the exponent of the leading digit (1234 → 3); 0 for zero.
func (d decimal) magnitude() int {
	if d.isZero() {
		return 0
	}
	return d.point - 1
}

// roundAt keeps the first n digits, rounding half away from zero (ICU's
// halfExpand); n ≤ 0 rounds to zero or to one unit of the first place.
func (d decimal) roundAt(n int) decimal {
	if d.nan || d.inf || n >= len(d.digits) {
		return d
	}
	if n < 0 {
		return decimal{neg: d.neg}
	}
	up := d.digits[n] >= '5'
	digits := append([]byte(nil), d.digits[:n]...)
	r := decimal{neg: d.neg, point: d.point, digits: digits}
	if up {
		i := len(digits) - 1
		for ; i >= 0; i-- {
			if digits[i] == '9' {
				digits[i] = '0'
				continue
			}
			digits[i]++
			break
		}
		if i < 0 {
			r.digits = append([]byte{'1'}, digits...)
			r.point++
		}
	}
	r.trim()
	return r
}

// roundFraction rounds to at most maxFrac fraction digits.
func (d decimal) roundFraction(maxFrac int) decimal { return d.roundAt(d.point + maxFrac) }

// roundSignificant rounds to at most maxSig significant digits.
func (d decimal) roundSignificant(maxSig int) decimal { return d.roundAt(maxSig) }

// shift multiplies by 10^n.
func (d decimal) shift(n int) decimal {
	if d.isZero() || d.nan || d.inf {
		return d
	}
	d.point += n
	return d
}

// fractionDigits is how many fraction digits d has.
func (d decimal) fractionDigits() int { return max(0, len(d.digits)-d.point) }

// integerAndFraction renders d's digits: the integer part (at least
// minInt digits, "0" for none) and the fraction (at least minFrac digits).
func (d decimal) integerAndFraction(minInt, minFrac int) (string, string) {
	var in, fr string
	switch {
	case d.point <= 0:
		in = "0"
		fr = strings.Repeat("0", -d.point) + string(d.digits)
	case d.point >= len(d.digits):
		in = string(d.digits) + strings.Repeat("0", d.point-len(d.digits))
	default:
		in, fr = string(d.digits[:d.point]), string(d.digits[d.point:])
	}
	if len(in) < minInt {
		in = strings.Repeat("0", minInt-len(in)) + in
	}
	if in != "0" {
		in = strings.TrimLeft(in, "0")
		if len(in) < minInt {
			in = strings.Repeat("0", minInt-len(in)) + in
		}
		if in == "" {
			in = "0"
		}
	}
	if len(fr) < minFrac {
		fr += strings.Repeat("0", minFrac-len(fr))
	}
	return in, fr
}
