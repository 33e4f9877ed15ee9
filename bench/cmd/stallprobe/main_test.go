package main

import (
	"testing"
	"time"
)

func TestSummarizeCountsOnlyLateSleeps(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name string
		late []time.Duration
		want report
	}{
		{"none late", []time.Duration{0, 100 * time.Microsecond, 2 * ms},
			report{Seconds: 2, Sleeps: 3}},
		{"two stalls", []time.Duration{0, 12 * ms, 100 * time.Microsecond, 4 * ms},
			report{Seconds: 2, Sleeps: 4, Stalls: 2, StallMsPerSec: 8, MedianMs: 12, MaxMs: 12}},
		{"at the threshold is not a stall", []time.Duration{2500 * time.Microsecond, 3 * ms},
			report{Seconds: 2, Sleeps: 2, Stalls: 1, StallMsPerSec: 1.5, MedianMs: 3, MaxMs: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := summarize(tc.late, 2*time.Second, 2500*time.Microsecond)
			if got != tc.want {
				t.Errorf("summarize = %+v, want %+v", got, tc.want)
			}
		})
	}
}
