package ws

// runIDScanner reads a JSON object as a stream, holding only its
// top-level "type" and "id" string values (each at most maxIDBytes): the id
// of a run message too long to hold (MessageTooBigError), wherever the two
// members are in it. Other values, however long, are skipped byte by byte.
// Its zero value is ready; it never fails (malformed JSON only yields no
// id).
type runIDScanner struct {
	depth    int
	inString bool
	escaped  bool
	// At depth 1: what the next string is (a key or a value) and which
	// key it belongs to.
	state   scanState
	key     []byte // the current string, while it is a key or a wanted value
	capture bool   // the current string is being captured into key
	wanted  string // the key whose value comes next ("type", "id" or "")
	typ, id string
	bad     bool // the capture overflowed or held an escape
}

type scanState uint8

const (
	scanNone  scanState = iota
	scanKey             // a key comes next
	scanColon           // a colon comes next
	scanValue           // a value comes next
)

// maxIDBytes bounds a captured key or value: longer ones are no run's id
// or type (run ids are at most 64 bytes, validID).
const maxIDBytes = 64

func (s *runIDScanner) Write(p []byte) (int, error) {
	for _, c := range p {
		if s.inString {
			switch {
			case s.escaped:
				s.escaped = false
				s.bad = true
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inString = false
				if s.capture {
					s.endString()
				}
			case s.capture:
				if len(s.key) == maxIDBytes {
					s.bad = true
				} else {
					s.key = append(s.key, c)
				}
			}
			continue
		}
		switch c {
		case '"':
			s.inString, s.escaped, s.bad = true, false, false
			s.capture = s.depth == 1 && (s.state == scanKey || s.state == scanValue && s.wanted != "")
			s.key = s.key[:0]
		case '{', '[':
			if s.depth == 1 && s.state == scanValue {
				s.wanted = ""
			}
			s.depth++
			if s.depth == 1 && c == '{' {
				s.state = scanKey
			}
		case '}', ']':
			s.depth--
		case ':':
			if s.depth == 1 && s.state == scanColon {
				s.state = scanValue
			}
		case ',':
			if s.depth == 1 {
				s.state, s.wanted = scanKey, ""
			}
		}
	}
	return len(p), nil
}

// endString takes the captured string: a key, or the value of "type" or "id".
func (s *runIDScanner) endString() {
	switch {
	case s.state == scanKey:
		s.wanted = ""
		if !s.bad && (string(s.key) == "type" || string(s.key) == "id") {
			s.wanted = string(s.key)
		}
		s.state = scanColon
	case s.state == scanValue && !s.bad:
		if s.wanted == "type" {
			s.typ = string(s.key)
		} else {
			s.id = string(s.key)
		}
		s.state, s.wanted = scanNone, ""
	}
}

// runID returns the id of a run message, or "" when the object read was
// not a run (its "type") or had no valid id.
func (s *runIDScanner) runID() string {
	if s.typ != TypeRun || !validID(s.id) {
		return ""
	}
	return s.id
}
