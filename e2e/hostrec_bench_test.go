package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"
)

// Benchmarks of recording through the real host process: frames over pipes,
// each interaction acknowledged only once it is committed to SQLite.
//
//	go test -run '^$' -bench 'BenchmarkHostRecord' -benchtime 3x ./e2e

// benchSession starts a host and a recording in a fresh home.
func benchSession(b *testing.B, session string) (*HostHome, *HostProc) {
	home := NewHostHome(b)
	h := StartHostProc(b, home)
	h.MustRequest("record.start", recStart(session))
	return home, h
}

// sendFrame writes a prepared record.interaction frame.
func sendFrame(b *testing.B, h *HostProc, body []byte) string {
	id := h.NextID()
	msg := append([]byte(`{"v":1,"id":"`+id+`","type":"record.interaction",`), body[1:]...)
	if err := h.Write(RawFrame(msg)); err != nil {
		b.Fatal(err)
	}
	return id
}

func recvAck(b *testing.B, h *HostProc, seq int64) {
	m, err := h.Recv()
	if err != nil {
		b.Fatal(err)
	}
	if m.Type() != "record.interaction" || m.Int("seq") != seq || m["added"] != true {
		b.Fatalf("interaction %d: got %v", seq, m)
	}
}

// smallInteractions prepares n interaction bodies on the fixture login
// page: clicks and typing, with a new capture every fifth interaction (the
// page changed), as a person filling a form produces them.
func smallInteractions(session string, n int) [][]byte {
	out := make([][]byte, n)
	for i := range n {
		seq := int64(i + 1)
		screen := fmt.Sprintf("s%d", i/5)
		in := map[string]any{"seq": seq, "kind": "click", "time": 1733072400000 + seq*700, "tab": 7,
			"url": recOrigin + "/login", "title": "Sign in — Shop", "screen": screen, "ref": "e7"}
		if i%2 == 1 {
			in["kind"], in["ref"], in["value"] = "type", "e5", fmt.Sprintf("ada%d", i)
		}
		body := map[string]any{"session": session, "interaction": in}
		if i%5 == 0 {
			body["screen"] = json.RawMessage(WireScreen(recLogin(fmt.Sprintf("user%d", i))))
		}
		out[i], _ = json.Marshal(body)
	}
	return out
}

// BenchmarkHostRecordThroughput measures how many interactions per second
// the host persists, each committed before its ack: one at a time (the
// extension waits for each ack) and with up to 32 in flight (the extension
// sends as they happen and collects acks as they come).
func BenchmarkHostRecordThroughput(b *testing.B) {
	const n = 500
	for _, window := range []int{1, 32} {
		b.Run(fmt.Sprintf("inflight=%d", window), func(b *testing.B) {
			var total time.Duration
			count := 0
			for b.Loop() {
				b.StopTimer()
				session := "bench-throughput"
				_, h := benchSession(b, session)
				bodies := smallInteractions(session, n)
				b.StartTimer()
				start := time.Now()
				acked := 0
				for i, body := range bodies {
					sendFrame(b, h, body)
					if i+1-acked >= window {
						acked++
						recvAck(b, h, int64(acked))
					}
				}
				for acked < n {
					acked++
					recvAck(b, h, int64(acked))
				}
				total += time.Since(start)
				count += n
				b.StopTimer()
				h.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(count)/total.Seconds(), "interactions/s")
			b.ReportMetric(float64(total.Microseconds())/float64(count)/1000, "ms/interaction")
		})
	}
}

// BenchmarkHostRecordGrowth10k records 100 interactions on the captured
// page of about ten thousand elements (recorder/selector/testdata/selectors/bench/
// shop-10k.json.gz), each with a new capture of it in which one text
// changed (a toast counting the clicks), sent in the wire form as the
// extension sends it. It reports the database growth per 100 interactions
// (file and WAL, after the host closed) and the time per interaction.
func BenchmarkHostRecordGrowth10k(b *testing.B) {
	const n = 100
	base := WireScreen(loadShop10k(b))
	// The toast's element is ["e3620","generic","span",…,"Saved",…,["Saved"]]:
	// its text and its text run change together.
	at := bytes.Index(base, []byte(`["e3620",`))
	if at < 0 {
		b.Fatal("the 10k page has no toast e3620")
	}
	end := at + bytes.Index(base[at:], []byte(`]]`)) + 2
	screen := func(i int) []byte {
		el := bytes.ReplaceAll(base[at:end], []byte(`"Saved"`), fmt.Appendf(nil, `"Saved %d times"`, i))
		return append(append(append([]byte{}, base[:at]...), el...), base[end:]...)
	}
	var growth, wall float64
	runs := 0
	for b.Loop() {
		b.StopTimer()
		session := "bench-growth"
		home, h := benchSession(b, session)
		h.Close()
		before := dbBytes(b, home)
		h = StartHostProc(b, home)
		b.StartTimer()
		start := time.Now()
		for i := range n {
			seq := int64(i + 1)
			in, _ := json.Marshal(map[string]any{"seq": seq, "kind": "click", "time": 1733072400000 + seq*900, "tab": 7,
				"url": "http://selectors.test/shop-10k.html", "title": "Trailshop: everything", "screen": fmt.Sprintf("s%d", i), "ref": "e4208"})
			body := []byte(`{"session":"` + session + `","interaction":` + string(in) + `,"screen":` + string(screen(i)) + `}`)
			sendFrame(b, h, body)
			recvAck(b, h, seq)
		}
		wall += time.Since(start).Seconds()
		b.StopTimer()
		if err := h.Close(); err != nil {
			b.Fatal(err)
		}
		growth += float64(dbBytes(b, home) - before)
		runs++
		b.StartTimer()
	}
	b.ReportMetric(growth/float64(runs)/1024, "KiB/100-interactions")
	b.ReportMetric(wall/float64(runs*n)*1000, "ms/interaction")
	b.ReportMetric(float64(runs*n)/wall, "interactions/s")
}

// dbBytes is the size of the database file and its WAL.
func dbBytes(b *testing.B, home *HostHome) int64 {
	var total int64
	for _, p := range []string{home.DBPath(), home.DBPath() + "-wal"} {
		st, err := os.Stat(p)
		if err == nil {
			total += st.Size()
		} else if !os.IsNotExist(err) {
			b.Fatal(err)
		}
	}
	return total
}
