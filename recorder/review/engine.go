package review

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"
)

// DefaultThreshold is the probability a pick must reach to apply when
// review.threshold is not set. A wrong pick is never a broken selector
// (every option names the element), but it checks the wrong thing, and
// the person reads the review as the recorder's judgement; below the
// threshold the question goes to the model, and without one the
// recorder's choice stands. docs/review.md says how it was chosen.
const DefaultThreshold = 0.8

// WeightsFile is the name of the embedded weights file in this package's
// folder, which `host review --fit` rewrites.
const WeightsFile = "weights.json"

//go:embed weights.json
var embeddedWeights []byte

// Weights is the weights file: the fitted weight of each feature and how
// it was fitted.
type Weights struct {
	About string `json:"about"`
	// Dataset is the SHA-256 of the training entries the weights were
	// fitted on, as Fit read them.
	Dataset    string   `json:"dataset"`
	Examples   int      `json:"examples"`
	Iterations int      `json:"iterations"`
	Rate       float64  `json:"rate"`
	L2         float64  `json:"l2"`
	Weights    []Weight `json:"weights"`
}

// A Weight is one feature's weight.
type Weight struct {
	Feature string  `json:"feature"`
	Weight  float64 `json:"weight"`
}

// An Engine answers which option of a menu fits the step: a multinomial
// logistic regression (a softmax over the menu's options) over the named
// features of features.go.
type Engine struct {
	w         []float64
	Threshold float64
}

// NewEngine reads a weights file. A feature it does not know is an error
// (the file was fitted for another version of the features: refit it); a
// feature it does not name weighs nothing.
func NewEngine(data []byte, threshold float64) (*Engine, error) {
	var f Weights
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("reading the review weights: %w", err)
	}
	if threshold <= 0 || threshold > 1 {
		return nil, fmt.Errorf("review threshold %v: use a probability above 0, at most 1", threshold)
	}
	index := map[string]int{}
	for i, ft := range Features {
		index[ft.Name] = i
	}
	e := &Engine{w: make([]float64, len(Features)), Threshold: threshold}
	for _, w := range f.Weights {
		i, ok := index[w.Feature]
		if !ok {
			return nil, fmt.Errorf("reading the review weights: unknown feature %q (the file was fitted for other features: run host review --fit)", w.Feature)
		}
		e.w[i] = w.Weight
	}
	return e, nil
}

var (
	defaultOnce   sync.Once
	defaultEngine *Engine
	defaultErr    error
)

// DefaultEngine is the engine with the embedded weights and threshold.
func DefaultEngine() (*Engine, error) {
	defaultOnce.Do(func() { defaultEngine, defaultErr = NewEngine(embeddedWeights, DefaultThreshold) })
	if defaultErr != nil {
		return nil, defaultErr
	}
	e := *defaultEngine
	return &e, nil
}

// A Decision is the engine's answer for one menu.
type Decision struct {
	// Probabilities has one entry per option of the menu; they sum to 1.
	Probabilities []float64 `json:"probabilities"`
	// Pick is the most probable option (the first of equals).
	Pick        int     `json:"pick"`
	Probability float64 `json:"probability"`
	// Applies: the pick reached the threshold. Otherwise the step is for
	// the model, or keeps the recorder's choice.
	Applies bool `json:"applies"`
	// Why lists the features that most favour the pick, strongest first.
	Why []Reason `json:"why"`
}

// A Reason is a feature that favours a pick, in words, and by how much
// (its weight times how much more the pick has of it than the average
// option).
type Reason struct {
	Feature string  `json:"feature"`
	Words   string  `json:"words"`
	Weight  float64 `json:"weight"`
}

// maxReasons is how many features a pick is explained by: a person reads
// three reasons; a fourth is rarely a different one.
const maxReasons = 3

// Decide answers for a menu.
func (e *Engine) Decide(m *Menu) Decision {
	x := featureVectors(m)
	p := softmax(scores(e.w, x))
	pick := 0
	for i := range p {
		if p[i] > p[pick] {
			pick = i
		}
	}
	return Decision{
		Probabilities: p,
		Pick:          pick,
		Probability:   p[pick],
		Applies:       p[pick] >= e.Threshold,
		Why:           e.reasons(x, pick),
	}
}

func (e *Engine) reasons(x [][]float64, pick int) []Reason {
	var out []Reason
	for f := range Features {
		mean := 0.0
		for o := range x {
			mean += x[o][f]
		}
		mean /= float64(len(x))
		if c := e.w[f] * (x[pick][f] - mean); c > 0 {
			out = append(out, Reason{Feature: Features[f].Name, Words: Features[f].Words, Weight: round(c, 2)})
		}
	}
	slices.SortStableFunc(out, func(a, b Reason) int {
		switch {
		case a.Weight > b.Weight:
			return -1
		case a.Weight < b.Weight:
			return 1
		}
		return 0
	})
	if len(out) > maxReasons {
		out = out[:maxReasons]
	}
	return out
}

// scores is w·x for every option.
func scores(w []float64, x [][]float64) []float64 {
	out := make([]float64, len(x))
	for o, row := range x {
		s := 0.0
		for f, v := range row {
			if v != 0 {
				s += float64(w[f] * v)
			}
		}
		out[o] = s
	}
	return out
}

// softmax turns scores into probabilities, shifted by the largest score so
// that no exponent overflows.
func softmax(s []float64) []float64 {
	top := math.Inf(-1)
	for _, v := range s {
		top = max(top, v)
	}
	out := make([]float64, len(s))
	sum := 0.0
	for i, v := range s {
		out[i] = math.Exp(v - top)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

func round(v float64, places int) float64 {
	k := math.Pow(10, float64(places))
	return math.Round(v*k) / k
}
