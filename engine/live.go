package engine

// live puts the run's entry in the Hub (j.Live, or one opened here) in
// front of send (runs.Run.Tee): started carries the run's watch token and
// every message is buffered for its watchers. Without a Hub it returns send.
func (e *Engine) live(j Job, send func(any)) func(any) {
	r := j.Live
	if r == nil && e.Hub != nil {
		r = e.Hub.Open(j.Run.ID, j.Key)
	}
	return r.Tee(send)
}
