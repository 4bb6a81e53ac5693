package nativemsg

import (
	"context"
	"io"
	"strings"
	"testing"
)

// BenchmarkRoundTrip measures request/reply round trips through an in-memory
// pipe: the client writes a frame, the server decodes, dispatches, encodes
// and writes its reply, the client reads it.
func BenchmarkRoundTrip(b *testing.B) {
	for _, bc := range []struct {
		name string
		req  string
	}{
		{"hello", `{"v":1,"id":"1","type":"hello","protocol":1,"version":"0.1.0"}`},
		{"echo-4KiB", `{"v":1,"id":"1","type":"echo","text":"` + strings.Repeat("a", 4096) + `"}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan error, 1)
			go func() { done <- testServer().Serve(context.Background(), inR, outW) }()
			req := frame(bc.req)
			b.SetBytes(int64(len(req)))
			b.ResetTimer()
			for b.Loop() {
				if _, err := inW.Write(req); err != nil {
					b.Fatal(err)
				}
				if _, err := ReadFrame(outR); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "roundtrips/s")
			inW.Close()
			if err := <-done; err != nil {
				b.Fatal(err)
			}
		})
	}
}
