package replay

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// Evidence: what the app did on its own while a trail ran (console output,
// uncaught errors, failed requests, HTTP errors, navigations), each tagged
// with the step it happened in. The trace page shows it; the classifier
// reads the HTTP statuses from it.

// Limits that keep a chatty app from filling a report.
const (
	// maxLogEntries bounds a trail's log; later entries are counted, not kept.
	maxLogEntries = 500
	// maxLogText bounds one entry's text.
	maxLogText = 2000
	// maxTrackedRequests bounds the request URLs remembered for failures;
	// an app that never finishes its requests cannot grow it forever.
	maxTrackedRequests = 5000
)

// A response is one document or XHR/fetch answer, for the classifier.
type response struct {
	step   int
	status int64
	// document is true for a document (a page or a frame), false for an
	// XHR or fetch.
	document bool
	// main is true for the document of a tab's top frame.
	main   bool
	url    string
	method string
}

// eventLog collects the app's events from every tab of a trail.
type eventLog struct {
	mu        sync.Mutex
	step      int
	entries   []LogEntry
	dropped   int
	responses []response
	requests  map[network.RequestID]string // method and URL of requests in flight
	crashed   bool
}

func newEventLog() *eventLog {
	return &eventLog{requests: map[network.RequestID]string{}}
}

// setStep tags what follows with step i (0 before the first step).
func (l *eventLog) setStep(i int) {
	l.mu.Lock()
	l.step = i
	l.mu.Unlock()
}

func (l *eventLog) add(kind LogKind, level, text, u string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.addLocked(kind, level, text, u)
}

func (l *eventLog) addLocked(kind LogKind, level, text, u string) {
	if len(l.entries) >= maxLogEntries {
		l.dropped++
		return
	}
	l.entries = append(l.entries, LogEntry{
		Time: time.Now(), Step: l.step, Kind: kind, Level: level,
		Text: diagnose.Clip(text, maxLogText), URL: u,
	})
}

// snapshot returns a copy of the entries, with a last line counting those
// that did not fit.
func (l *eventLog) snapshot() []LogEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]LogEntry(nil), l.entries...)
	if l.dropped > 0 {
		out = append(out, LogEntry{Time: time.Now(), Step: l.step, Kind: LogConsole, Level: "info",
			Text: fmt.Sprintf("%d more entries were not kept", l.dropped)})
	}
	return out
}

func (l *eventLog) responsesCopy() []response {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]response(nil), l.responses...)
}

func (l *eventLog) hasCrashed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.crashed
}

// onEvent records the events that are evidence. It runs in a tab's event
// loop, so it only takes a lock and appends.
func (l *eventLog) onEvent(ev any, mainFrame string) {
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.Request == nil {
			return
		}
		l.mu.Lock()
		if len(l.requests) < maxTrackedRequests {
			l.requests[ev.RequestID] = ev.Request.Method + " " + ev.Request.URL
		}
		l.mu.Unlock()
	case *network.EventResponseReceived:
		l.onResponse(ev, mainFrame)
	case *network.EventLoadingFinished:
		l.mu.Lock()
		delete(l.requests, ev.RequestID)
		l.mu.Unlock()
	case *network.EventLoadingFailed:
		l.mu.Lock()
		req := l.requests[ev.RequestID]
		delete(l.requests, ev.RequestID)
		// A cancelled request is one the page or a navigation dropped on
		// purpose, not a failure.
		if !ev.Canceled {
			method, u, _ := strings.Cut(req, " ")
			text := strings.TrimSpace(method + " " + shortURL(u) + " failed: " + ev.ErrorText)
			if ev.BlockedReason != "" {
				text += " (blocked: " + string(ev.BlockedReason) + ")"
			}
			l.addLocked(LogRequest, "failed", text, u)
		}
		l.mu.Unlock()
	case *runtime.EventConsoleAPICalled:
		l.add(LogConsole, string(ev.Type), consoleText(ev.Args), "")
	case *runtime.EventExceptionThrown:
		if ev.ExceptionDetails != nil {
			l.add(LogException, "error", exceptionText(ev.ExceptionDetails), ev.ExceptionDetails.URL)
		}
	case *log.EventEntryAdded:
		// Network entries repeat what the network events said; the rest
		// (interventions, deprecations, security) is the browser's own
		// word about the page.
		if e := ev.Entry; e != nil && e.Source != log.EntrySourceNetwork &&
			(e.Level == log.EntryLevelError || e.Level == log.EntryLevelWarning) {
			l.add(LogConsole, string(e.Level), e.Text, e.URL)
		}
	}
}

func (l *eventLog) onResponse(ev *network.EventResponseReceived, mainFrame string) {
	if ev.Response == nil {
		return
	}
	doc := ev.Type == network.ResourceTypeDocument
	if !doc && ev.Type != network.ResourceTypeXHR && ev.Type != network.ResourceTypeFetch {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	method, _, _ := strings.Cut(l.requests[ev.RequestID], " ")
	if method == "" {
		method = "GET"
	}
	r := response{step: l.step, status: ev.Response.Status, document: doc,
		main: doc && string(ev.FrameID) == mainFrame, url: ev.Response.URL, method: method}
	l.responses = append(l.responses, r)
	if len(l.responses) > maxTrackedRequests {
		l.responses = l.responses[len(l.responses)-maxTrackedRequests:]
	}
	if ev.Response.Status >= 400 {
		what := "XHR"
		if doc {
			what = "document"
		} else if ev.Type == network.ResourceTypeFetch {
			what = "fetch"
		}
		text := fmt.Sprintf("%s %s answered %d %s (%s)", method, shortURL(ev.Response.URL), ev.Response.Status,
			strings.TrimSpace(ev.Response.StatusText), what)
		l.addLocked(LogRequest, strconv.FormatInt(ev.Response.Status, 10), text, ev.Response.URL)
	}
}

// shortURL is a URL without its origin when it has a path: what a person
// scanning a log reads.
func shortURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return u
	}
	return p.RequestURI()
}

// consoleText writes a console call's arguments as the DevTools console
// shows them, in short: strings as they are, other values by their
// description.
func consoleText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		if a == nil {
			continue
		}
		switch {
		case a.Type == runtime.RemoteObjectTypeString:
			var s string
			if json.Unmarshal(a.Value, &s) == nil {
				parts = append(parts, s)
				continue
			}
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
			continue
		case a.UnserializableValue != "":
			parts = append(parts, string(a.UnserializableValue))
			continue
		}
		if a.Description != "" {
			parts = append(parts, a.Description)
		} else {
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// exceptionText is an uncaught error's message, as the console shows it.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		first, _, _ := strings.Cut(d.Exception.Description, "\n    at ")
		return first
	}
	return d.Text
}
