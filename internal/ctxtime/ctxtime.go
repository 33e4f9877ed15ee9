// Package ctxtime waits for a time or until a context is done, which the
// engine's pause before a step, a dataloader's compute time and the
// polling of an NVMe sanitize all do: one owner for the timer, stopped
// when the wait ends, and for what a cancelled wait returns.
package ctxtime

import (
	"context"
	"time"
)

// Sleep waits d, or until ctx is done, then returning ctx's error; a d
// of 0 or less returns nil at once.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
