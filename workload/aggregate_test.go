package workload

import "testing"

func TestAggregateDescribe(t *testing.T) {
	tests := []struct {
		a      Aggregate
		rounds int
		want   string
	}{
		{Aggregate{Use: "all", Keep: 5}, 5, "mean of 5 rounds"},
		{Aggregate{Use: "last", Keep: 5}, 5, "mean of 5 rounds"},
		{Aggregate{Use: "last", Keep: 3}, 5, "mean of last 3 of 5 rounds"},
		{Aggregate{Use: "best", Keep: 2}, 5, "mean of best 2 of 5 rounds"},
		{Aggregate{Use: "best", Keep: 1}, 5, "best of 5 rounds"},
	}
	for _, tt := range tests {
		if got := tt.a.Describe(tt.rounds); got != tt.want {
			t.Errorf("%+v of %d: %q, want %q", tt.a, tt.rounds, got, tt.want)
		}
	}
}
