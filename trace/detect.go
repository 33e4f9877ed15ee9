package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Detect says which format a trace is in from its first bytes, which it
// peeks at without consuming them.
func Detect(r *bufio.Reader) (Format, error) {
	head, err := r.Peek(readBuffer)
	switch {
	case err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull):
		return "", err
	case len(head) == 0:
		return "", errEmpty
	}
	if len(head) > 262 && string(head[257:262]) == "ustar" {
		return "", errors.New("a tar archive, as some trace archives ship their traces: extract the trace from it first (tar -xf)")
	}
	if f, ok := detectIolog(head); ok {
		return f, nil
	}
	if detectBlkparse(head) {
		return Blkparse, nil
	}
	if f, ok := detectCSV(head); ok {
		return f, nil
	}
	return "", fmt.Errorf("not a trace format drivebench reads: %s (formats: %s)", describeHead(head), formatList)
}

const formatList = "fio iolog v2 and v3, blkparse -d binary, and CSV: MSR Cambridge (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), Alibaba (device_id,opcode,offset,length,timestamp), Tencent CBS (Timestamp,Offset,Size,IOType,VolumeID)"

// describeHead quotes the start of an unknown file's first line, or says
// it is binary.
func describeHead(head []byte) string {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	if len(line) > 60 {
		line = line[:60]
	}
	for _, c := range line {
		if c < 0x20 && c != '\t' && c != '\r' || c == 0x7f {
			return fmt.Sprintf("binary data starting % x", head[:min(len(head), 8)])
		}
	}
	return fmt.Sprintf("its first line is %q", line)
}
