package selector_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// exampleScreen is a list of two products, each with an "Add to cart" button.
func exampleScreen() *screen.Screen {
	row := func(n int, title, price string) *screen.Node {
		ref := func(k int) string { return fmt.Sprintf("e%d", n+k) }
		return &screen.Node{Ref: ref(0), Role: "listitem", Tag: "li", Visible: true,
			Text: title + "\n" + price + "\nAdd to cart",
			Children: []*screen.Node{
				{Ref: ref(1), Role: "heading", Tag: "h3", Name: title, Text: title, Visible: true},
				{Ref: ref(2), Role: "paragraph", Tag: "p", Text: price, Visible: true},
				{Ref: ref(3), Role: "button", Tag: "button", Name: "Add to cart", Text: "Add to cart", Visible: true},
			}}
	}
	list := &screen.Node{Ref: "e2", Role: "list", Tag: "ul", Visible: true,
		Children: []*screen.Node{row(3, "iPhone 17", "$999"), row(7, "iPhone 18", "$1,099")}}
	list.Text = list.Children[0].Text + "\n" + list.Children[1].Text
	return &screen.Screen{Schema: screen.ScreenSchema, Root: &screen.Node{
		Ref: "e1", Role: "generic", Tag: "html", Visible: true, Text: list.Text,
		Children: []*screen.Node{list}}}
}

func ExampleGenerate() {
	s := exampleScreen()
	tap, _ := selector.Generate(selector.PurposeTap, "e10", s, nil)
	price, _ := selector.Generate(selector.PurposeAssert, "e5", s, nil)
	js, _ := json.Marshal(tap)
	fmt.Println(tap)
	fmt.Println(string(js))
	fmt.Println(price)
	// Output:
	// {role: button, name: "Add to cart", within: {role: listitem, textRegex: "^iPhone 18\\n"}}
	// {"role":"button","name":"Add to cart","within":{"role":"listitem","textRegex":"^iPhone 18\\n"}}
	// {text: "$999"}
}

func ExampleMatch() {
	s := exampleScreen()
	_, err := selector.Match(s, selector.Selector{Role: "button", Name: "Add to cart"})
	var amb *selector.AmbiguousError
	if errors.As(err, &amb) {
		fmt.Println(len(amb.Matches), "matches:", err)
	}
	nodes, _ := selector.Match(s, selector.Selector{Role: "heading", Text: "iPhone 17"})
	fmt.Println(nodes[0].Ref)
	// Output:
	// 2 matches: {role: button, name: "Add to cart"} is ambiguous: 2 visible elements match; add a property, a within scope or an index to name one of them: e6 button "Add to cart"; e10 button "Add to cart"
	// e4
}

func ExampleSuggest() {
	sug, _ := selector.Suggest(selector.PurposeAssert, "e9", exampleScreen(), nil)
	js, _ := json.MarshalIndent(sug.Menu[0], "", "  ")
	fmt.Println(sug.Selector)
	fmt.Println(string(js))
	// Output:
	// {text: "$1,099"}
	// {
	//   "selector": {
	//     "text": "$1,099"
	//   },
	//   "checks": "text",
	//   "dependsOn": [
	//     "text"
	//   ],
	//   "checksValue": true,
	//   "score": 0
	// }
}
