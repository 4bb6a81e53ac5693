// Package steps turns the interactions of a recording (Interaction,
// RecordedInteraction, as the extension sends them) into the steps of a trail
// (BuildSteps): which interactions make one step, the selector each action
// names, what a step ends on, which values are sensitive, and the intent
// sentence that says what the step is for.
//
// It is the top of the recorder and may import trail, selector and screen;
// nothing in the recorder imports it.
package steps
