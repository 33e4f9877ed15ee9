package ctxtime

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSleep: a wait ends with its time, or with the context's error as
// soon as the context is done, however long it was to be; a wait of no
// time returns nil, even on a cancelled context.
func TestSleep(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancelExpired := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancelExpired()
	tests := []struct {
		name string
		ctx  context.Context
		d    time.Duration
		want error
	}{
		{"waited", context.Background(), time.Millisecond, nil},
		{"no time", cancelled, 0, nil},
		{"negative", cancelled, -time.Second, nil},
		{"cancelled", cancelled, time.Hour, context.Canceled},
		{"deadline during the wait", expired, time.Hour, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Sleep(tt.ctx, tt.d); !errors.Is(err, tt.want) {
				t.Errorf("Sleep(%s) = %v, want %v", tt.d, err, tt.want)
			}
		})
	}
}
