// Package ws holds the wire protocol "playground.v1" (docs/protocol.md): the
// messages a client sends, strictly decoded and validated; the messages the
// server sends; and Conn, a WebSocket connection that speaks them.
//
// One JSON object travels per text frame, tagged by "type". Client
// messages are decoded by [Decode]; a message that breaks a rule but names a
// usable run id is a [*RunError] (the run ends with outcome "invalid"), any
// other problem is a protocol error. The package imports no other project
// package and holds no application logic.
package ws
