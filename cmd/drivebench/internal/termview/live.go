package termview

import (
	"fmt"
	"strings"
)

// The live block is the bottom of the terminal: per running step a line
// naming it and a line with its bar, its progress and its last interval's
// figures; then the plan's progress and a line per kind of warning.
//
//	[3/7] scratch / 4k-random-read / iodepth=4  00:04
//	  [█████████░░░░░░░░░░░] step 3/7 45%  12,345 IOPS  48.2 MB/s  p99 210.0 µs
//	plan 22% ETA 00:48
//	⚠ host-bound: 3 warnings in 3 steps, details in the report
//
// It is redrawn by moving the cursor up over it and writing over its
// lines; lines that stay (a finished step) are written in its place and
// the block under them. Every line is cut to the terminal's width, so
// none wraps and the count of lines to move up over stays true.

const (
	barFull  = "█"
	barEmpty = "░"
)

// redraw replaces the block with lines that stay, then the block anew:
// each line is erased as it is written over, and lines of the old block
// left below the new one are erased, the cursor brought back above them.
// It never clears to the end of the screen: tmux, for one, keeps a
// screen cleared from its top left corner in its history, and the user
// would find every redrawn block there.
func (v *View) redraw(lines []string) {
	var b strings.Builder
	if v.drawn > 0 {
		// Up to the block's first line, at its first column: a key the
		// terminal echoed (^C) may have moved the cursor right.
		fmt.Fprintf(&b, "\x1b[%dA\r", v.drawn)
	}
	block := v.block()
	for _, s := range append(lines, block...) {
		b.WriteString(eraseLine + s + "\n")
	}
	if left := v.drawn - len(lines) - len(block); left > 0 {
		b.WriteString(strings.Repeat(eraseLine+"\n", left))
		fmt.Fprintf(&b, "\x1b[%dA", left)
	}
	v.drawn = len(block)
	if b.Len() > 0 {
		v.w.Write([]byte(b.String()))
	}
}

// eraseLine erases the line the cursor is on (ESC [ 2 K).
const eraseLine = "\x1b[2K"

// block is the live block's lines, cut to the width; none when nothing
// runs. Up to compactAfter running steps each get two lines; more, as
// many drives in parallel, get one each; and a block taller than the
// terminal would scroll its top out of the cursor's reach, so the steps
// that do not fit are counted on one line.
func (v *View) block() []string {
	if len(v.running) == 0 {
		return nil
	}
	w, h := v.size()
	tail := []string{cut(v.planLabel(), w)}
	for _, f := range v.warnings {
		tail = append(tail, v.cutPainted(f, w))
	}
	var lanes [][]string
	for _, l := range v.running {
		lanes = append(lanes, v.laneLines(l, w, len(v.running) > compactAfter))
	}
	if h > 0 {
		tail = tail[:min(len(tail), max(h/2, 1))]
		lanes = fitLanes(lanes, h-1-len(tail), w)
	}
	var lines []string
	for _, l := range lanes {
		lines = append(lines, l...)
	}
	return append(lines, tail...)
}

// fitLanes keeps the lanes that fit in room lines, and counts the others
// on a line of their own.
func fitLanes(lanes [][]string, room, w int) [][]string {
	total := 0
	for _, l := range lanes {
		total += len(l)
	}
	if total <= room {
		return lanes
	}
	shown, used := 0, 0
	for shown < len(lanes) && used+len(lanes[shown]) <= room-1 {
		used += len(lanes[shown])
		shown++
	}
	return append(lanes[:shown], []string{cut(fmt.Sprintf("… and %d more steps running", len(lanes)-shown), w)})
}

// compactAfter is the number of running steps shown on two lines each.
const compactAfter = 3

// laneLines are a running step's lines: its name and time, then its bar,
// progress and figures; or all on one line.
func (v *View) laneLines(l *lane, w int, compact bool) []string {
	head := stepTag(l.start) + "  " + clock(v.opt.Now().Sub(l.from))
	parts := append([]string{bar(v.stepShare(l), w) + " " + v.stepLabel(l)}, v.liveFigures(l.last)...)
	if compact {
		return []string{cut(head+"  "+strings.Join(parts, "  "), w)}
	}
	return []string{cut(head, w), cut("  "+strings.Join(parts, "  "), w)}
}

// cutPainted is a warning's line cut to the width before it is coloured.
func (v *View) cutPainted(f *fold, w int) string {
	head, rest := foldParts(f)
	text := cut(head+": "+rest, w)
	if len([]rune(head)) >= len([]rune(text)) {
		return v.paint(yellow, text)
	}
	return v.paint(yellow, head) + text[len(head):]
}

// bar is a progress bar of share, about a quarter of the width: empty
// when the share is unknown.
func bar(share float64, width int) string {
	n := min(max(width/4, 10), 40)
	full := 0
	if share > 0 {
		full = min(int(share*float64(n)+0.5), n)
	}
	return "[" + strings.Repeat(barFull, full) + strings.Repeat(barEmpty, n-full) + "]"
}

// cut shortens s to fit in width columns, marking the cut with "…"; one
// column is left free, as a terminal that wraps at its last column would.
func cut(s string, width int) string {
	r := []rune(s)
	if len(r) < width {
		return s
	}
	return string(r[:width-2]) + "…"
}
