package review

import (
	"context"
	"fmt"
	"strings"
)

// Offline evaluation: how often each way of choosing saves the right
// selector, how often it is confident, and whether its probabilities can
// be trusted, on labelled examples.

// An Answerer answers, in one call, the steps the engine is unsure about:
// the model fallback. Each question is a step's intent and its numbered
// options; an answer is an option number. An answer that is not on the
// menu is ignored.
type Answerer interface {
	Answer(ctx context.Context, questions []Question) ([]Answer, error)
}

// A Question is one step put to the Answerer.
type Question struct {
	// Step is the question's position in the call, 0-based.
	Step    int              `json:"step"`
	Intent  string           `json:"intent"`
	Action  string           `json:"action"`
	Options []QuestionOption `json:"options"`
}

// A QuestionOption is one option as the Answerer sees it: its number and
// its description, never a value the session marked sensitive (options
// never name one).
type QuestionOption struct {
	Number      int    `json:"number"`
	Description string `json:"description"`
	Recorded    bool   `json:"recorded,omitempty"`
}

// An Answer picks option Option (1-based) for question Step.
type Answer struct {
	Step   int    `json:"step"`
	Option int    `json:"option"`
	Reason string `json:"reason,omitempty"`
}

// NewQuestion puts a menu as a question.
func NewQuestion(step int, intent, action string, m *Menu) Question {
	q := Question{Step: step, Intent: intent, Action: action}
	for i, o := range m.Options {
		q.Options = append(q.Options, QuestionOption{Number: i + 1, Description: o.Selector.String() + ": " + o.Description, Recorded: o.Recorded})
	}
	return q
}

// An Arm is one way of choosing, scored.
type Arm struct {
	Name  string `json:"name"`
	Steps int    `json:"steps"`
	// Accuracy is the share of steps whose pick is the right option,
	// whether or not it applies.
	Accuracy float64 `json:"accuracy"`
	// Coverage is the share of steps whose pick applies: above the
	// threshold, or answered by the model.
	Coverage float64 `json:"coverage"`
	// AccuracyCovered is the accuracy among the steps whose pick applies.
	AccuracyCovered float64 `json:"accuracyCovered"`
	// Saved is the share of steps that end with the right selector: the
	// pick where it applies, the recorder's choice elsewhere.
	Saved float64 `json:"saved"`
	// Brier is the mean over steps of the summed squared differences
	// between the probabilities given to the options and the right answer
	// (0 is perfect, 2 is sure and wrong).
	Brier       float64 `json:"brier"`
	Reliability []Bin   `json:"reliability"`
	// Calls is how many model calls the arm made.
	Calls int `json:"calls"`
}

// A Bin of the reliability table: the steps whose pick had a probability
// in [Lo, Hi), how sure the picks were on average, and how often right.
type Bin struct {
	Lo, Hi          float64
	Steps           int     `json:"steps"`
	MeanProbability float64 `json:"meanProbability"`
	Accuracy        float64 `json:"accuracy"`
}

// binEdges are the reliability table's bins: picks below one half are
// rare and few, above it every tenth is a bin.
var binEdges = []float64{0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0000001}

// A Report is the evaluation of every arm on the same examples.
type Report struct {
	Threshold float64 `json:"threshold"`
	Arms      []Arm   `json:"arms"`
	// NoModel says why the engine + model arm is missing, when it is.
	NoModel string `json:"noModel,omitempty"`
}

// a choice is one arm's outcome on one example.
type choice struct {
	pick    int
	applies bool
	probs   []float64
}

// Evaluate scores the recorder's choice, the engine, and the engine with
// answerer (left out when answerer is nil) on examples.
func Evaluate(ctx context.Context, examples []Example, e *Engine, answerer Answerer) (Report, error) {
	r := Report{Threshold: e.Threshold}
	base := make([]choice, len(examples))
	engine := make([]choice, len(examples))
	decisions := make([]Decision, len(examples))
	for i, ex := range examples {
		rec := ex.Menu.Recorded()
		base[i] = choice{pick: rec, applies: true, probs: oneHot(len(ex.Menu.Options), rec)}
		d := e.Decide(ex.Menu)
		decisions[i] = d
		engine[i] = choice{pick: d.Pick, applies: d.Applies, probs: d.Probabilities}
	}
	r.Arms = append(r.Arms, score("recorder's choice", examples, base, 0), score("engine", examples, engine, 0))
	if answerer == nil {
		r.NoModel = "no model configured"
		return r, nil
	}
	withModel, calls, err := fallback(ctx, examples, decisions, answerer)
	if err != nil {
		return r, err
	}
	r.Arms = append(r.Arms, score("engine + model", examples, withModel, calls))
	return r, nil
}

