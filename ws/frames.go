package ws

import "errors"

// maxEmptyFrames is how many empty data frames (no payload, not final) one
// message may have before the connection counts as abusing the protocol.
// RFC 6455 allows them, but no client needs them: browsers send a message
// in one frame. Without a cap, a client that starts a text message and
// then sends empty continuation frames forever never grows the message,
// never trips the read limit, and costs the server about one core.
const maxEmptyFrames = 16

// ErrEmptyFrames is returned by Conn.Read when a message has more than
// maxEmptyFrames empty fragments; the connection has been closed with
// 1008 (policy violation).
var ErrEmptyFrames = errors.New("too many empty continuation frames in one message")

// frameScanner follows the frame headers of a client's byte stream (RFC
// 6455 §5.2), as they pass through corkConn.Read, to count the empty
// fragments of each message. It neither copies nor unmasks payloads. The
// zero value is at the start of a frame.
type frameScanner struct {
	hdr   [14]byte // the header being read: at most 2+8 length bytes+4 mask bytes
	n     int      // bytes of hdr read
	skip  uint64   // payload bytes of the current frame still to pass
	empty int      // empty, non-final data frames of the current message
}

// scan follows p, the next bytes of the stream. It fails once a message
// has had more than maxEmptyFrames empty fragments.
func (f *frameScanner) scan(p []byte) error {
	for len(p) > 0 {
		if f.skip > 0 {
			k := min(uint64(len(p)), f.skip)
			f.skip -= k
			p = p[k:]
			continue
		}
		f.hdr[f.n] = p[0]
		f.n++
		p = p[1:]
		if f.n < 2 {
			continue
		}
		need := 2
		switch f.hdr[1] & 0x7f {
		case 126:
			need += 2
		case 127:
			need += 8
		}
		if f.hdr[1]&0x80 != 0 {
			need += 4 // the masking key
		}
		if f.n < need {
			continue
		}
		var length uint64
		switch l := f.hdr[1] & 0x7f; l {
		case 126:
			length = uint64(f.hdr[2])<<8 | uint64(f.hdr[3])
		case 127:
			for _, b := range f.hdr[2:10] {
				length = length<<8 | uint64(b)
			}
		default:
			length = uint64(l)
		}
		fin, opcode := f.hdr[0]&0x80 != 0, f.hdr[0]&0x0f
		f.n, f.skip = 0, length
		if opcode >= 0x8 {
			continue // a control frame may come between fragments; it is not one
		}
		if !fin && length == 0 {
			if f.empty++; f.empty > maxEmptyFrames {
				return ErrEmptyFrames
			}
		}
		if fin {
			f.empty = 0
		}
	}
	return nil
}
