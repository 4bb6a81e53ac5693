package replay

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// deferredPage acts on what is typed a moment after the typing, as a tree
// editor does (JSONEditor adds a key's change to its undo history and
// validates the document 150 ms after the last key): a while after the
// last input (later says how: by default one timer of 300 ms), the name's
// change becomes an undo entry, "saved" shows it, and a name with a digit
// gets an error icon, a button whose focus shows the message. Undo takes
// back the last entry. A person looks before acting again; an action that
// comes before the timer undoes the entry before (the count) or tabs past
// the icon that is not there yet. extra is more of the page's script.
func deferredPage(later, extra string) string {
	if later == "" {
		later = `(fn) => { clearTimeout(timer); timer = setTimeout(fn, 300); }`
	}
	return `<!doctype html><html lang="en"><title>Deferred</title>
<label>Name <input id="name" value="Ann"></label><span id="icons"></span>
<button id="plus">Add one</button> <span id="count">0</span>
<button id="undo">Undo</button>
<p id="saved"></p><p id="status"></p><p id="message"></p>
<script>
  const $ = (id) => document.getElementById(id);
  const history = [];
  let prev = 'Ann', timer = 0;
  const later = ` + later + `;
  const setCount = (d) => { $('count').textContent = String(Number($('count').textContent) + d); };
  $('plus').onclick = () => {
    setCount(1);
    history.push(() => { setCount(-1); $('status').textContent = 'Undid the count'; });
  };
  $('name').addEventListener('input', () => later(() => {
    const from = prev, to = $('name').value;
    prev = to;
    history.push(() => { $('name').value = from; prev = from; $('status').textContent = 'Undid the name'; });
    $('saved').textContent = 'saved ' + to;
    $('icons').innerHTML = /\d/.test(to) ? '<button id="error" aria-label="Invalid name">!</button>' : '';
  }));
  $('undo').onclick = () => { const undo = history.pop(); if (undo) undo(); };
  document.addEventListener('focusin', (e) => {
    $('message').textContent = e.target.id === 'error' ? 'A name has no digits' : '';
  });
  ` + extra + `
</script>`
}

// The person added one, typed a name, looked, and pressed Undo: the undo
// took back the name, the entry the typing made a moment after it.
const deferredUndoTrail = `version: 1
trail: Undo the name
app: deferred
start: /
steps:
  - intent: Add one
    actions:
      - tap: {selector: {role: button, name: Add one}}
    end:
      shows: [{text: "1"}]
  - intent: Type Bob into Name
    actions:
      - type: {selector: {role: textbox, name: Name}, text: Bob}
  - intent: Click Undo
    actions:
      - tap: {selector: {role: button, name: Undo}}
    end:
      shows: [{text: Undid the name}]
`

// The person typed a name with a digit and pressed Tab once the error icon
// had come: the Tab focused the icon and its message showed.
const deferredTabTrail = `version: 1
trail: Tab to the error
app: deferred
start: /
steps:
  - intent: Type Bob 2 into Name and press Tab
    actions:
      - type: {selector: {role: textbox, name: Name}, text: Bob 2}
      - press: {key: Tab}
    end:
      shows: [{text: A name has no digits}]
`

// An action after typing comes once the page has done what the typing
// set off (docs/trail-format.md, type): a tree editor's undo entry and
// validation, written a moment after the last key, are there before the
// next press, as they were when the person pressed.
func TestReplayActsAfterWhatTheTypingDeferred(t *testing.T) {
	t.Parallel()
	// A debounce that chains a second timer from its first (an undo
	// entry, then a validation): the wait follows the chain to its end,
	// longer than the quiet it waits for once the timers have run.
	chained := `(fn) => { clearTimeout(timer); timer = setTimeout(() => { timer = setTimeout(fn, 250); }, 200); }`
	// No timer at all: a render put off by a frame and by another (the
	// wait after the typing follows frames until two pass unchanged), and
	// the answer to a request the typing began (the app handles it after
	// the browser has it, which no frame tells). A Tab pressed at once
	// fails both.
	frames := `(fn) => requestAnimationFrame(() => requestAnimationFrame(fn))`
	request := `(fn) => fetch('/check').then((r) => r.text()).then(() => fn())`
	for _, page := range []struct{ name, later string }{
		{"one timer", ""}, {"chained timers", chained}, {"two frames", frames}, {"a request", request},
	} {
		srv := serveDeferred(t, deferredPage(page.later, ""))
		for name, src := range map[string]string{"undo": deferredUndoTrail, "tab": deferredTabTrail} {
			t.Run(page.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				res := replayOn(t, inlineTrail(t, src), srv.URL, Options{})
				if res.Status != StatusPassed {
					t.Fatalf("%s", explain(res))
				}
			})
		}
	}
}

// serveDeferred serves page at every path but /check, which answers after
// 300 ms, as a server that checks a value does.
func serveDeferred(t *testing.T, page string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/check" {
			time.Sleep(300 * time.Millisecond)
			fmt.Fprint(w, "ok")
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The wait after typing waits for the timers the typing set, not for every
// timer of the page: a page that polls with a timer over and over (a
// status check every 100 ms, begun at load, each turn setting the next,
// from a timer's callback or from an async loop) still lets the next
// action go as soon as the typing's own timer has run, and the type's
// summary says nothing of a wait cut short.
func TestReplayAfterTypingIgnoresThePagesOwnTimers(t *testing.T) {
	t.Parallel()
	for name, poll := range map[string]string{
		"timer chain": `const poll = () => setTimeout(poll, 100); poll();`,
		"async loop":  `(async () => { for (;;) await new Promise((tick) => setTimeout(tick, 100)); })();`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := servePage(t, deferredPage("", poll))
			res := replayOn(t, inlineTrail(t, deferredUndoTrail), srv.URL, Options{})
			if res.Status != StatusPassed {
				t.Fatalf("%s", explain(res))
			}
			typed := res.Steps[1].Actions[0]
			if strings.Contains(typed.Summary, "after the typing") {
				t.Errorf("the type's summary says the wait after it was cut short: %q", typed.Summary)
			}
		})
	}
}

// atOncePage is a search box as JSONEditor's works: it searches 200 ms
// after the last input (the page has searched for "pla" on load), and
// Enter goes to the results of the search that has run, unfolding the
// group that holds them.
const atOncePage = `<!doctype html><html lang="en"><title>Find</title>
<label>Search <input id="search" value="pla"></label> <span id="count"></span>
<div id="items" hidden><p>planet</p><p>plant</p></div>
<script>
  const names = ['planet', 'plant'];
  const search = document.getElementById('search');
  let results = [], timer = 0;
  const find = () => {
    const v = search.value.toLowerCase();
    results = v ? names.filter((n) => n.includes(v)) : [];
    document.getElementById('count').textContent = results.length + ' results';
  };
  find();
  search.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(find, 200); });
  search.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && results.length) document.getElementById('items').hidden = false;
  });
</script>`

// The person typed "z" on the end and pressed Enter at once, before the
// search for "plaz" ran: the Enter went to the results for "pla".
const atOnceTrail = `version: 1
trail: Enter at once
app: find
start: /
steps:
  - intent: Type plaz into Search and press Enter
    actions:
      - type: {selector: {role: textbox, name: Search}, text: plaz, append: true}
      - press: {key: Enter, atOnce: true}
    end:
      shows: [{text: planet}]
`

// A key pressed at once after the typing (atOnce) goes without the wait
// after a type (docs/trail-format.md, press): waiting would let the
// search the typing set off run first, and its Enter would find no result
// to unfold (JSONEditor's walk seed 3 at 60 actions, docs/recording.md).
func TestReplayPressesAtOnceAfterTheTyping(t *testing.T) {
	t.Parallel()
	srv := servePage(t, atOncePage)
	res := replayOn(t, inlineTrail(t, atOnceTrail), srv.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("%s", explain(res))
	}
}
