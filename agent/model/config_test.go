package model_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent/model"
)

func TestConfigCheck(t *testing.T) {
	const pastedKey = "sk-proj-abc123def456"
	cases := []struct {
		name string
		cfg  model.Config
		want error // nil: usable
		says string
	}{
		{"OpenAI", model.Config{BaseURL: "https://api.openai.com/v1", Name: "gpt-4.1-mini", APIKeyEnv: "OPENAI_API_KEY"}, nil, ""},
		{"Ollama without a key", model.Config{BaseURL: "http://localhost:11434/v1", Name: "qwen3"}, nil, ""},
		{"Azure deployment routes", model.Config{BaseURL: "https://shop.openai.azure.com/?api-version=2024-10-21", Name: "gpt4o", APIKeyEnv: "AZURE_OPENAI_API_KEY"}, nil, ""},
		{"Azure v1 API", model.Config{BaseURL: "https://shop.openai.azure.com/openai/v1", Name: "gpt4o", APIKeyEnv: "AZURE_OPENAI_API_KEY"}, nil, ""},
		{"nothing", model.Config{}, model.ErrNotConfigured, "set model.baseURL, model.name and model.apiKeyEnv"},
		{"no base URL", model.Config{Name: "gpt-4.1"}, model.ErrNotConfigured, "model.baseURL is not"},
		{"no name", model.Config{BaseURL: "http://localhost:8080/v1"}, model.ErrNotConfigured, "model.name is not"},
		{"key instead of a variable", model.Config{BaseURL: "https://api.openai.com/v1", Name: "m", APIKeyEnv: pastedKey}, model.ErrBadConfig, "never the key itself"},
		{"OpenAI without a key", model.Config{BaseURL: "https://api.openai.com/v1", Name: "m"}, model.ErrBadConfig, "needs an API key"},
		{"Azure without a key", model.Config{BaseURL: "https://shop.openai.azure.com/?api-version=2024-10-21", Name: "m"}, model.ErrBadConfig, "needs an API key"},
		{"Azure without a version", model.Config{BaseURL: "https://shop.openai.azure.com", Name: "m", APIKeyEnv: "K"}, model.ErrBadConfig, "without an API version"},
		{"Azure with a path", model.Config{BaseURL: "https://shop.openai.azure.com/openai/deployments/gpt4o?api-version=2024-10-21", Name: "m", APIKeyEnv: "K"}, model.ErrBadConfig, "endpoint alone"},
		{"Azure over http", model.Config{BaseURL: "http://shop.openai.azure.com/?api-version=2024-10-21", Name: "m", APIKeyEnv: "K"}, model.ErrBadConfig, "plain http"},
		{"not http", model.Config{BaseURL: "ftp://example.com/v1", Name: "m"}, model.ErrBadConfig, "not an http or https URL"},
		{"no host", model.Config{BaseURL: "http:///v1", Name: "m"}, model.ErrBadConfig, "no host"},
		{"key in the URL", model.Config{BaseURL: "https://user:" + pastedKey + "@example.com/v1", Name: "m"}, model.ErrBadConfig, "user name or password"},
		{"key in the query", model.Config{BaseURL: "https://example.com/v1?key=" + pastedKey, Name: "m"}, model.ErrBadConfig, "query other than api-version"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Check()
			if tc.want == nil {
				if err != nil {
					t.Errorf("Check(%+v) = %v, want nil", tc.cfg, err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Check(%+v) = %v, want %v saying %q", tc.cfg, err, tc.want, tc.says)
			}
			if err != nil && strings.Contains(err.Error(), pastedKey) {
				t.Errorf("Check(%+v) = %v: the error shows the key", tc.cfg, err)
			}
		})
	}
}

func TestNewReadsTheKeyFromItsVariableOnly(t *testing.T) {
	cfg := model.Config{BaseURL: "http://127.0.0.1:1/v1", Name: "m", APIKeyEnv: "SHOP_MODEL_KEY"}
	_, err := model.New(cfg, model.WithGetenv(env("OTHER", "x")))
	if !errors.Is(err, model.ErrBadConfig) || !strings.Contains(err.Error(), "$SHOP_MODEL_KEY, which is not set") {
		t.Errorf("New with the variable unset = %v, want it named", err)
	}
	_, err = model.New(cfg, model.WithGetenv(env("SHOP_MODEL_KEY", "abc\ndef")))
	if !errors.Is(err, model.ErrBadConfig) || strings.Contains(err.Error(), "abc") {
		t.Errorf("New with a key holding a line break = %v, want refused without showing it", err)
	}
	if _, err := model.New(cfg, model.WithGetenv(env("SHOP_MODEL_KEY", "k-1234"))); err != nil {
		t.Errorf("New = %v", err)
	}
}

// An API key goes over plain http only to this machine, unless the config
// allows it in words; the allowance is then said (InsecureNotice).
func TestConfigKeyOverPlainHTTP(t *testing.T) {
	cases := []struct {
		name    string
		cfg     model.Config
		refused bool
		notice  bool
	}{
		{"another host with a key", model.Config{BaseURL: "http://10.0.0.5:8000/v1", Name: "m", APIKeyEnv: "K"}, true, false},
		{"a name with a key", model.Config{BaseURL: "http://models.lan/v1", Name: "m", APIKeyEnv: "K"}, true, false},
		{"HTTP in capitals", model.Config{BaseURL: "HTTP://10.0.0.5:8000/v1", Name: "m", APIKeyEnv: "K"}, true, false},
		{"api.openai.com over http", model.Config{BaseURL: "http://api.openai.com/v1", Name: "m", APIKeyEnv: "K"}, true, false},
		{"allowed in config", model.Config{BaseURL: "http://10.0.0.5:8000/v1", Name: "m", APIKeyEnv: "K", AllowInsecureHTTP: true}, false, true},
		{"another host, no key", model.Config{BaseURL: "http://10.0.0.5:8000/v1", Name: "m"}, false, false},
		{"localhost", model.Config{BaseURL: "http://localhost:8000/v1", Name: "m", APIKeyEnv: "K"}, false, false},
		{"LOCALHOST", model.Config{BaseURL: "http://LOCALHOST:8000/v1", Name: "m", APIKeyEnv: "K"}, false, false},
		{"127.0.0.1", model.Config{BaseURL: "http://127.0.0.1:8000/v1", Name: "m", APIKeyEnv: "K"}, false, false},
		{"127.8.9.10", model.Config{BaseURL: "http://127.8.9.10:8000/v1", Name: "m", APIKeyEnv: "K"}, false, false},
		{"::1", model.Config{BaseURL: "http://[::1]:8000/v1", Name: "m", APIKeyEnv: "K"}, false, false},
		{"loopback, allowed needlessly", model.Config{BaseURL: "http://127.0.0.1:8000/v1", Name: "m", APIKeyEnv: "K", AllowInsecureHTTP: true}, false, false},
		{"https", model.Config{BaseURL: "https://10.0.0.5:8000/v1", Name: "m", APIKeyEnv: "K", AllowInsecureHTTP: true}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Check()
			if tc.refused {
				if !errors.Is(err, model.ErrBadConfig) || !strings.Contains(err.Error(), "over plain http") ||
					!strings.Contains(err.Error(), "use https") || !strings.Contains(err.Error(), "model.allowInsecureHTTP: true") {
					t.Errorf("Check(%+v) = %v, want it refused, saying to use https or set model.allowInsecureHTTP: true", tc.cfg, err)
				}
				if _, err := model.New(tc.cfg, model.WithGetenv(env("K", "tk-plain-http-1"))); !errors.Is(err, model.ErrBadConfig) {
					t.Errorf("New(%+v) = %v, want the same refusal", tc.cfg, err)
				}
				return
			}
			if err != nil {
				t.Errorf("Check(%+v) = %v, want nil", tc.cfg, err)
			}
			n := tc.cfg.InsecureNotice()
			if tc.notice != (n != "") {
				t.Errorf("InsecureNotice(%+v) = %q, want a notice: %v", tc.cfg, n, tc.notice)
			}
			if tc.notice && (!strings.Contains(n, "model.allowInsecureHTTP") || !strings.Contains(n, "$K") || !strings.Contains(n, "10.0.0.5:8000")) {
				t.Errorf("InsecureNotice = %q, want it to name the setting, the key's variable and the endpoint", n)
			}
		})
	}
}
