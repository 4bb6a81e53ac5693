package browser

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/trail"
)

// Trusted input, as a person gives it: mouse events at a point and key
// events through the protocol. A key press is a keyDown that carries the
// key's text (so a shortcut handler sees one event, and the character is
// inserted by the same event, as with a real Keyboard) and a keyUp; a
// character no key of the layout types is inserted as text, as an input
// method would.

// A Key is one key of a US keyboard, as KeyboardEvent names it.
type Key struct {
	key  string // KeyboardEvent.key
	code string // KeyboardEvent.code
	vk   int64  // Windows virtual key code
	text string // what it types, "" for none
	// shift is set for characters typed with Shift held.
	shift    bool
	location int64
}

// Modifier bits of the protocol's modifiers field.
const (
	modAlt     = 1
	modControl = 2
	modMeta    = 4
	modShift   = 8
)

var modifierKeys = map[trail.Modifier]struct {
	key Key
	bit int64
}{
	trail.ModifierAlt:     {Key{key: "Alt", code: "AltLeft", vk: 18, location: 1}, modAlt},
	trail.ModifierControl: {Key{key: "Control", code: "ControlLeft", vk: 17, location: 1}, modControl},
	trail.ModifierMeta:    {Key{key: "Meta", code: "MetaLeft", vk: 91, location: 1}, modMeta},
	trail.ModifierShift:   {Key{key: "Shift", code: "ShiftLeft", vk: 16, location: 1}, modShift},
}

// namedKeys are the key names a press may give (docs/trail-format.md).
var namedKeys = map[string]Key{
	"Enter":       {key: "Enter", code: "Enter", vk: 13, text: "\r"},
	"Escape":      {key: "Escape", code: "Escape", vk: 27},
	"Tab":         {key: "Tab", code: "Tab", vk: 9},
	"Backspace":   {key: "Backspace", code: "Backspace", vk: 8},
	"Delete":      {key: "Delete", code: "Delete", vk: 46},
	"Insert":      {key: "Insert", code: "Insert", vk: 45},
	"Space":       {key: " ", code: "Space", vk: 32, text: " "},
	"Home":        {key: "Home", code: "Home", vk: 36},
	"End":         {key: "End", code: "End", vk: 35},
	"PageUp":      {key: "PageUp", code: "PageUp", vk: 33},
	"PageDown":    {key: "PageDown", code: "PageDown", vk: 34},
	"ArrowUp":     {key: "ArrowUp", code: "ArrowUp", vk: 38},
	"ArrowDown":   {key: "ArrowDown", code: "ArrowDown", vk: 40},
	"ArrowLeft":   {key: "ArrowLeft", code: "ArrowLeft", vk: 37},
	"ArrowRight":  {key: "ArrowRight", code: "ArrowRight", vk: 39},
	"ContextMenu": {key: "ContextMenu", code: "ContextMenu", vk: 93},
	"Alt":         modifierKeys[trail.ModifierAlt].key,
	"Control":     modifierKeys[trail.ModifierControl].key,
	"Meta":        modifierKeys[trail.ModifierMeta].key,
	"Shift":       modifierKeys[trail.ModifierShift].key,
}

func init() {
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("F%d", i)
		namedKeys[name] = Key{key: name, code: name, vk: int64(111 + i)}
	}
}

// punctuation maps the US layout's punctuation keys: the character typed
// without Shift, with Shift, the code and the virtual key code.
var punctuation = []struct {
	plain, shifted rune
	code           string
	vk             int64
}{
	{'`', '~', "Backquote", 192}, {'-', '_', "Minus", 189}, {'=', '+', "Equal", 187},
	{'[', '{', "BracketLeft", 219}, {']', '}', "BracketRight", 221}, {'\\', '|', "Backslash", 220},
	{';', ':', "Semicolon", 186}, {'\'', '"', "Quote", 222}, {',', '<', "Comma", 188},
	{'.', '>', "Period", 190}, {'/', '?', "Slash", 191},
}