// fallback asks answerer, in one call, about the examples whose engine
// decision does not apply, and returns every example's final choice and
// the number of calls made (0 when the engine was sure of every step).
func fallback(ctx context.Context, examples []Example, decisions []Decision, answerer Answerer) ([]choice, int, error) {
	out := make([]choice, len(examples))
	var questions []Question
	var asked []int
	for i, ex := range examples {
		d := decisions[i]
		if d.Applies {
			out[i] = choice{pick: d.Pick, applies: true, probs: d.Probabilities}
			continue
		}
		rec := ex.Menu.Recorded()
		out[i] = choice{pick: rec, probs: oneHot(len(ex.Menu.Options), rec)}
		questions = append(questions, NewQuestion(len(questions), ex.Entry.Intent, string(ex.Entry.Action), ex.Menu))
		asked = append(asked, i)
	}
	if len(questions) == 0 {
		return out, 0, nil
	}
	answers, err := answerer.Answer(ctx, questions)
	if err != nil {
		return nil, 1, fmt.Errorf("asking the model about %d steps: %w", len(questions), err)
	}
	for _, a := range answers {
		if a.Step < 0 || a.Step >= len(asked) {
			continue // not a question asked
		}
		i := asked[a.Step]
		n := len(examples[i].Menu.Options)
		if a.Option < 1 || a.Option > n {
			continue // not on the menu: the recorder's choice stands
		}
		out[i] = choice{pick: a.Option - 1, applies: true, probs: oneHot(n, a.Option-1)}
	}
	return out, 1, nil
}

func oneHot(n, at int) []float64 {
	p := make([]float64, n)
	p[at] = 1
	return p
}

func score(name string, examples []Example, cs []choice, calls int) Arm {
	a := Arm{Name: name, Steps: len(examples), Calls: calls}
	if len(examples) == 0 {
		return a
	}
	right, covered, rightCovered, saved := 0, 0, 0, 0
	bins := make([]Bin, len(binEdges)-1)
	for i := range bins {
		bins[i].Lo, bins[i].Hi = binEdges[i], min(binEdges[i+1], 1)
	}
	binRight := make([]int, len(bins))
	brier := 0.0
	for i, ex := range examples {
		c := cs[i]
		ok := c.pick == ex.Right
		if ok {
			right++
		}
		final := ex.Menu.Recorded()
		if c.applies {
			covered++
			final = c.pick
			if ok {
				rightCovered++
			}
		}
		if final == ex.Right {
			saved++
		}
		for o, p := range c.probs {
			y := 0.0
			if o == ex.Right {
				y = 1
			}
			brier += (p - y) * (p - y)
		}
		conf := c.probs[c.pick]
		for b := range bins {
			if conf >= binEdges[b] && conf < binEdges[b+1] {
				bins[b].Steps++
				bins[b].MeanProbability += conf
				if ok {
					binRight[b]++
				}
				break
			}
		}
	}
	n := float64(len(examples))
	a.Accuracy = float64(right) / n
	a.Coverage = float64(covered) / n
	if covered > 0 {
		a.AccuracyCovered = float64(rightCovered) / float64(covered)
	}
	a.Saved = float64(saved) / n
	a.Brier = brier / n
	for b := range bins {
		if bins[b].Steps == 0 {
			continue
		}
		bins[b].MeanProbability /= float64(bins[b].Steps)
		bins[b].Accuracy = float64(binRight[b]) / float64(bins[b].Steps)
		a.Reliability = append(a.Reliability, bins[b])
	}
	return a
}

// Table writes the report as `host review --eval` prints it.
func (r Report) Table() string {
	var b strings.Builder
	steps := 0
	if len(r.Arms) > 0 {
		steps = r.Arms[0].Steps
	}
	fmt.Fprintf(&b, "%d steps, threshold %.2f\n\n", steps, r.Threshold)
	fmt.Fprintf(&b, "%-18s %9s %9s %12s %12s %7s %6s\n", "arm", "accuracy", "coverage", "right above", "saved right", "Brier", "calls")
	for _, a := range r.Arms {
		fmt.Fprintf(&b, "%-18s %9s %9s %12s %12s %7.3f %6d\n", a.Name, pct(a.Accuracy), pct(a.Coverage), pct(a.AccuracyCovered), pct(a.Saved), a.Brier, a.Calls)
	}
	if r.NoModel != "" {
		fmt.Fprintf(&b, "%-18s %s\n", "engine + model", r.NoModel)
	}
	for _, a := range r.Arms {
		if a.Name == "recorder's choice" {
			continue // sure of every step: one bin, its accuracy above
		}
		fmt.Fprintf(&b, "\nreliability, %s:\n%-11s %6s %7s %7s\n", a.Name, "probability", "steps", "mean", "right")
		for _, bin := range a.Reliability {
			fmt.Fprintf(&b, "%.1f–%.1f     %6d %7.2f %7s\n", bin.Lo, bin.Hi, bin.Steps, bin.MeanProbability, pct(bin.Accuracy))
		}
	}
	return b.String()
}

func pct(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }
