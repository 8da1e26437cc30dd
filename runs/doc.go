// Package runs is the server's registry of live runs (issue 25): it lets a
// run be followed beyond the one connection that started it. It runs in the
// server process.
//
// Every run the engine executes is opened in the Hub (Hub.Open), which gives
// it a watch token: 16 bytes of crypto/rand, base64url without padding
// (RFC 4648 §5), sent in started.watch. The run's messages pass through
// Run.Tee on their way to their transport; Tee keeps each in the run's
// bounded buffer (a window of its latest messages, bounded in count and in
// bytes, the bytes counted against a per-client and a server-wide budget)
// and wakes the run's watchers. A Watcher (Hub.Watch, given the run's id and
// token and a cursor) reads the messages with seq after its cursor, first
// from the buffer, then as they come, ending with done: a socket's watch
// message, GET /api/v1/runs/{id}/events and the MCP wait tool all read
// through one.
//
// Fan-out costs the run nothing but the append: watchers read the buffer
// by cursor on their own goroutines, and a watcher that falls behind the
// buffer's window is dropped (ErrDropped), never waited for. A run nobody
// watches costs one buffer append and one budget check per message (see
// BenchmarkTee).
//
// A finished run stays in the hub for Config.Retain, so a late watcher or
// a reattaching client still gets its end. A run that asked to outlive
// its connection (Run.Orphan) keeps running with no owner for its grace
// while no watcher follows it, and is cancelled after that.
//
// With a Stream (Redis, NewRedisStream), every run's messages also go to a
// stream another instance reads, so Hub.Watch on an instance that does not
// hold the run follows it there.
//
// Watch tokens are scoped to one run: a token that does not match, or that
// matches a run of another id, is ErrNotFound, exactly as an unknown id is.
package runs
