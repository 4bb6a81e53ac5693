package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/recorder/trail"
)

// hashRoutedPage is a small app routed by its fragment, as TodoMVC is:
// #/completed shows the completed todos only, and nothing loads a page.
const hashRoutedPage = `<!doctype html>
<html><head><title>Todos</title></head><body>
<h1>Todos</h1>
<nav><a href="#/">All</a> <a href="#/completed">Completed</a></nav>
<ul id="todos">
  <li class="done">Buy milk</li>
  <li>Walk the dog</li>
</ul>
<p><button id="mark">Mark all done</button></p>
<p id="status"></p>
<script>
  function route() {
    const completed = location.hash === '#/completed';
    for (const li of document.querySelectorAll('#todos li')) li.hidden = completed && !li.classList.contains('done');
    document.querySelector('#status').textContent = completed ? 'Showing completed' : 'Showing all';
  }
  document.querySelector('#mark').addEventListener('click', () => {
    for (const li of document.querySelectorAll('#todos li')) li.classList.add('done');
    route();
  });
  addEventListener('hashchange', route);
  route();
</script>
</body></html>`

// TestAgentAPINavigatesWithinTheDocument: an outside client's tab.navigate
// to a route of a hash-routed app (#/completed, the same document) in the
// person's recorded tab is recorded as a navigate step marked the
// client's, between the person's tap and the client's assertion, and the
// trail replays green: the replay goes to the route and finds what it
// shows.
func TestAgentAPINavigatesWithinTheDocument(t *testing.T) {
	t.Parallel()
	runtimeDir := TempDir(t)
	rec := recordPageEnv(t, hashRoutedPage, []string{"XDG_RUNTIME_DIR=" + runtimeDir}, func(popup, app context.Context) {
		// The person first marks everything done by hand.
		clickCSS(t, app, "#mark")
		WaitFor[bool](t, app, `document.querySelectorAll('#todos li.done').length === 2`)

		c := dialAgentAPI(t, runtimeDir)
		allowClient(t, popup, apiClient)
		shareTab(t, popup)
		list := apiCall[struct{ Tabs []agentapi.TabInfo }](t, c, agentapi.TypeTabsList, nil)
		if len(list.Tabs) != 1 || list.Tabs[0].Recording == "" {
			t.Fatalf("tabs.list: %+v, want the recorded tab", list.Tabs)
		}
		tab := list.Tabs[0].Tab
		start := list.Tabs[0].URL
		if i := strings.IndexByte(start, '#'); i >= 0 {
			start = start[:i]
		}
		did := apiCall[struct{ Did, URL string }](t, c, agentapi.TypeTabNavigate, map[string]any{"tab": tab, "url": start + "#/completed"})
		if !strings.HasSuffix(did.URL, "/page.html#/completed") {
			t.Errorf("tab.navigate answered the url %q, want the route", did.URL)
		}
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Showing completed'`)
		snap := apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab, "mode": "full"})
		apiCall[struct{ Did string }](t, c, agentapi.TypeTabAssertVisible, map[string]any{"tab": tab, "ref": apiRefOf(t, snap, `Showing completed`)})
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	var got []string
	for _, s := range rec.trail.Steps {
		for _, a := range s.Actions {
			line := s.By + "/" + s.Client + " " + string(a.Kind())
			if n, ok := a.(trail.Navigate); ok {
				line += " " + n.To
			}
			if sel, ok := trail.ActionSelector(a); ok {
				line += " " + sel.String()
			}
			got = append(got, line)
		}
	}
	want := []string{
		"/ tap {id: mark}",
		"agent/" + apiClient + " navigate /page.html#/completed",
		"agent/" + apiClient + " assertVisible",
	}
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(got[i], want[i])
	}
	if !ok {
		t.Fatalf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s\n--- notes\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml, rec.notes)
	}
	rec.replayGreen(t)
}
