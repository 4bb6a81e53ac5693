package trail

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// actionKinds as words, for messages and did-you-mean.
var actionKindWords = func() []string {
	out := make([]string, len(ActionKinds))
	for i, k := range ActionKinds {
		out[i] = string(k)
	}
	return out
}()

// actionSynonyms maps words other tools use for an action to ours, so a
// trail written from memory gets a useful suggestion.
var actionSynonyms = map[string]ActionKind{
	"click": ActionTap, "dblclick": ActionTap, "doubleClick": ActionTap,
	"fill": ActionType, "input": ActionType, "goto": ActionNavigate, "visit": ActionNavigate,
	"selectOption": ActionSelect, "keyPress": ActionPress, "key": ActionPress,
	"assertText": ActionAssertVisible, "expectVisible": ActionAssertVisible,
	"assertVisibleBySelector": ActionAssertVisible, "assertNotVisibleWithText": ActionAssertNotVisible,
	"assertURL": ActionAssertURL, "setInputFiles": ActionUpload,
}

type actionDecoder func(d *trailDecoder, f field, o Origin) Action

var actionDecoders map[ActionKind]actionDecoder

func init() {
	actionDecoders = map[ActionKind]actionDecoder{
		ActionNavigate:         (*trailDecoder).navigate,
		ActionTap:              (*trailDecoder).tap,
		ActionType:             (*trailDecoder).typeText,
		ActionSet:              (*trailDecoder).set,
		ActionPress:            (*trailDecoder).press,
		ActionSelect:           (*trailDecoder).selectOption,
		ActionCheck:            (*trailDecoder).check,
		ActionUncheck:          (*trailDecoder).uncheck,
		ActionHover:            (*trailDecoder).hover,
		ActionDrag:             (*trailDecoder).drag,
		ActionUpload:           (*trailDecoder).upload,
		ActionDialog:           (*trailDecoder).dialog,
		ActionSwitchTab:        (*trailDecoder).switchTab,
		ActionAssertVisible:    (*trailDecoder).assertVisible,
		ActionAssertNotVisible: (*trailDecoder).assertNotVisible,
		ActionAssertValue:      (*trailDecoder).assertValue,
		ActionAssertState:      (*trailDecoder).assertState,
		ActionAssertURL:        (*trailDecoder).assertURL,
		ActionAssertChange:     (*trailDecoder).assertChange,
	}
}

// bodyKeys are the keys of each action kind's body, in written order.
var bodyKeys = map[ActionKind][]string{
	ActionTap:              {"selector", "count", "modifiers", "button"},
	ActionType:             {"selector", "text", "append"},
	ActionSet:              {"selector", "value"},
	ActionPress:            {"key", "modifiers", "atOnce"},
	ActionSelect:           {"selector", "option", "options"},
	ActionCheck:            {"selector"},
	ActionUncheck:          {"selector"},
	ActionHover:            {"selector"},
	ActionDrag:             {"selector", "to", "offset"},
	ActionUpload:           {"selector", "files"},
	ActionDialog:           {"response", "promptText"},
	ActionSwitchTab:        {"url", "title"},
	ActionAssertVisible:    {"selector"},
	ActionAssertNotVisible: {"text"},
	ActionAssertValue:      {"selector", "value"},
	ActionAssertState:      {"selector", StateChecked, StateDisabled, StateExpanded, StateSelected},
	ActionAssertURL:        {"url", "pattern"},
	ActionAssertChange:     append(append([]string{}, changeDiffKeys...), changeLiveKeys...),
}

