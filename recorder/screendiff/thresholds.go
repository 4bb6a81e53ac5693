package screendiff

// Geometry thresholds, in CSS pixels. Boxes come to 0.01 px, and an
// unchanged page does not always lay out to the same hundredth: fractional
// font metrics, a transform or zoom rounding, a scrollbar appearing
// elsewhere. Below these a box has not moved or changed size for a person.
const (
	// MinMove is the smallest shift, along x or y, reported as moved. Two
	// pixels is past any rounding of subpixel layout (which stays under
	// one) and about the least a person notices on a 1x display; a real
	// move (a drawer, a row dragged, a toast sliding in) is far more.
	MinMove = 2.0
	// MinResize is the smallest change of width or height reported as
	// resized, for the same reasons: text that wraps again or a panel
	// that opens changes by a line (16 px or so), rounding by less than
	// one.
	MinResize = 2.0
)

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
