package workload

import "fmt"

// Aggregate says how the rounds of a repeated step are combined: Keep of
// them, chosen by Use ("last": the final Keep rounds; "best": the Keep
// rounds of highest bandwidth; "all"), averaged. The plan decodes it, the
// engine applies it, the manifest keeps it beside the aggregate step, and
// the step's name and the reports say it in Describe's words, so that no
// reader has to find the rule again in a step name.
type Aggregate struct {
	Use  string `json:"use"`
	Keep int    `json:"keep"`
}

// Describe says which of rounds are combined: "mean of 5 rounds", "mean
// of last 3 of 5 rounds", "best of 5 rounds" (the best one round, which
// is not a mean).
func (a Aggregate) Describe(rounds int) string {
	switch {
	case a.Use == "all" || a.Keep == rounds:
		return fmt.Sprintf("mean of %d rounds", rounds)
	case a.Use == "best" && a.Keep == 1:
		return fmt.Sprintf("best of %d rounds", rounds)
	}
	return fmt.Sprintf("mean of %s %d of %d rounds", a.Use, a.Keep, rounds)
}
