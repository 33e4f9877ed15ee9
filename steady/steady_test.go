package steady

import (
	"math"
	"testing"
)

// Cases worked by hand. For a window y over rounds x = 1..5 the average is
// sum/5, the excursion max-min, and the least-squares slope
// sum((x-3)(y-avg))/10; the slope criterion compares |slope|*4 with 10 %
// of the average.
func TestJudgeHandComputed(t *testing.T) {
	cases := []struct {
		name      string
		rounds    []float64
		steady    bool
		exhausted bool
		first     int
		excOK     bool
		slopeOK   bool
	}{
		{"flat", []float64{100, 100, 100, 100, 100}, true, false, 1, true, true},
		// avg 100, excursion 20 = 20 % exactly (passes), slope 0.
		{"excursion just passes", []float64{90, 110, 100, 110, 90}, true, false, 1, true, true},
		// avg 100, excursion 20.2 > 20.
		{"excursion just fails", []float64{89.9, 110.1, 100, 110.1, 89.9}, false, false, 1, false, true},
		// y = 95, 97.5, 100, 102.5, 105: avg 100, slope 2.5, change 10 = 10 % (passes), excursion 10.
		{"slope just passes", []float64{95, 97.5, 100, 102.5, 105}, true, false, 1, true, true},
		// slope 2.6: change 10.4 > 10.
		{"slope just fails", []float64{94.8, 97.4, 100, 102.6, 105.2}, false, false, 1, true, false},
		{"too few rounds", []float64{100, 100, 100}, false, false, 0, false, false},
		// Falling then flat: the first steady window is rounds 3..7.
		{"settles", []float64{200, 150, 100, 101, 99, 100, 100}, true, false, 3, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := SNIA.Judge(tc.rounds)
			if v.Steady != tc.steady || v.Exhausted != tc.exhausted {
				t.Fatalf("steady=%v exhausted=%v, want %v %v (%+v)", v.Steady, v.Exhausted, tc.steady, tc.exhausted, v.Window)
			}
			if tc.first == 0 {
				if v.Window != nil {
					t.Errorf("judged a window with too few rounds: %+v", v.Window)
				}
				return
			}
			w := v.Window
			if w.First != tc.first || w.ExcursionOK != tc.excOK || w.SlopeOK != tc.slopeOK {
				t.Errorf("window %+v; want first %d, excursion ok %v, slope ok %v", w, tc.first, tc.excOK, tc.slopeOK)
			}
		})
	}
}

func TestFitLineHandComputed(t *testing.T) {
	// Points (1,2), (2,4), (3,5), (4,4), (5,5): slope 0.6, intercept 2.2.
	slope, intercept := fitLine([]float64{2, 4, 5, 4, 5}, 1)
	if math.Abs(slope-0.6) > 1e-12 || math.Abs(intercept-2.2) > 1e-12 {
		t.Errorf("fit %v + %v x, want 2.2 + 0.6 x", intercept, slope)
	}
}

func TestNotReachedAfterMaxRounds(t *testing.T) {
	rounds := make([]float64, 25)
	for i := range rounds {
		rounds[i] = 1000 - 30*float64(i) // falls 3 % a round: never flat enough
	}
	v := SNIA.Judge(rounds)
	if v.Steady || !v.Exhausted || v.Window.Last != 25 {
		t.Errorf("25 falling rounds: %+v %+v", v, v.Window)
	}
	if v := SNIA.Judge(rounds[:10]); v.Steady || v.Exhausted {
		t.Errorf("10 falling rounds: %+v", v)
	}
}

func TestValidate(t *testing.T) {
	for _, r := range []Rule{{Window: 1, MaxRounds: 5, ExcursionPct: 20, SlopePct: 10}, {Window: 5, MaxRounds: 4, ExcursionPct: 20, SlopePct: 10}, {Window: 5, MaxRounds: 25}} {
		if r.Validate() == nil {
			t.Errorf("%+v accepted", r)
		}
	}
	if err := SNIA.Validate(); err != nil {
		t.Error(err)
	}
}
