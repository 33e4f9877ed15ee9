package fio

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/metrics"
)

// defaultPort is the port `fio --server` listens on when not told.
const defaultPort = 8765

// host is one fio server as a testbed lists it.
type host struct {
	// arg is the address as given, passed to fio's --client.
	arg string
	// key is how fio names the host in its report: "hostname,port".
	key string
}

// parseHost reads a fio server address as fio's --client takes it:
// "name", "name,port", "ip:10.0.0.2,8765", "ip6:fe80::1,8765" or
// "sock:/path".
func parseHost(arg string) (host, error) {
	rest := arg
	for _, p := range []string{"ip:", "ip6:", "sock:"} {
		if after, ok := strings.CutPrefix(rest, p); ok {
			if p == "sock:" {
				return host{arg: arg, key: after + ",0"}, nil
			}
			rest = after
		}
	}
	name, portText, hasPort := strings.Cut(rest, ",")
	port := defaultPort
	if hasPort {
		p, err := strconv.Atoi(portText)
		if err != nil || p <= 0 || p > 65535 {
			return host{}, fmt.Errorf("fio server %q: %q is not a port; write host,port as fio --client takes it", arg, portText)
		}
		port = p
	}
	if name == "" || strings.ContainsAny(name, " \t\n") {
		return host{}, fmt.Errorf("fio server %q: no host name; write host or host,port", arg)
	}
	return host{arg: arg, key: name + "," + strconv.Itoa(port)}, nil
}

// parseHosts reads every address and refuses duplicates: fio would run
// the step twice on that server and report it once.
func parseHosts(args []string) ([]host, error) {
	hosts := make([]host, 0, len(args))
	seen := map[string]bool{}
	for _, a := range args {
		h, err := parseHost(a)
		if err != nil {
			return nil, err
		}
		if seen[h.key] {
			return nil, fmt.Errorf("fio server %q is listed twice", a)
		}
		seen[h.key] = true
		hosts = append(hosts, h)
	}
	return hosts, nil
}

// clientArgs are fio's arguments for running one job file per host:
// fio applies each job file to the --client before it.
func clientArgs(hosts []host, jobFiles []string) []string {
	args := make([]string, 0, 2*len(hosts))
	for i, h := range hosts {
		args = append(args, "--client="+h.arg, jobFiles[i])
	}
	return args
}

// hostDir is the folder of host i's job file and interval logs.
func hostDir(tmp string, i int) string {
	return filepath.Join(tmp, "host"+strconv.Itoa(i))
}

// HostError lists the fio servers that returned no result or failed, by
// address, with what fio said about each. The other hosts' results are
// kept in the step's result.
type HostError struct {
	Failed map[string]string
	Total  int
}

func (e *HostError) Error() string {
	var parts []string
	for h, msg := range e.Failed {
		parts = append(parts, h+": "+msg)
	}
	slices.Sort(parts)
	return fmt.Sprintf("%d of %d fio servers failed the step (%s); the result merges the other hosts only",
		len(e.Failed), e.Total, strings.Join(parts, "; "))
}

// splitByHost gives each host its share of the report: its merged
// figures, or the reason it has none. The cluster-wide result merges the
// hosts that reported.
func splitByHost(o *Output, hosts []host) (*metrics.Result, []metrics.HostResult, error) {
	var reported []Job
	out := make([]metrics.HostResult, len(hosts))
	failed := map[string]string{}
	for i, h := range hosts {
		out[i].Host = h.arg
		var jobs []Job
		for _, j := range o.Jobs {
			if j.Host == h.key {
				jobs = append(jobs, j)
			}
		}
		if msg := hostFailure(h, jobs, o.Messages); msg != "" {
			out[i].Error, failed[h.arg] = msg, msg
		}
		if len(jobs) > 0 {
			r := Merge(jobs)
			out[i].Read, out[i].Write = r.Read, r.Write
			reported = append(reported, jobs...)
		}
	}
	var err error
	if len(failed) > 0 {
		err = &HostError{Failed: failed, Total: len(hosts)}
	}
	return Merge(reported), out, err
}

// hostFailure says why a host failed, "" when it did not.
func hostFailure(h host, jobs []Job, messages []string) string {
	if len(jobs) == 0 {
		msg := "no result: the server was unreachable or stopped during the step"
		if said := mentions(h, messages); said != "" {
			msg += "; fio said: " + said
		}
		return msg
	}
	var errs []error
	for _, j := range jobs {
		if j.Error != 0 {
			errs = append(errs, jobError(j))
		}
	}
	if e := errors.Join(errs...); e != nil {
		return strings.ReplaceAll(e.Error(), "\n", "; ")
	}
	return ""
}

// mentions collects fio's messages that name the host, leaving out those
// that name the same address with another port.
func mentions(h host, messages []string) string {
	name, port, _ := strings.Cut(h.key, ",")
	var said []string
	for _, m := range messages {
		if !strings.Contains(m, name) {
			continue
		}
		if i := strings.Index(m, name+":"); i >= 0 && !strings.HasPrefix(m[i+len(name)+1:], port) {
			continue
		}
		said = append(said, m)
	}
	return strings.Join(said, " / ")
}
