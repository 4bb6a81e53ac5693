package e2e

import (
	"context"
	"strings"
	"testing"
)

// echoPage shows again what was typed into its key field (marked sensitive
// by the person) and its password field, as an API explorer shows a request
// with its key: the recording must keep both values out of every screen it
// captures, not only out of the fields.
const echoPage = `<!doctype html><html><head><title>Echo</title></head><body>
<h1>Try the API</h1>
<label>API key <input id="key"></label>
<label>Password <input id="pass" type="password"></label>
<button id="use">Send the request</button>
<pre id="echo"></pre>
<script>
document.querySelector('#use').addEventListener('click', () => {
  const key = document.querySelector('#key').value, pass = document.querySelector('#pass').value;
  document.querySelector('#echo').textContent = "curl -H 'X-API-Key: " + key + "' -u ada:" + pass + " /api/orders";
});
</script></body></html>`

func TestRecordSecretShownAgainLeaksNowhere(t *testing.T) {
	t.Parallel()
	const key, pass = "Kx9+Wm2/qLz7", "Pv4-hunter-Jq8"
	rec := recordPage(t, echoPage, func(app context.Context) {
		clickAX(t, app, "button", "Mark sensitive")
		waitAX(t, app, "StaticText", "Click the element whose value must never be written down.")
		clickCSS(t, app, "#key")
		waitAX(t, app, "StaticText", "Marked: what it shows stays out of the trail.")
		clickCSS(t, app, "#key")
		typeKeys(t, app, key)
		clickCSS(t, app, "#pass")
		typeKeys(t, app, pass)
		clickCSS(t, app, "#use")
		waitAcrossLoads(t, app, `document.querySelector('#echo').textContent.includes('X-API-Key')`)
		clickCSS(t, app, "h1")
	})
	for _, want := range []string{"${secret:api-key}", "${secret:password}"} {
		if !strings.Contains(string(rec.yaml), want) {
			t.Errorf("the trail does not type %s:\n%s", want, rec.yaml)
		}
	}
	rec.rig.checkNoSecret(t, key, rec.path)
	rec.rig.checkNoSecret(t, pass, rec.path)
}