// action reads one `- kind: body` item.
func (d *trailDecoder) action(n *yaml.Node) Action {
	if n.Kind != yaml.MappingNode {
		d.invalid(n, "", "write an action as `- tap: {selector: {role: button, name: Save}}`", "an action must be a mapping with one kind, not %s", describe(n))
		return nil
	}
	var kinds []field
	var strays []field
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f := field{key: k, val: v, name: k.Value}
		if _, known := actionDecoders[ActionKind(k.Value)]; known {
			kinds = append(kinds, f)
		} else {
			strays = append(strays, f)
		}
	}
	for _, s := range strays {
		d.strayActionKey(s, kinds)
	}
	switch {
	case len(kinds) == 0 && len(strays) == 0:
		d.invalid(n, "", "give it one kind: "+quoteList(actionKindWords), "the action is empty")
		return nil
	case len(kinds) == 0:
		return nil
	case len(kinds) > 1:
		names := make([]string, len(kinds))
		for i, k := range kinds {
			names[i] = k.name
		}
		d.invalid(kinds[1].key, kinds[1].name, "one action does one thing: make each its own `- …` item",
			"the action has %d kinds (%s)", len(kinds), quoteList(names))
		return nil
	}
	f := kinds[0]
	before := len(d.errs)
	a := actionDecoders[ActionKind(f.name)](d, f, Origin{Line: f.key.Line})
	if len(d.errs) > before {
		return nil
	}
	return a
}

// strayActionKey reports a key beside an action's kind: a typo of a kind,
// another tool's word for one, or a body key that lost its indentation.
func (d *trailDecoder) strayActionKey(s field, kinds []field) {
	name := s.name
	if len(kinds) == 1 {
		kind := ActionKind(kinds[0].name)
		if isOneOf(name, bodyKeys[kind]) {
			d.invalid(s.key, name, fmt.Sprintf("indent %s: under %s: (two more spaces than %s)", name, kind, kind),
				"%s sits beside %s instead of inside it", name, kind)
			return
		}
	}
	if isOneOf(name, legacyKeys) {
		d.add(s.key, name, ErrLegacyText, fmt.Sprintf("run `host migrate %s`", d.fileForCommand()),
			"%s is no longer part of the trail format (a selector checks text itself)", name)
		return
	}
	fix := "actions are " + quoteList(actionKindWords)
	if syn, ok := actionSynonyms[name]; ok {
		fix = fmt.Sprintf("did you mean %q?", syn)
	} else if sug := yamlerr.DidYouMean(name, actionKindWords); sug != "" {
		fix = fmt.Sprintf("did you mean %q?", sug)
	}
	d.add(s.key, name, yamlerr.ErrUnknownKey, fix, "unknown action %q", name)
}

// body reads an action's body mapping with the kind's keys.
func (d *trailDecoder) body(f field, example string) (map[string]field, bool) {
	return d.mapping(f.val, f.name, bodyKeys[ActionKind(f.name)], example)
}

const selectorBodyExample = "{selector: {role: button, name: Save}}"

// targetSelector reads the required selector of an action body.
func (d *trailDecoder) targetSelector(f field, fields map[string]field) selector.Selector {
	sf, has := fields["selector"]
	if !has {
		d.invalid(f.val, "selector", "add selector: {role: …, name: …} to "+f.name, "%s has no selector", f.name)
		return selector.Selector{}
	}
	s, _ := d.selector(sf.val, "selector")
	return s
}

func (d *trailDecoder) navigate(f field, o Origin) Action {
	if f.val.Kind != yaml.ScalarNode {
		d.invalid(f.val, f.name, "write `navigate: /checkout`, or `navigate: back`, `forward` or `reload`", "navigate takes a path or a history move, not %s", describe(f.val))
		return nil
	}
	switch f.val.Value {
	case NavigateBack, NavigateForward, NavigateReload:
		return Navigate{Origin: o, To: f.val.Value}
	}
	p, _ := d.appPath(f)
	return Navigate{Origin: o, To: p}
}

func (d *trailDecoder) tap(f field, o Origin) Action {
	fields, ok := d.body(f, selectorBodyExample)
	if !ok {
		return nil
	}
	a := Tap{Origin: o, Selector: d.targetSelector(f, fields)}
	if c, has := fields["count"]; has {
		a.Count, _ = d.integer(c, 1)
	}
	if m, has := fields["modifiers"]; has {
		a.Modifiers = d.modifiers(m)
	}
	if b, has := fields["button"]; has {
		btn, _ := d.oneOf(b, []string{string(ButtonLeft), string(ButtonMiddle), string(ButtonRight)})
		a.Button = MouseButton(btn)
	}
	return a
}

