package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// namesPage holds what a component library and a tree editor make up:
// tabs whose ids are numbered from a counter that starts anew on every load
// (opt-tab-<n>), a field whose id is its name and the clock (nickname_<n>),
// a JSON tree editor whose rows hold a drag handle and an actions button
// named only by their tooltips beside a table of their own for the key and
// the value, a search box after the editor's mode button, and a data grid
// whose row checkboxes are named "Select Row" and every cell of the row.
const namesPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Editor</title>
<style>
  .tree button { width: 20px; height: 20px; }
  [hidden] { display: none; }
</style></head>
<body>
<h1>Editor</h1>
<div role="tablist" aria-label="Settings">
  <button role="tab" aria-selected="true">General</button>
  <button role="tab" aria-selected="false">Options</button>
</div>
<div role="tabpanel" id="panel">General settings</div>
<p><label id="nick-label">Nickname</label> <input></p>
<div class="menu"><button type="button">Tree ▾</button> <input type="text"></div>
<table class="tree"><tbody id="rows"></tbody></table>
<p role="status" id="status"></p>
<table aria-label="People"><tbody>
  <tr><td><input type="checkbox" aria-label="Select Row Ada Lovelace Engineering 36 $90,000 2015-03"></td><td>Ada Lovelace</td><td>Engineering</td><td>36</td><td>$90,000</td><td>2015-03</td></tr>
  <tr><td><input type="checkbox" aria-label="Select Row Liam Johnson Support 56 $62,000 2017-11"></td><td>Liam Johnson</td><td>Support</td><td>56</td><td>$62,000</td><td>2017-11</td></tr>
</tbody></table>
<script>
  // Ids from a counter that starts where the clock says, as a library
  // numbering its parts or an app building ids from the time does.
  let counter = Date.now() % 997;
  document.querySelectorAll('[role=tab]').forEach((tab) => {
    tab.id = 'opt-tab-' + (++counter);
    tab.addEventListener('click', () => {
      document.querySelectorAll('[role=tab]').forEach((t) => t.setAttribute('aria-selected', String(t === tab)));
      document.querySelector('#panel').textContent = tab.textContent + ' settings';
    });
  });
  const nick = document.querySelector('p > input');
  nick.id = 'nickname_' + (++counter);
  document.querySelector('#nick-label').htmlFor = nick.id;

  const tips = {
    drag: 'Drag to move this field (Alt+Shift+Arrows)',
    actions: 'Click to open the actions menu (Ctrl+M)',
    expand: 'Click to expand/collapse this field (Ctrl+E). Ctrl+Click to expand/collapse including all childs.',
  };
  function row(key, value, expandable, hidden) {
    const tr = document.createElement('tr');
    tr.hidden = !!hidden;
    tr.innerHTML = '<td><button type="button" title="' + tips.drag + '"></button></td>' +
      '<td><button type="button" class="actions" title="' + tips.actions + '"></button></td>' +
      '<td><table><tbody><tr><td>' + (expandable ? '<button type="button" class="expand" title="' + tips.expand + '"></button>' : '') + '</td>' +
      '<td><div contenteditable="true">' + key + '</div></td><td>:</td><td><div contenteditable="true">' + value + '</div></td></tr></tbody></table></td>';
    tr.querySelector('.actions').addEventListener('click', () => {
      document.querySelector('#status').textContent = 'Actions for ' + key;
    });
    document.querySelector('#rows').append(tr);
    return tr;
  }
  row('firstName', 'Ada');
  row('lastName', 'Lovelace');
  const address = row('address', '{1}', true);
  const city = row('city', 'London', false, true);
  address.querySelector('.expand').addEventListener('click', () => { city.hidden = !city.hidden; });
</script>
</body></html>`

// TestRecordNamesAPersonSees: on that page the recorder finds the tab by
// its role and name and the field by its label, not by their counted ids
// (which differ on the next load, where replay runs); the actions button
// of a row by the row's key, not its position; and the steps read as a
// person names things: no tooltip read out, no button's text for a field,
// no grid row by every cell. The trail replays green on a new load.
func TestRecordNamesAPersonSees(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, namesPage, func(app context.Context) {
		clickCSS(t, app, "[role=tab]:nth-child(2)")
		WaitFor[bool](t, app, `document.querySelector('#panel').textContent === 'Options settings'`)
		clickCSS(t, app, "p > input")
		typeKeys(t, app, "Ada")
		WaitFor[bool](t, app, `document.querySelector('p > input').value === 'Ada'`)
		clickCSS(t, app, "#rows > tr:nth-child(3) .expand")
		WaitFor[bool](t, app, `!document.querySelector('#rows > tr:nth-child(4)').hidden`)
		clickCSS(t, app, "#rows > tr:nth-child(2) .actions")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Actions for lastName'`)
		clickCSS(t, app, ".menu input")
		typeKeys(t, app, "Lovelace")
		WaitFor[bool](t, app, `document.querySelector('.menu input').value === 'Lovelace'`)
		clickCSS(t, app, `[aria-label^="Select Row Liam"]`)
		WaitFor[bool](t, app, `document.querySelector('[aria-label^="Select Row Liam"]').checked`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	yaml := string(rec.yaml)
	if m := regexp.MustCompile(`(?:id|testId): (?:opt-tab-|nickname_)\d+`).FindString(yaml); m != "" {
		t.Errorf("the trail finds an element by an id counted at load (%s):\n%s", m, yaml)
	}
	if strings.Contains(yaml, "index:") {
		t.Errorf("the trail counts a position where the row's key tells the element apart:\n%s", yaml)
	}
	var actions string
	for _, st := range rec.trail.Steps {
		for _, a := range st.Actions {
			if sel, ok := actionSelector(a); ok && sel.Name == "Click to open the actions menu (Ctrl+M)" {
				actions = sel.String()
			}
		}
	}
	if !strings.Contains(actions, "within") || !strings.Contains(actions, "lastName") {
		t.Errorf("the actions button is found by %q, want it within the row of lastName:\n%s", actions, yaml)
	}
	for _, st := range rec.trail.Steps {
		for _, bad := range []string{"Click to", "(Ctrl", "Tree ▾", "$62,000", "Drag to"} {
			if strings.Contains(st.Intent, bad) {
				t.Errorf("the intent %q reads %q: a tooltip, a button's text or every cell of a row is no name", st.Intent, bad)
			}
		}
		if st.End != nil {
			for _, sel := range st.End.Shows {
				if strings.Contains(sel.Name, "Drag to move") {
					t.Errorf("an end names a row by its tooltips: %s", sel)
				}
			}
		}
	}
	for _, want := range []string{"Click the Options tab", "Click the button to open the actions menu in lastName", "Check Select Row in Liam Johnson"} {
		if !strings.Contains(yaml, want) {
			t.Errorf("no step reads %q:\n%s", want, yaml)
		}
	}
	rec.replayGreen(t)
}
