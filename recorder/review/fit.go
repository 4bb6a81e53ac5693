package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
)

// Fitting is plain gradient descent on the regularised log-loss of the
// right options: full batch, a fixed number of iterations, a fixed rate,
// the examples in the order given, weights starting at zero. Nothing is
// random, so the same dataset gives the same weights, and the weights file
// is written with four decimals, the same bytes on every run.

// FitOptions says how weights are fitted.
type FitOptions struct {
	Iterations int
	Rate       float64
	// L2 is the weight of the squared weights in the loss: with a few
	// dozen examples and more features than that, it keeps weights that
	// no example calls for at zero and the rest modest, so probabilities
	// stay honest on steps unlike the training ones.
	L2 float64
}

// DefaultFit is what `host review --fit` uses. The loss is convex, so the
// result depends on the rate and the count only through how close they
// come to the optimum; these reach it on the starter set.
var DefaultFit = FitOptions{Iterations: 4000, Rate: 0.5, L2: 0.02}

// weightPlaces is how many decimals a weight is written with: far below
// what moves a probability, and enough to hide the last-bit differences
// between machines.
const weightPlaces = 4

// Fit fits the engine's weights on examples (the caller picks the
// training split).
func Fit(examples []Example, opts FitOptions) (Weights, error) {
	if len(examples) == 0 {
		return Weights{}, errors.New("fitting the review engine: no training examples")
	}
	if opts.Iterations <= 0 || opts.Rate <= 0 || opts.L2 < 0 {
		return Weights{}, errors.New("fitting the review engine: iterations and rate must be positive, L2 not negative")
	}
	xs := make([][][]float64, len(examples))
	for i, ex := range examples {
		xs[i] = featureVectors(ex.Menu)
	}
	n := float64(len(examples))
	w := make([]float64, len(Features))
	g := make([]float64, len(Features))
	for it := 0; it < opts.Iterations; it++ {
		clear(g)
		for i, x := range xs {
			p := softmax(scores(w, x))
			for o, row := range x {
				d := p[o]
				if o == examples[i].Right {
					d -= 1
				}
				for f, v := range row {
					if v != 0 {
						g[f] += float64(d * v)
					}
				}
			}
		}
		for f := range w {
			// Explicit conversions keep the compiler from fusing the
			// multiply and the add, which would change the last bits on
			// some machines.
			grad := float64(g[f]/n) + float64(opts.L2*w[f])
			w[f] -= float64(opts.Rate * grad)
		}
	}
	entries := make([]Entry, len(examples))
	for i, ex := range examples {
		entries[i] = ex.Entry
	}
	out := Weights{
		About:      "Weights of the save-time review's engine (docs/review.md). Written by host review --fit; do not edit by hand.",
		Dataset:    datasetDigest(entries),
		Examples:   len(examples),
		Iterations: opts.Iterations,
		Rate:       opts.Rate,
		L2:         opts.L2,
	}
	for f, ft := range Features {
		out.Weights = append(out.Weights, Weight{Feature: ft.Name, Weight: noNegativeZero(round(w[f], weightPlaces))})
	}
	return out, nil
}

// Marshal writes the weights file.
func (w Weights) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// LogLoss is the mean negative log-probability of the right options under
// the engine: what Fit lowers.
func (e *Engine) LogLoss(examples []Example) float64 {
	sum := 0.0
	for _, ex := range examples {
		p := e.Decide(ex.Menu).Probabilities
		sum -= math.Log(max(p[ex.Right], 1e-12))
	}
	return sum / float64(len(examples))
}

// noNegativeZero writes a weight rounded to zero from below as 0, not -0.
func noNegativeZero(v float64) float64 {
	if v == 0 {
		return 0
	}
	return v
}
