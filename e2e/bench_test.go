package e2e

import (
	"bytes"
	"io"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/trailpin/trailpin/host/nativemsg"
)

// BenchmarkHostStartToHello measures what a person waits for when Chrome
// starts the host: from starting the process to reading its reply to hello.
// It reports the median over the iterations, which a few slow starts on a
// busy machine do not move.
func BenchmarkHostStartToHello(b *testing.B) {
	host := HostPath(b)
	origin := "chrome-extension://" + ExtensionID(b) + "/"
	hello := frame(`{"v":1,"id":"1","type":"hello","protocol":1,"version":"0.1.0"}`)
	home := TempDir(b)
	var samples []time.Duration
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(host, origin)
		cmd.Env = []string{"HOME=" + home}
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		if _, err := stdin.Write(hello); err != nil {
			b.Fatal(err)
		}
		reply, err := nativemsg.ReadFrame(stdout)
		if err != nil || !bytes.Contains(reply, []byte(`"type":"hello"`)) {
			b.Fatalf("reply %q, %v; want a hello", reply, err)
		}
		samples = append(samples, time.Since(start))
		stdin.Close()
		io.Copy(io.Discard, stdout)
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
	}
	slices.Sort(samples)
	b.ReportMetric(float64(samples[len(samples)/2].Microseconds())/1000, "ms-median")
}