// shiftedDigits are the characters Shift gives on the digit keys 0–9.
const shiftedDigits = ")!@#$%^&*("

// KeyFor returns the key a press names: a key name, or one character.
func KeyFor(name string) (Key, bool) {
	if k, ok := namedKeys[name]; ok {
		return k, true
	}
	if utf8.RuneCountInString(name) != 1 {
		return Key{}, false
	}
	r, _ := utf8.DecodeRuneInString(name)
	return keyForRune(r)
}

// keyForRune returns the key that types r on a US keyboard.
func keyForRune(r rune) (Key, bool) {
	s := string(r)
	switch {
	case r >= 'a' && r <= 'z':
		return Key{key: s, code: "Key" + strings.ToUpper(s), vk: int64(r - 'a' + 'A'), text: s}, true
	case r >= 'A' && r <= 'Z':
		return Key{key: s, code: "Key" + s, vk: int64(r), text: s, shift: true}, true
	case r >= '0' && r <= '9':
		return Key{key: s, code: "Digit" + s, vk: int64(r), text: s}, true
	case r == ' ':
		return namedKeys["Space"], true
	case r == '\n' || r == '\r':
		return namedKeys["Enter"], true
	case r == '\t':
		return namedKeys["Tab"], true
	}
	if i := strings.IndexRune(shiftedDigits, r); i >= 0 {
		d := string(rune('0' + i))
		return Key{key: s, code: "Digit" + d, vk: int64('0' + i), text: s, shift: true}, true
	}
	for _, p := range punctuation {
		switch r {
		case p.plain:
			return Key{key: s, code: p.code, vk: p.vk, text: s}, true
		case p.shifted:
			return Key{key: s, code: p.code, vk: p.vk, text: s, shift: true}, true
		}
	}
	return Key{}, false
}

// Keyboard sends key events to a page. Reached is set once an event that
// can change the page has been sent: a failure after that may have reached
// the app.
type Keyboard struct {
	// Target returns the tab the events go to.
	Target  func() (*chromedp.Target, error)
	Reached *bool
}

// dispatch sends a protocol input command to the keyboard's or mouse's tab.
func dispatch[P, R any](ctx context.Context, target func() (*chromedp.Target, error), cmd cdp.Command[P, R], params P) (R, error) {
	t, err := target()
	if err != nil {
		var zero R
		return zero, err
	}
	return cdp.Call(ctx, t, cmd, params)
}

func (kb Keyboard) send(ctx context.Context, params input.DispatchKeyEventParams) error {
	if params.Type != input.DispatchKeyEventTypeKeyUp {
		*kb.Reached = true
	}
	_, err := dispatch(ctx, kb.Target, input.DispatchKeyEvent, params)
	return err
}

// down presses k with the modifiers bits held. The keyDown carries the
// key's text unless a modifier other than Shift is held (then it is a
// shortcut and types nothing).
func (kb Keyboard) down(ctx context.Context, k Key, bits int64, commands ...string) error {
	if k.shift {
		bits |= modShift
	}
	p := input.DispatchKeyEventParams{
		Type: input.DispatchKeyEventTypeRawKeyDown, Modifiers: bits, Key: k.key, Code: k.code,
		WindowsVirtualKeyCode: k.vk, NativeVirtualKeyCode: k.vk, Location: k.location, Commands: commands,
	}
	if k.text != "" && bits&^modShift == 0 {
		p.Type = input.DispatchKeyEventTypeKeyDown
		p.Text, p.UnmodifiedText = k.text, k.text
	}
	return kb.send(ctx, p)
}

func (kb Keyboard) up(ctx context.Context, k Key, bits int64) error {
	if k.shift {
		bits |= modShift
	}
	return kb.send(ctx, input.DispatchKeyEventParams{
		Type: input.DispatchKeyEventTypeKeyUp, Modifiers: bits, Key: k.key, Code: k.code,
		WindowsVirtualKeyCode: k.vk, NativeVirtualKeyCode: k.vk, Location: k.location,
	})
}