func (d *trailDecoder) typeText(f field, o Origin) Action {
	fields, ok := d.body(f, "{selector: {role: textbox, name: Email}, text: ada@example.com}")
	if !ok {
		return nil
	}
	a := TypeText{Origin: o, Selector: d.targetSelector(f, fields)}
	if d.require(f.val, fields, "type", "text") {
		a.Text, _ = d.text(fields["text"], true, true)
	}
	if ap, has := fields["append"]; has {
		a.Append, _ = d.boolean(ap)
	}
	return a
}

func (d *trailDecoder) set(f field, o Origin) Action {
	fields, ok := d.body(f, "{selector: {role: slider, name: Volume}, value: 30}")
	if !ok {
		return nil
	}
	a := Set{Origin: o, Selector: d.targetSelector(f, fields)}
	if d.require(f.val, fields, "set", "value") {
		a.Value, _ = d.text(fields["value"], true, false)
	}
	return a
}

// ModifierWords are the modifiers a tap or a press may hold, as a trail
// writes them: the one list of them.
var ModifierWords = []string{string(ModifierAlt), string(ModifierControl), string(ModifierMeta), string(ModifierShift)}

// ModifierSynonyms are other names people use for the modifiers; a trail
// that uses one is told the word to write instead.
var ModifierSynonyms = map[string]Modifier{
	"Ctrl": ModifierControl, "Cmd": ModifierMeta, "Command": ModifierMeta,
	"Option": ModifierAlt, "Super": ModifierMeta, "Win": ModifierMeta,
}

func (d *trailDecoder) modifiers(f field) []Modifier {
	n := f.val
	if n.Kind != yaml.SequenceNode {
		d.invalid(n, f.name, "write a list such as [Control, Shift]", "modifiers must be a list, not %s", describe(n))
		return nil
	}
	var out []Modifier
	for _, item := range n.Content {
		word := item.Value
		if item.Kind != yaml.ScalarNode || !isOneOf(word, ModifierWords) {
			fix := "use " + quoteList(ModifierWords)
			if syn, ok := ModifierSynonyms[word]; ok {
				fix = fmt.Sprintf("did you mean %q?", syn)
			} else if sug := yamlerr.DidYouMean(word, ModifierWords); sug != "" {
				fix = fmt.Sprintf("did you mean %q?", sug)
			}
			d.invalid(item, f.name, fix, "modifier %s is not one of %s", describe(item), quoteList(ModifierWords))
			continue
		}
		if isOneOf(word, ModifierStrings(out)) {
			d.invalid(item, f.name, "list each modifier once", "modifier %q is listed twice", word)
			continue
		}
		out = append(out, Modifier(word))
	}
	return out
}

func ModifierStrings(ms []Modifier) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m)
	}
	return out
}

// NamedKeys are the key names a press may use besides a single character:
// KeyboardEvent.key names, with Space for the space bar.
var NamedKeys = strings.Fields(`Enter Escape Tab Backspace Delete Insert Space Home End PageUp PageDown
ArrowUp ArrowDown ArrowLeft ArrowRight F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12 ContextMenu
Alt Control Meta Shift`)

var KeySynonyms = map[string]string{
	"Esc": "Escape", "Return": "Enter", "Del": "Delete", "Up": "ArrowUp", "Down": "ArrowDown",
	"Left": "ArrowLeft", "Right": "ArrowRight", "PgUp": "PageUp", "PgDn": "PageDown", "Ctrl": "Control",
}

