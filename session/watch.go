package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/playground-dev/playground/runs"
	"github.com/playground-dev/playground/ws"
)

// maxWatches bounds the watches one socket serves at once.
const maxWatches = 16

// watch serves a watch message: the run's messages after m.After, from its
// buffer then live, ending with its done, on a goroutine owned by wg. A
// watch that cannot start, or ends without the run's done, is answered
// with watch_error. A watcher cannot cancel the run it watches: cancel
// names only this socket's own runs.
func (s *Session) watch(ctx context.Context, wg *sync.WaitGroup, m *ws.Watch) {
	hub := s.engine.Hub
	if hub == nil {
		s.watchError(m.ID, ws.WatchNotFound, runs.ErrNotFound)
		return
	}
	if s.watches.Load() >= maxWatches {
		s.send(ws.WatchError{Type: ws.TypeWatchError, ID: m.ID, Reason: ws.WatchTooManyWatchers,
			Message: fmt.Sprintf("this socket already serves %d watches, the limit", maxWatches)})
		return
	}
	w, err := hub.Watch(ctx, m.ID, m.Token, m.After)
	if err != nil {
		s.watchError(m.ID, reason(err), err)
		return
	}
	s.watches.Add(1)
	wg.Go(func() {
		defer s.watches.Add(-1)
		defer w.Close()
		for {
			items, err := w.Next(ctx)
			for _, it := range items {
				s.send(it.Value())
			}
			switch {
			case err == nil:
				continue
			case errors.Is(err, io.EOF), ctx.Err() != nil:
				return
			}
			s.watchError(m.ID, reason(err), err)
			return
		}
	})
}

func (s *Session) watchError(id, reason string, err error) {
	s.send(ws.WatchError{Type: ws.TypeWatchError, ID: id, Reason: reason, Message: err.Error()})
}

// reason maps a hub error to its watch_error reason.
func reason(err error) string {
	switch {
	case errors.Is(err, runs.ErrNotFound):
		return ws.WatchNotFound
	case errors.Is(err, runs.ErrGone):
		return ws.WatchGone
	case errors.Is(err, runs.ErrTooManyWatchers):
		return ws.WatchTooManyWatchers
	case errors.Is(err, runs.ErrDropped):
		return ws.WatchDropped
	}
	return ws.WatchUnavailable
}
