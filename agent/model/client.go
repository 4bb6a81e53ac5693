package model

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/azure"
	"github.com/openai/openai-go/v3/option"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/storage/redact"
)

// Waits between attempts after an error of the endpoint (not after a bad
// answer, which is retried at once): doubling from backoffFirst, at most
// backoffMax, unless the endpoint says how long (Retry-After).
const (
	backoffFirst = 500 * time.Millisecond
	backoffMax   = 8 * time.Second
)

// maxDetail bounds what an error quotes of an answer, so that a chatty
// model or an HTML error page does not flood a step's reason.
const maxDetail = 300

// keyPlaceholder stands in for the API key wherever an endpoint echoed it.
const keyPlaceholder = "[model.apiKeyEnv]"

// A Client sends chat-completions requests to one configured model. It is
// safe for concurrent use.
type Client struct {
	cfg      Config
	ep       endpoint
	key      string
	redactor *redact.Redactor
	svc      openai.ChatCompletionService
	first    time.Duration
	max      time.Duration
	now      func() time.Time
	// callIDs numbers the calls of an endpoint that gives them no id.
	callIDs *atomic.Int64
}

// WithSecrets is c with r as its redactor: every request body passes
// through r before it is sent. A run's client is made once; each trail's
// secrets are its own, so the engine gives each trail the client with that
// trail's redactor. The copy shares c's connections and call numbering.
func (c *Client) WithSecrets(r *redact.Redactor) *Client {
	cp := *c
	cp.redactor = r
	return &cp
}

type options struct {
	redactor   *redact.Redactor
	getenv     func(string) string
	httpClient *http.Client
	first, max time.Duration
	now        func() time.Time
}

// An Option changes how New builds a client.
type Option func(*options)

// WithRedactor passes every request body through r before it is sent:
// the run's one redactor, holding its secrets.
func WithRedactor(r *redact.Redactor) Option { return func(o *options) { o.redactor = r } }

// WithGetenv reads the API key's variable with getenv instead of the
// process's environment.
func WithGetenv(getenv func(string) string) Option { return func(o *options) { o.getenv = getenv } }

// WithHTTPClient sends requests with c.
func WithHTTPClient(c *http.Client) Option { return func(o *options) { o.httpClient = c } }

// WithBackoff changes the waits between attempts after an endpoint's error
// (tests make them short).
func WithBackoff(first, max time.Duration) Option {
	return func(o *options) { o.first, o.max = first, max }
}

// New returns a client of the model cfg names. The API key is read once,
// here, from the variable cfg.APIKeyEnv names; an error wraps
// ErrNotConfigured or ErrBadConfig and says what to set. Nothing is sent.
func New(cfg Config, opts ...Option) (*Client, error) {
	o := options{getenv: os.Getenv, first: backoffFirst, max: backoffMax, now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	if o.httpClient == nil {
		o.httpClient = &http.Client{}
	}
	ep, err := cfg.endpoint()
	if err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg, ep: ep, redactor: o.redactor, first: o.first, max: o.max, now: o.now, callIDs: new(atomic.Int64)}
	if cfg.APIKeyEnv != "" {
		c.key = o.getenv(cfg.APIKeyEnv)
		if c.key == "" {
			return nil, fmt.Errorf("%w: model.apiKeyEnv names $%s, which is not set: set it to the API key (the key is read from there only)", ErrBadConfig, cfg.APIKeyEnv)
		}
		if strings.ContainsAny(c.key, " \t\r\n") {
			return nil, fmt.Errorf("%w: the value of $%s holds a space or a line break: set it to the key alone", ErrBadConfig, cfg.APIKeyEnv)
		}
	}
	// The service alone, not openai.NewClient: that one also reads
	// OPENAI_API_KEY, OPENAI_BASE_URL and other variables, and the key must
	// come from model.apiKeyEnv only. Retries are this package's, so that
	// every attempt is counted and bounded by the caller's budget.
	sdk := []option.RequestOption{option.WithHTTPClient(o.httpClient), option.WithMaxRetries(0)}
	switch ep.kind {
	case kindAzure:
		sdk = append(sdk, azure.WithEndpoint(ep.base, ep.apiVersion), azure.WithAPIKey(c.key))
		if strings.HasPrefix(ep.base, "http://") {
			sdk = append(sdk, azure.WithUnsafeAllowHTTP())
		}
	default:
		sdk = append(sdk, option.WithBaseURL(ep.base))
		if c.key != "" {
			sdk = append(sdk, option.WithAPIKey(c.key))
		}
	}
	c.svc = openai.NewChatCompletionService(sdk...)
	return c, nil
}

// Name is the configured model's name.
func (c *Client) Name() string { return c.cfg.Name }

// scrub makes text from an endpoint or a transport safe for a message: the
// key and every secret hidden, one line, bounded.
func (c *Client) scrub(s string) string {
	if c.key != "" {
		s = strings.ReplaceAll(s, c.key, keyPlaceholder)
	}
	s = screen.OneLine(c.redactor.String(s))
	return screen.Clip(s, maxDetail)
}
