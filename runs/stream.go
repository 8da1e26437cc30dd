package runs

import "context"

// Stream carries runs' messages between instances (NewRedisStream). Its
// methods are safe for concurrent use.
type Stream interface {
	// Open starts the stream of a run this instance holds.
	Open(id, token string) StreamWriter
	// Watch follows a run another instance holds, like Hub.Watch: the
	// messages with seq > after, ending with done. A token that matches no
	// stream, or a stream of another id, is ErrNotFound.
	Watch(ctx context.Context, id, token string, after uint64) (*Watcher, error)
	// Watched reports whether a watcher on another instance follows the
	// run of token now: an orphan's grace does not run out while one does.
	Watched(token string) bool
	// Last returns the last message of the run of token held by another
	// instance (its done, once it has ended); ErrNotFound as Watch.
	Last(ctx context.Context, id, token string) (Item, error)
}

// StreamWriter writes one run's messages to its stream. Write never
// blocks the run: what cannot be written at once is queued, bounded.
type StreamWriter interface {
	Write(it Item)
	// Close ends a run that never published its done.
	Close()
}
