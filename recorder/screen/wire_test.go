package screen

import "testing"

func FuzzDecodeWire(f *testing.F) {
	f.Add([]byte(`{"schema":1,"url":"u","root":["e1","document","html",1,[0,0,10,10],0,"a",0,["a",["b"],0,1,["e2","button","button",1,0,"Save","Save",{"checked":"true","level":2}]]]}`))
	f.Add([]byte(`{"schema":1,"root":["e1","generic","div"]}`))
	f.Add([]byte(`{"schema":1,"root":[["x"]]}`))
	f.Add([]byte(`{"root":"text"}`))
	f.Add([]byte(`{"root":["e1","generic","div",0,0,0,0,0,0,0]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeWire(b)
		if err == nil && s == nil {
			t.Fatalf("DecodeWire(%q) = nil, nil", b)
		}
	})
}
