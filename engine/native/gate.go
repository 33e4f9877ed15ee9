package native

import "sync"

// The jobs of a run start together, as the ranks of a checkpoint do
// behind MPI's barrier: each job's goroutine is started and brought to a
// gate, and only once every one is there does the run's clock start and
// the gate open. Started one after another straight into their I/O, a
// job that the machine started late began its I/O after the others had
// been writing for a while, and every job's seconds, counted from a
// start taken before the first goroutine was made, held the change of
// GOMAXPROCS and the making of the goroutines. Behind the gate, what
// spread is left between the jobs' first operations is the CPUs' run
// queue: 8 ranks of a checkpoint copying their writes into the page cache
// on 2 CPUs take turns, the last first running some 20 ms after the gate
// opens, as fio's jobs do (bench/ai-compare.sh).
//
// Every job parks on a channel at the gate. A raw futex wait, which kept
// a job's P and thread so that one wake set all running at once, was
// tried and dropped: the spread it saved was within the noise (21 against
// 23 ms for 8 ranks on 2 CPUs), and a goroutine looping on a raw system
// call is never preempted, so a stop-the-world (another run's change of
// GOMAXPROCS, as drives run in parallel make) waited for it for good,
// while the goroutine that would open the gate could not be scheduled.

// gate holds a run's jobs until all of them have reached it.
type gate struct {
	arrived sync.WaitGroup
	open    chan struct{}
}

func newGate(jobs int) *gate {
	g := &gate{open: make(chan struct{})}
	g.arrived.Add(jobs)
	return g
}

// wait brings a job to the gate and returns once it opens.
func (g *gate) wait() {
	g.arrived.Done()
	<-g.open
}

// release waits for every job to reach the gate, calls start (the run's
// clock starts there) and opens the gate.
func (g *gate) release(start func()) {
	g.arrived.Wait()
	start()
	close(g.open)
}
