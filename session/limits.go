package session

import "github.com/playground-dev/playground/ws"

// SocketLimits are hello.limits for a socket, from the engine's (the HTTP
// API's and MCP's): a run's output capped at maxOutputBytes, which its
// outbox must hold in one done message (when positive and lower), and no
// input beyond what its message cap holds.
func SocketLimits(l ws.Limits, maxOutputBytes int) ws.Limits {
	if maxOutputBytes > 0 && maxOutputBytes < l.MaxOutputBytes {
		l.MaxOutputBytes = maxOutputBytes
	}
	l.MaxInputBytes = 0
	return l
}

// FrameLimit is the WebSocket read limit, the hard cap of one message: a
// message between maxMessageBytes and it is answered (INVALID_REQUEST naming
// the limit) and the socket stays open — only its first maxMessageBytes are
// held (ws.AcceptOptions.MessageLimit), the rest is read past; a larger
// message closes the socket with 1009 (message too big), as reading past
// it would only spend the server's bandwidth.
func FrameLimit(maxMessageBytes int64) int64 { return 16 * maxMessageBytes }
