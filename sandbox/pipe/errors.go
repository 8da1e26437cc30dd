package pipe

import (
	"fmt"
	"time"
)

// The errors that report a limit. Both ends report the same limit in the
// same words: the worker when it stops a run itself, the parent when it has
// to kill the worker (a run that does not yield, a crash).

// TimeoutError reports a run that exceeded its time limit.
func TimeoutError(limit time.Duration) *Error {
	// In ms, the unit a client asked for the limit in (timeoutMs).
	return &Error{Kind: KindTimeout, Message: fmt.Sprintf("run exceeded its time limit of %g ms", float64(limit.Microseconds())/1000)}
}

// OutputLimitError reports a run that exceeded its output or event cap.
func OutputLimitError(l Limits) *Error {
	return &Error{Kind: KindOutputLimit, Message: fmt.Sprintf("run exceeded its output limit (%d bytes of output or %d events)", l.MaxOutputBytes, l.MaxEvents)}
}

// MemoryError reports a run that exceeded its heap cap of limit bytes.
func MemoryError(limit int64) *Error {
	return &Error{Kind: KindMemoryLimit, Message: fmt.Sprintf("run exceeded its memory limit of %d MiB", limit>>20)}
}

// DepthLimitError reports a fact or output nested deeper than depth levels
// of arrays and objects, which facts and output do not hold.
func DepthLimitError(what string, depth int) *Error {
	return &Error{Kind: KindOutputLimit, Message: fmt.Sprintf("run exceeded the nesting limit: %s nests arrays and objects deeper than %d levels, the most facts and output hold", what, depth)}
}

// FactsLimitError reports a run whose facts snapshot grew past
// Limits.MaxFactsBytes.
func FactsLimitError(l Limits) *Error {
	return &Error{Kind: KindOutputLimit, Message: fmt.Sprintf("run exceeded its facts limit (%d bytes of keys and JSON values); the facts are kept as they were before the change that crossed it", l.MaxFactsBytes)}
}