func (d *trailDecoder) press(f field, o Origin) Action {
	fields, ok := d.body(f, "{key: Enter}")
	if !ok {
		return nil
	}
	a := Press{Origin: o}
	if d.require(f.val, fields, "press", "key") {
		kf := fields["key"]
		if key, ok := d.str(kf, false); ok {
			switch {
			case utf8.RuneCountInString(key) == 1 || isOneOf(key, NamedKeys):
				a.Key = key
			default:
				fix := "use a single character or one of " + quoteList(NamedKeys)
				if syn, ok := KeySynonyms[key]; ok {
					fix = fmt.Sprintf("did you mean %q?", syn)
				} else if sug := yamlerr.DidYouMean(key, NamedKeys); sug != "" {
					fix = fmt.Sprintf("did you mean %q?", sug)
				}
				d.invalid(kf.val, "key", fix, "key %q is not a key name", key)
			}
		}
	}
	if m, has := fields["modifiers"]; has {
		a.Modifiers = d.modifiers(m)
	}
	if ao, has := fields["atOnce"]; has {
		a.AtOnce, _ = d.boolean(ao)
	}
	return a
}

func (d *trailDecoder) selectOption(f field, o Origin) Action {
	fields, ok := d.body(f, "{selector: {role: combobox, name: Size}, option: Large}")
	if !ok {
		return nil
	}
	a := SelectOption{Origin: o, Selector: d.targetSelector(f, fields)}
	which, ok := d.exactlyOne(f.val, fields, "select", "option", "options")
	if !ok {
		return a
	}
	if which == "option" {
		if s, ok := d.text(fields["option"], false, false); ok {
			a.Options = []string{s}
		}
		return a
	}
	opts, ok := d.strList(fields["options"])
	if ok {
		for _, s := range opts {
			d.refs(fields["options"], s, false)
		}
		a.Options = opts
	}
	return a
}

func (d *trailDecoder) check(f field, o Origin) Action {
	fields, ok := d.body(f, selectorBodyExample)
	if !ok {
		return nil
	}
	return Check{Origin: o, Selector: d.targetSelector(f, fields)}
}

func (d *trailDecoder) uncheck(f field, o Origin) Action {
	fields, ok := d.body(f, selectorBodyExample)
	if !ok {
		return nil
	}
	return Uncheck{Origin: o, Selector: d.targetSelector(f, fields)}
}

func (d *trailDecoder) hover(f field, o Origin) Action {
	fields, ok := d.body(f, selectorBodyExample)
	if !ok {
		return nil
	}
	return Hover{Origin: o, Selector: d.targetSelector(f, fields)}
}

const dragBodyExample = "{selector: {text: Write docs}, to: {role: list, name: Done}}"

// drag reads the element dragged (selector), the one dropped on (to), and
// where within it, when not at its centre (offset).
func (d *trailDecoder) drag(f field, o Origin) Action {
	fields, ok := d.body(f, dragBodyExample)
	if !ok {
		return nil
	}
	a := Drag{Origin: o, Selector: d.targetSelector(f, fields)}
	tf, has := fields["to"]
	if !has {
		d.invalid(f.val, "to", "add to: {role: …, name: …}, the element the drag drops on", "drag has no to")
		return a
	}
	a.To, _ = d.selector(tf.val, "to")
	if of, has := fields["offset"]; has {
		a.Offset = d.offset(of)
	}
	return a
}

// offset reads a point within an element: {x: 10, y: 40}, CSS pixels from
// its top-left corner.
func (d *trailDecoder) offset(f field) *Offset {
	fields, ok := d.mapping(f.val, "offset", []string{"x", "y"}, "{x: 10, y: 40}")
	if !ok {
		return nil
	}
	if !d.require(f.val, fields, "offset", "x", "y") {
		return nil
	}
	x, okx := d.integer(fields["x"], 0)
	y, oky := d.integer(fields["y"], 0)
	if !okx || !oky {
		return nil
	}
	return &Offset{X: x, Y: y}
}

func (d *trailDecoder) upload(f field, o Origin) Action {
	fields, ok := d.body(f, "{selector: {label: Invoice}, files: [invoice.pdf]}")
	if !ok {
		return nil
	}
	a := Upload{Origin: o, Selector: d.targetSelector(f, fields)}
	if !d.require(f.val, fields, "upload", "files") {
		return a
	}
	files, ok := d.strList(fields["files"])
	if !ok {
		return a
	}
	for _, p := range files {
		if err := CheckLocalPath(p); err != nil {
			fix := "put the file in the trail's folder (or a folder inside it) and give its path from there, with forward slashes"
			if strings.ContainsRune(p, '\\') && !strings.Contains(p, ":") {
				fix = "write the path with forward slashes"
			}
			d.invalid(fields["files"].val, "files", fix, "%v", err)
		}
	}
	a.Files = files
	return a
}

