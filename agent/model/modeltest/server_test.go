package modeltest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url string, header http.Header, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	json.Unmarshal(b, &m)
	return resp.StatusCode, m
}

func TestRoutesKeysAndScript(t *testing.T) {
	s := Start(t, WithKey("k1"))
	s.Script(Call("tap", map[string]string{"ref": "e1"}).WithUsage(3, 2))
	bearer := http.Header{"Authorization": {"Bearer k1"}}
	body := `{"model":"m","messages":[{"role":"user","content":"go"}]}`

	if code, _ := post(t, s.URL+"/chat/completions", nil, body); code != http.StatusUnauthorized {
		t.Errorf("no key: status %d, want 401", code)
	}
	if code, _ := post(t, s.Origin+"/v2/chat/completions", bearer, body); code != http.StatusNotFound {
		t.Errorf("unknown route: status %d, want 404", code)
	}
	if code, _ := post(t, s.Origin+"/openai/deployments/d/chat/completions", http.Header{"Api-Key": {"k1"}}, body); code != http.StatusBadRequest {
		t.Errorf("Azure without api-version: status %d, want 400", code)
	}
	if s.Pending() != 1 {
		t.Fatalf("a refused request used the script")
	}
	code, m := post(t, s.URL+"/chat/completions", bearer, body)
	choice := m["choices"].([]any)[0].(map[string]any)
	fn := choice["message"].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)["function"].(map[string]any)
	if code != 200 || fn["name"] != "tap" || fn["arguments"] != `{"ref":"e1"}` || m["usage"].(map[string]any)["prompt_tokens"] != 3.0 {
		t.Errorf("scripted call: %d %v", code, m)
	}
	if code, m := post(t, s.URL+"/chat/completions", bearer, body); code != 500 || !strings.Contains(m["error"].(map[string]any)["message"].(string), "no reply scripted for request 5") {
		t.Errorf("past the script: %d %v, want 500 saying so", code, m)
	}
	reqs := s.Requests()
	if len(reqs) != 5 || reqs[3].Shape != "openai" || reqs[2].Shape != "azure" || reqs[2].Deployment != "d" || !bytes.Equal(reqs[3].Body, []byte(body)) {
		t.Errorf("recorded %+v", reqs)
	}
	if reqs[3].LastUserText() != "go" || reqs[3].Model() != "m" {
		t.Errorf("LastUserText %q, Model %q", reqs[3].LastUserText(), reqs[3].Model())
	}
}

func TestPolicyAnswersPastTheScript(t *testing.T) {
	s := Start(t, WithPolicy(func(r Request) Reply { return Text("policy for " + r.Model()) }))
	s.Script(Text("scripted"))
	var got []string
	for range 2 {
		_, m := post(t, s.URL+"/chat/completions", nil, `{"model":"m"}`)
		got = append(got, m["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string))
	}
	if strings.Join(got, "|") != "scripted|policy for m" {
		t.Errorf("answers = %q, want the script, then the policy", got)
	}
}
