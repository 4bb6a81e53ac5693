package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestAgentAPISelectsSeveralOptions: an outside client chooses two options
// of a <select multiple> and of an ARIA list box (aria-multiselectable) by
// ref with tab.select's "options", in a tab the person records and shared;
// the extension clicks the first option and Control-clicks the other, and
// the recorder records each list box's choice as a person's: one select
// with both options, marked the client's, beside the person's own tap. An
// option the list does not have, and two options for a drop-down of one
// choice, are refused with nothing chosen or recorded. The trail replays
// green with no model.
func TestAgentAPISelectsSeveralOptions(t *testing.T) {
	t.Parallel()
	runtimeDir := TempDir(t)
	page := strings.Replace(listBoxPage, `<p><button id="save"`,
		`<p><label for="size">Size</label> <select id="size"><option>S</option><option>M</option></select></p>
<p><button id="save"`, 1)
	rec := recordPageEnv(t, page, []string{"XDG_RUNTIME_DIR=" + runtimeDir}, func(popup, app context.Context) {
		c := dialAgentAPI(t, runtimeDir)
		apiRefused(t, c, agentapi.TypeTabsList, nil, nativemsg.CodeRefused, "the person has not allowed "+apiClient)
		allowClient(t, popup, apiClient)
		shareTab(t, popup)
		list := apiCall[struct{ Tabs []agentapi.TabInfo }](t, c, agentapi.TypeTabsList, nil)
		if len(list.Tabs) != 1 || list.Tabs[0].Recording == "" {
			t.Fatalf("tabs.list: %+v, want the recorded tab", list.Tabs)
		}
		tab := list.Tabs[0].Tab
		snap := apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab})
		fruits := apiRefOf(t, snap, `listbox "Fruits"`)
		size := apiRefOf(t, snap, `combobox "Size"`)

		// Refused, nothing chosen: an option Fruits does not have, and two
		// for the drop-down of one choice.
		apiRefused(t, c, agentapi.TypeTabSelect, map[string]any{"tab": tab, "ref": fruits, "options": []string{"apples", "kiwis"}},
			nativemsg.CodeBadRequest, fruits+` has no option "kiwis"`)
		apiRefused(t, c, agentapi.TypeTabSelect, map[string]any{"tab": tab, "ref": size, "options": []string{"S", "M"}},
			nativemsg.CodeBadRequest, `combobox "Size" holds one choice and 2 options were given`)
		if n := Eval[int](t, app, `document.querySelector('#fruits').selectedOptions.length + document.querySelectorAll('#veg [aria-selected=true]').length`); n != 0 {
			t.Fatalf("a refused tab.select chose %d options", n)
		}

		did := apiCall[struct{ Did string }](t, c, agentapi.TypeTabSelect, map[string]any{"tab": tab, "ref": fruits, "options": []string{"apples", "oranges"}})
		if did.Did != `chose "apples", "oranges" in listbox "Fruits"` {
			t.Errorf("tab.select did %q", did.Did)
		}
		WaitFor[bool](t, app, `[...document.querySelector('#fruits').selectedOptions].map((o) => o.text).join() === 'apples,oranges'`)
		snap = apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab})
		apiCall[struct{ Did string }](t, c, agentapi.TypeTabSelect, map[string]any{"tab": tab, "ref": apiRefOf(t, snap, `listbox "Vegetables"`), "options": []string{"carrots", "peas"}})
		WaitFor[bool](t, app, `[...document.querySelectorAll('#veg [aria-selected=true]')].map((o) => o.id).join() === 'carrots,peas'`)

		// The person saves by hand.
		clickCSS(t, app, "#save")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Saved'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := valueActions(rec.trail)
	want := []string{
		"select {id: fruits} = [apples, oranges]",
		"select {id: veg} = [carrots, peas]",
		"tap {id: save}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s\n--- notes\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml, rec.notes)
	}
	var who []string
	for _, s := range rec.trail.Steps {
		who = append(who, s.By+"/"+s.Client)
	}
	if strings.Join(who, " ") != "agent/"+apiClient+" agent/"+apiClient+" /" {
		t.Errorf("who performed the steps: %q, want the client's two selects and the person's tap:\n%s", who, rec.yaml)
	}
	if !strings.Contains(string(rec.yaml), "by: "+trail.ByAgent) {
		t.Errorf("the trail marks no step as the agent's:\n%s", rec.yaml)
	}
	rec.replayGreen(t)
}
