package egress

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/playground-dev/playground/sandbox"
)

// ErrDeterministic refuses a live fetch in a deterministic run that does
// not record a tape: its answer could differ on the next run.
var ErrDeterministic = errors.New("fetch in a deterministic run reaches the network; record a tape (run.record) or replay one")

// HostFunc is the pool's host function for fetch (registered under
// pipe.FetchHost): its one argument is a Request as JSON, its result a
// Response as JSON. A deterministic run that does not record is refused
// (ErrDeterministic); replaying a tape answers the call without it.
func (c *Client) HostFunc() sandbox.HostFunc {
	return func(ctx context.Context, call sandbox.HostCall) (json.RawMessage, error) {
		if call.Deterministic && !call.Recording {
			return nil, ErrDeterministic
		}
		if len(call.Args) != 1 {
			return nil, fmt.Errorf("fetch takes one request, not %d arguments", len(call.Args))
		}
		dec := json.NewDecoder(bytes.NewReader(call.Args[0]))
		dec.DisallowUnknownFields()
		var req Request
		if err := dec.Decode(&req); err != nil {
			return nil, fmt.Errorf("not a fetch request: %v", err)
		}
		var body []byte
		switch {
		case req.Body != nil && req.BodyBase64 != nil:
			return nil, errors.New("a fetch request has body or bodyBase64, not both")
		case req.Body != nil:
			body = []byte(*req.Body)
		case req.BodyBase64 != nil:
			b, err := base64.StdEncoding.DecodeString(*req.BodyBase64)
			if err != nil {
				return nil, fmt.Errorf("the request's bodyBase64 is not base64: %v", err)
			}
			body = b
		}
		resp, err := c.Do(ctx, req, Who{Run: strconv.FormatInt(call.Run, 10), Client: call.Key}, body)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(resp)
		if err == nil && len(b) > maxReplyBytes && resp.Body != "" {
			// Text that JSON escapes heavily (control characters take six
			// bytes each) goes as base64, whose size is bounded.
			resp.BodyBase64, resp.Body = base64Std([]byte(resp.Body)), ""
			b, err = json.Marshal(resp)
		}
		return b, err
	}
}

// maxReplyBytes is the largest answer sent as text: past it the body goes
// as base64 (at most 4/3 of maxBodyBytes), well within the pipe's 16 MiB.
const maxReplyBytes = 12 << 20

func base64Std(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