// Press presses k with mods held: each modifier goes down first and up last.
func (kb Keyboard) Press(ctx context.Context, k Key, mods []trail.Modifier, commands ...string) error {
	var bits int64
	for _, m := range mods {
		bits |= modifierKeys[m].bit
		if err := kb.down(ctx, modifierKeys[m].key, bits); err != nil {
			return err
		}
	}
	if err := kb.down(ctx, k, bits, commands...); err != nil {
		return err
	}
	if err := kb.up(ctx, k, bits); err != nil {
		return err
	}
	for i := len(mods) - 1; i >= 0; i-- {
		if err := kb.up(ctx, modifierKeys[mods[i]].key, bits); err != nil {
			return err
		}
		bits &^= modifierKeys[mods[i]].bit
	}
	return nil
}

// TypeText types s key by key; characters without a key are inserted.
func (kb Keyboard) TypeText(ctx context.Context, s string) error {
	for _, r := range s {
		if k, ok := keyForRune(r); ok {
			if err := kb.Press(ctx, k, nil); err != nil {
				return err
			}
			continue
		}
		*kb.Reached = true
		if _, err := dispatch(ctx, kb.Target, input.InsertText, input.InsertTextParams{Text: string(r)}); err != nil {
			return err
		}
	}
	return nil
}

// ClearField selects everything in the focused field and deletes it, as a
// person does. The selectAll command makes the shortcut work the same on
// every platform.
func (kb Keyboard) ClearField(ctx context.Context) error {
	a, _ := keyForRune('a')
	if err := kb.Press(ctx, a, []trail.Modifier{trail.ModifierControl}, "selectAll"); err != nil {
		return err
	}
	return kb.Press(ctx, namedKeys["Backspace"], nil)
}

// Mouse sends mouse events to a page; Reached is set as for Keyboard.
type Mouse struct {
	// Target returns the tab the events go to.
	Target  func() (*chromedp.Target, error)
	Reached *bool
}

var mouseButtons = map[trail.MouseButton]input.MouseButton{
	"":                 input.MouseButtonLeft,
	trail.ButtonLeft:   input.MouseButtonLeft,
	trail.ButtonMiddle: input.MouseButtonMiddle,
	trail.ButtonRight:  input.MouseButtonRight,
}

// Move moves the pointer to (x, y) with the modifiers bits held.
func (ms Mouse) Move(ctx context.Context, x, y float64, bits int64) error {
	_, err := dispatch(ctx, ms.Target, input.DispatchMouseEvent, input.DispatchMouseEventParams{
		Type: input.DispatchMouseEventTypeMouseMoved, X: x, Y: y, Modifiers: bits,
	})
	return err
}

// Click moves to (x, y) and clicks count times with button, mods held.
func (ms Mouse) Click(ctx context.Context, x, y float64, button trail.MouseButton, count int, mods []trail.Modifier) error {
	kb := Keyboard{Target: ms.Target, Reached: ms.Reached}
	var bits int64
	for _, m := range mods {
		bits |= modifierKeys[m].bit
		if err := kb.down(ctx, modifierKeys[m].key, bits); err != nil {
			return err
		}
	}
	if err := ms.Move(ctx, x, y, bits); err != nil {
		return err
	}
	btn := mouseButtons[button]
	for i := 1; i <= max(count, 1); i++ {
		*ms.Reached = true
		for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
			if _, err := dispatch(ctx, ms.Target, input.DispatchMouseEvent, input.DispatchMouseEventParams{
				Type: typ, X: x, Y: y, Button: btn, ClickCount: int64(i), Modifiers: bits,
			}); err != nil {
				return err
			}
		}
	}
	for i := len(mods) - 1; i >= 0; i-- {
		if err := kb.up(ctx, modifierKeys[mods[i]].key, bits); err != nil {
			return err
		}
		bits &^= modifierKeys[mods[i]].bit
	}
	return nil
}