func (d *trailDecoder) dialog(f field, o Origin) Action {
	fields, ok := d.body(f, "{response: accept}")
	if !ok {
		return nil
	}
	a := Dialog{Origin: o}
	if d.require(f.val, fields, "dialog", "response") {
		r, _ := d.oneOf(fields["response"], []string{dialogAccept, dialogDismiss})
		a.Accept = r == dialogAccept
		if p, has := fields["promptText"]; has {
			a.PromptText, _ = d.text(p, false, true)
			if r == dialogDismiss {
				d.invalid(p.key, "promptText", "remove promptText, or accept the dialog", "a dismissed dialog takes no promptText")
			}
		}
	}
	return a
}

func (d *trailDecoder) switchTab(f field, o Origin) Action {
	fields, ok := d.body(f, "{url: /receipt} or {title: Receipt}")
	if !ok {
		return nil
	}
	a := SwitchTab{Origin: o}
	switch which, _ := d.exactlyOne(f.val, fields, "switchTab", "url", "title"); which {
	case "url":
		a.URL, _ = d.appPath(fields["url"])
	case "title":
		a.Title, _ = d.text(fields["title"], false, false)
	}
	return a
}

func (d *trailDecoder) assertVisible(f field, o Origin) Action {
	fields, ok := d.body(f, "{selector: {role: status, text: Saved}}")
	if !ok {
		return nil
	}
	return AssertVisible{Origin: o, Selector: d.targetSelector(f, fields)}
}

func (d *trailDecoder) assertNotVisible(f field, o Origin) Action {
	fields, ok := d.body(f, "{text: Out of stock}")
	if !ok {
		return nil
	}
	a := AssertNotVisible{Origin: o}
	if d.require(f.val, fields, "assertNotVisible", "text") {
		a.Text, _ = d.text(fields["text"], false, false)
	}
	return a
}

func (d *trailDecoder) assertValue(f field, o Origin) Action {
	fields, ok := d.body(f, "{selector: {role: textbox, name: Email}, value: ada@example.com}")
	if !ok {
		return nil
	}
	a := AssertValue{Origin: o, Selector: d.targetSelector(f, fields)}
	if d.require(f.val, fields, "assertValue", "value") {
		a.Value, _ = d.text(fields["value"], true, false)
	}
	return a
}

func (d *trailDecoder) assertState(f field, o Origin) Action {
	fields, ok := d.body(f, "{selector: {role: checkbox, name: Gift wrap}, checked: true}")
	if !ok {
		return nil
	}
	a := AssertState{Origin: o, Selector: d.targetSelector(f, fields)}
	state, ok := d.exactlyOne(f.val, fields, "assertState", StateChecked, StateDisabled, StateExpanded, StateSelected)
	if !ok {
		return a
	}
	a.State = state
	v := fields[state]
	if state == StateChecked && v.val.Kind == yaml.ScalarNode && v.val.Tag == "!!str" && v.val.Value == "mixed" {
		a.Want = "mixed"
		return a
	}
	if b, ok := d.boolean(v); ok {
		a.Want = fmt.Sprint(b)
	}
	return a
}

func (d *trailDecoder) assertURL(f field, o Origin) Action {
	fields, ok := d.body(f, "{url: /checkout} or {pattern: '^/orders/\\d+$'}")
	if !ok {
		return nil
	}
	a := AssertURL{Origin: o}
	switch which, _ := d.exactlyOne(f.val, fields, "assertUrl", "url", "pattern"); which {
	case "url":
		a.URL, _ = d.appPath(fields["url"])
	case "pattern":
		a.Pattern, _ = d.pattern(fields["pattern"])
	}
	return a
}
