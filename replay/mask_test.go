package replay

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
)

func TestMaskPNG(t *testing.T) {
	white := image.NewRGBA(image.Rect(0, 0, 200, 100))
	for i := range white.Pix {
		white.Pix[i] = 0xff
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, white); err != nil {
		t.Fatal(err)
	}
	// The image is twice the viewport's width: a device scale of 2.
	out, err := maskPNG(buf.Bytes(), []screen.Box{{X: 10, Y: 10, Width: 20, Height: 10}}, 100)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	at := func(x, y int) color.RGBA {
		r, g, b, a := img.At(x, y).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	for _, p := range []image.Point{{20, 20}, {59, 39}, {40, 30}, {18, 18}} {
		if got := at(p.X, p.Y); got != MaskColor {
			t.Errorf("pixel %v = %v, want the mask colour", p, got)
		}
	}
	for _, p := range []image.Point{{0, 0}, {70, 30}, {40, 50}} {
		if got := at(p.X, p.Y); got == MaskColor {
			t.Errorf("pixel %v outside the box is masked", p)
		}
	}
}

func TestSecretBoxes(t *testing.T) {
	s := &screen.Screen{Root: &screen.Node{Box: &screen.Box{Width: 100, Height: 100}, Children: []*screen.Node{
		{Ref: "e2", Secret: true, Box: &screen.Box{X: 1, Y: 2, Width: 30, Height: 10},
			Children: []*screen.Node{{Ref: "e3", Secret: true, Box: &screen.Box{X: 2, Y: 3, Width: 5, Height: 5}}}},
		{Ref: "e4", Box: &screen.Box{X: 0, Y: 50, Width: 80, Height: 20},
			Children: []*screen.Node{{Tag: screen.TextTag, Secret: true}}},
		{Ref: "e5", Box: &screen.Box{X: 0, Y: 80, Width: 80, Height: 20}},
	}}}
	got := secretBoxes(s)
	want := []screen.Box{{X: 1, Y: 2, Width: 30, Height: 10}, {X: 0, Y: 50, Width: 80, Height: 20}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("secretBoxes = %+v, want %+v (outermost secret, and a text run's element)", got, want)
	}
}
